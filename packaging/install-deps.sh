#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what idlescope needs to build, test and run on Debian 12, and only
# what is missing. Runs apt-get through sudo when not root.
set -eu

PACKAGES="build-essential cmake pkg-config
qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
libqcustomplot-dev libeigen3-dev zlib1g-dev
libtracecmd-dev libtraceevent-dev libtracefs-dev trace-cmd libseccomp-dev libssl-dev
libbenchmark-dev clang libclang-rt-14-dev clang-format clang-tidy
xvfb xauth imagemagick dpkg-dev file lintian parallel
poppler-utils librsvg2-bin"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
