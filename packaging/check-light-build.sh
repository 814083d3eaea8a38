#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's light build: configured with tests, benchmarks, fuzzers and the
# GUI off, the project must not look for Qt Widgets, Qt Gui, Qt Test,
# QCustomPlot or Google Benchmark (a user who wants the CLI alone need not
# install them), and the build it generates has the command-line tool and no
# GUI. Configure only (the targets come from CMake's file API, whatever the
# generator); building it is the README's business, not this test's.
#   packaging/check-light-build.sh SOURCE_DIR
set -eu
src=$(cd "${1:?usage: check-light-build.sh SOURCE_DIR}" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
mkdir -p "$build/.cmake/api/v1/query"
: >"$build/.cmake/api/v1/query/codemodel-v2"
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
# The code model lists every target of the generated build by an id "NAME::@DIR"
# (its "name" fields also name the project, which is called idlescope too).
codemodel=$(cat "$build"/.cmake/api/v1/reply/codemodel-v2-*.json)
has_target() {
    printf '%s\n' "$codemodel" | grep -Eq "\"id\" *: *\"$1::@"
}
has_target idlescope-cli || { echo "check-light-build: no idlescope-cli target"; exit 1; }
for gui in idlescope idlescope_widgets; do
    if has_target "$gui"; then
        echo "check-light-build: the light build has the GUI target $gui"
        exit 1
    fi
done
echo "check-light-build: configured with Qt Core only; idlescope-cli and no GUI target"
