#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The format check: every line of C++ changed since the check began (the
# commit in scripts/format-base) follows .clang-format. Older lines keep their
# form until they change, so that the history stays readable. Run by CTest as
# check_format; `check_format.sh --self-test` runs it on a small repository
# with a badly formatted change, so that the check cannot pass by finding nothing.
#   check_format.sh [ROOT]     exit 0: formatted, 1: not (the diff that fixes it is printed)
set -euo pipefail

check() {
    local root=$1
    cd "$root"
    local base
    base=$(tr -d '[:space:]' < scripts/format-base)
    if ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
        echo "check_format: this checkout lacks commit $base (a shallow clone?); nothing to compare with"
        return 0
    fi
    local out status=0
    out=$(git clang-format --binary clang-format --diff --extensions cpp,h "$base" -- 2>&1) || status=$?
    case "$out" in
        "" | "no modified files to format" | "clang-format did not modify any files") return 0 ;;
    esac
    if [ "$status" -ne 0 ] && ! grep -q '^diff --git' <<<"$out"; then
        echo "check_format: git clang-format failed: $out" >&2
        return 1
    fi
    echo "$out"
    echo "check_format: the lines above, changed since $base, do not follow .clang-format;" \
         "\`git clang-format $base\` formats them." >&2
    return 1
}

self_test() {
    local here tmp
    here=$(cd "$(dirname "$0")/.." && pwd)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    (
        cd "$tmp"
        git init -q
        git config user.email check@localhost
        git config user.name check
        mkdir scripts
        cp "$here/.clang-format" .
        printf 'int f(int a) { return a; }\n' > a.cpp
        git add . && git commit -qm base
        git rev-parse HEAD > scripts/format-base
        printf 'int f(int a) { return a; }\nint   g( int b ){return b;}\n' > a.cpp
        git add . && git commit -qm change
    )
    if (check "$tmp") > /dev/null 2>&1; then
        echo "check_format --self-test: a badly formatted change passed" >&2
        return 1
    fi
    printf 'int f(int a) { return a; }\nint g(int b) { return b; }\n' > "$tmp/a.cpp"
    (cd "$tmp" && git commit -qam fixed)
    if ! (check "$tmp") > /dev/null 2>&1; then
        echo "check_format --self-test: a formatted change failed" >&2
        return 1
    fi
    echo "check_format --self-test: a badly formatted change fails, a formatted one passes"
}

if [ "${1:-}" = "--self-test" ]; then
    self_test
else
    check "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
fi
