#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what CharGPT Studio needs on Debian 12, builds it (Release; for `run`
# only the app and the command-line tool) and then
#   run       launches chargpt-studio (extra arguments are passed on), or
#   test      runs the whole test suite through CTest, then a short run of each
#             fuzzer (build-fuzz, clang + libFuzzer; CHARGPT_FUZZ_SECONDS each), or
#   quick     builds and runs only the quick unit tests (CTest label "quick"), or
#   sanitize  builds everything again with AddressSanitizer and UndefinedBehavior-
#             Sanitizer (build-asan) and runs the whole test suite there, or
#   tsan      builds the threaded parts with ThreadSanitizer (build-tsan) and runs
#             the test programs that hand work between threads there, or
#   portable  builds the quick tests' programs with -DCHARGPT_PORTABLE=ON (build-
#             portable: the kernels for the compiler's baseline only, no x86
#             attribute or intrinsic, as on a CPU that is not x86) and runs them.
# docs/RELIABILITY.md says what the fuzzers and sanitizers check.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
shift || true

# Each stage's wall time, printed when the script ends (also when a stage
# fails), so that a slow stage is seen. CHARGPT_STAGE_LOG, when set, names a
# file that collects them across several runs of this script (.ci/run).
stage_names=()
stage_seconds=()
stage() {
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    stage_names+=("$name")
    stage_seconds+=($((SECONDS - start)))
    if [ -n "${CHARGPT_STAGE_LOG:-}" ]; then
        printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$status" >>"$CHARGPT_STAGE_LOG"
    fi
    return "$status"
}
print_stages() {
    ((${#stage_names[@]})) || return 0
    echo "== setup.sh $mode: wall time of each stage"
    local i
    for i in "${!stage_names[@]}"; do
        printf '%6d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"
    done
}
trap print_stages EXIT

packages=(
    build-essential cmake ninja-build pkg-config lld
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    libqcustomplot-dev libqt6svg6 qt6-svg-dev
    libtorch-dev
    # JSON (configs, vocabulary files, the CLI's output) and the CLI's arguments.
    nlohmann-json3-dev libcli11-dev
    # The suffix array of the copy index (model/text/CopyIndex.h).
    libdivsufsort-dev
    # The run library (model/record/RunLibrary.h).
    libsqlite3-dev
    # LibTorch links the generic libblas.so.3; the reference BLAS is about 5x slower.
    libopenblas0-openmp
    fortunes-zh fonts-noto-cjk
    xvfb xauth
    # The PyTorch round trip (tests/tst_pytorch, python/train_ddp.py, bench/).
    python3-torch
    # The fuzzers (libFuzzer) and the sanitizer runtimes.
    clang-14 libclang-rt-14-dev libasan8 libubsan1 libtsan2
    # The format check of changed lines (scripts/check_format.sh).
    clang-format git
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "Installing: ${missing[*]}"
    install_packages() {
        "${sudo[@]}" apt-get update
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
    }
    stage "install packages" install_packages
fi

build=${CHARGPT_BUILD_DIR:-build}
build_release() {
    stage "configure (Release)" cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
    stage "build (Release)" cmake --build "$build" -j"$(nproc)" "$@"
}

# The model library and the fuzzers, with clang, in their own folder; each fuzzer
# replays its seed inputs (fuzz/corpus/<name>) and then mutates them for
# CHARGPT_FUZZ_SECONDS. A crash, a sanitizer report or a failed property fails.
fuzz_smoke() {
    local dir=${CHARGPT_FUZZ_BUILD_DIR:-build-fuzz}
    stage "configure (fuzz)" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHARGPT_FUZZ=ON \
        -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
        -DCHARGPT_FUZZ_SECONDS="${CHARGPT_FUZZ_SECONDS:-15}"
    stage "build (fuzz)" cmake --build "$dir" -j"$(nproc)"
    stage "fuzz smoke runs" ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
}

# Everything built with AddressSanitizer + UndefinedBehaviorSanitizer (gcc) in its
# own folder, and the whole suite run there. LibTorch, OpenMP and Qt are not
# instrumented: fuzz/sanitizers/*.supp lists what is suppressed in them, and why.
sanitize() {
    local dir=${CHARGPT_ASAN_BUILD_DIR:-build-asan}
    local supp=$PWD/fuzz/sanitizers
    stage "configure (ASan+UBSan)" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHARGPT_SANITIZE=ON
    stage "build (ASan+UBSan)" cmake --build "$dir" -j"$(nproc)"
    cd "$dir"
    # max_malloc_fill_size=0 and malloc_context_size=8: starting a program
    # that loads LibTorch (hundreds of thousands of allocations) takes a
    # quarter less time; fills find nothing, and a report keeps 8 frames of
    # where its memory was allocated and freed.
    ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:max_malloc_fill_size=0:malloc_context_size=8" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="suppressions=$supp/ubsan.supp:print_stacktrace=1:halt_on_error=1" \
    QT_QPA_PLATFORM=offscreen stage "test suite (ASan+UBSan)" ctest --output-on-failure -j"$(nproc)" "$@"
}

# The model library, the widgets, the app library and the test programs that
# hand work between threads (the training worker, the inspector, pause/stop from
# another thread, a sample's next window), built with ThreadSanitizer (gcc) in their own folder and run
# there. OMP_NUM_THREADS=1: LibTorch's OpenMP (libgomp) is not instrumented, so
# TSan cannot see its barriers; with one thread no OpenMP team exists, and the
# tests check that one thread is in force. fuzz/sanitizers/tsan.supp lists the
# synchronisation inside Qt that TSan cannot see, and why.
# The tests, and the two programs that hold them (tests/CMakeLists.txt).
tsan_tests=(tst_training tst_session tst_nextwindow tst_trainingworker tst_lossfeeds tst_controllers tst_mainwindow tst_runstab tst_inspect tst_windowfaults tst_timeline_gui)
tsan_programs=(tests_training tests_threads)
tsan() {
    local dir=${CHARGPT_TSAN_BUILD_DIR:-build-tsan}
    local supp=$PWD/fuzz/sanitizers/tsan.supp
    stage "configure (TSan)" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHARGPT_TSAN=ON
    stage "build (TSan)" cmake --build "$dir" -j"$(nproc)" --target "${tsan_programs[@]}"
    local regex
    regex="^($(IFS='|'; echo "${tsan_tests[*]}"))\$"
    cd "$dir"
    # history_size=7: the longest history of accesses, so that the earlier
    # access of a report is always shown ("failed to restore the stack"
    # otherwise), and the suppressions, which match stacks, can match it.
    OMP_NUM_THREADS=1 \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=$supp" \
    QT_QPA_PLATFORM=offscreen stage "threaded tests (TSan)" ctest --output-on-failure -j"$(nproc)" -R "$regex" "$@"
}

# The portable configuration (CHARGPT_PORTABLE, model/nn/kernels/KernelTiers.h):
# what an arm64 laptop builds. The quick tests check its kernels against the
# plain LibTorch expressions (tst_kernels) and the rest of the model library.
portable() {
    local dir=${CHARGPT_PORTABLE_BUILD_DIR:-build-portable}
    stage "configure (portable)" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCHARGPT_PORTABLE=ON
    stage "build (portable)" cmake --build "$dir" -j"$(nproc)" --target quick_tests
    QT_QPA_PLATFORM=offscreen stage "quick tests (portable)" \
        ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" -L quick "$@"
}

case "$mode" in
    run)
        # The window and the command-line tool only: the test programs are
        # half of the build, and `test` builds them.
        build_release --target chargpt-studio chargpt
        print_stages
        trap - EXIT
        exec "$build/bin/chargpt-studio" "$@"
        ;;
    test)
        build_release
        # As many tests at a time as there are cores.
        QT_QPA_PLATFORM=offscreen stage "test suite (Release)" \
            ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
        fuzz_smoke
        ;;
    quick)
        # The unit tests of the model, the widgets and the readers (CTest
        # label "quick"): only their programs are built, and they run in
        # well under a minute. For editing; `test` runs everything.
        build_release --target quick_tests
        QT_QPA_PLATFORM=offscreen stage "quick tests (Release)" \
            ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -L quick "$@"
        ;;
    sanitize)
        sanitize "$@"
        ;;
    tsan)
        tsan "$@"
        ;;
    portable)
        portable "$@"
        ;;
    build)
        build_release
        ;;
    *)
        echo "usage: scripts/setup.sh [run|test|quick|sanitize|tsan|portable|build]" >&2
        exit 2
        ;;
esac
