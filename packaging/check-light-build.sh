#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's light build: configured with tests, benchmarks and the GUI off,
# the project must not look for Qt Widgets, Qt Gui, Qt Test, QCustomPlot or
# Google Benchmark (a user who wants the CLI alone need not install them).
#   packaging/check-light-build.sh SOURCE_DIR
set -eu
src=$(cd "${1:?usage: check-light-build.sh SOURCE_DIR}" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DIDLESCOPE_BUILD_TESTS=OFF \
    -DIDLESCOPE_BUILD_BENCH=OFF -DIDLESCOPE_BUILD_FUZZERS=OFF -DIDLESCOPE_BUILD_GUI=OFF >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"
    exit 1
}
grep -q '^Qt6Core_DIR:' "$build/CMakeCache.txt" || { echo "check-light-build: Qt Core was not found"; exit 1; }
if grep -E '^(Qt6Widgets|Qt6Gui|Qt6Test|Qt6Svg|QCustomPlotQt6|benchmark)_DIR:' "$build/CMakeCache.txt"; then
    echo "check-light-build: the light build looked for the packages above"
    exit 1
fi
echo "check-light-build: configured with Qt Core only"
