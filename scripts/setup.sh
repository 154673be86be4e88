#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what CharGPT Studio needs on Debian 12, builds it (Release) and then
#   run   launches chargpt-studio (extra arguments are passed on), or
#   test  runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
shift || true

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    libqcustomplot-dev libqt6svg6 qt6-svg-dev
    libtorch-dev
    # LibTorch links the generic libblas.so.3; the reference BLAS is about 5x slower.
    libopenblas0-openmp
    fortunes-zh fonts-noto-cjk
    xvfb xauth
    # The PyTorch round trip (tests/tst_pytorch, python/train_ddp.py, bench/).
    python3-torch
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "Installing: ${missing[*]}"
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

build=${CHARGPT_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"

case "$mode" in
    run)
        exec "$build/bin/chargpt-studio" "$@"
        ;;
    test)
        cd "$build"
        QT_QPA_PLATFORM=offscreen ctest --output-on-failure "$@"
        ;;
    build)
        ;;
    *)
        echo "usage: scripts/setup.sh [run|test|build]" >&2
        exit 2
        ;;
esac
