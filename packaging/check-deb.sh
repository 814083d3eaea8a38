#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the .deb of an already built tree with CPack (into a scratch folder,
# so the build tree is left as it was) and runs lintian on it: any error or
# warning fails. Exit 77 (ctest's "skipped") when lintian is not installed.
#   packaging/check-deb.sh build/release
set -eu
build=$(cd "${1:?usage: check-deb.sh BUILD_DIR}" && pwd)

if ! command -v lintian >/dev/null 2>&1; then
    echo "check-deb: lintian is not installed (packaging/install-deps.sh installs it)"
    exit 77
fi
if grep -q '^IDLESCOPE_DPKG_BUILDFLAGS:BOOL=OFF' "$build/CMakeCache.txt"; then
    echo "check-deb: note: $build is configured with IDLESCOPE_DPKG_BUILDFLAGS=OFF;" \
         "lintian will find the binaries unhardened"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch" >"$scratch/cpack.log" 2>&1 || {
    cat "$scratch/cpack.log"
    exit 1
}
deb=$(ls "$scratch"/idlescope_*.deb)
echo "check-deb: $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
# --fail-on: lintian's own exit status says whether any E or W was found.
lintian --fail-on error,warning --display-info --tag-display-limit 0 "$deb"
echo "check-deb: lintian found no errors or warnings"
