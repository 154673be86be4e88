#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The project's size rules: no source file over 500 lines (a file that grows
past it is split by job), and the README, a user's guide, at most 700 lines
(the measurements live in docs/PERFORMANCE.md).

  check_sizes.py [ROOT]         checks the tree at ROOT (default: this repository)
  check_sizes.py --self-test    checks that the checker finds both kinds of breach
"""
import os
import sys
import tempfile

SOURCE_LIMIT = 500
README_LIMIT = 700
SOURCE_DIRS = ("app", "model", "widgets", "tests", "bench", "fuzz", "scripts", "python")
SOURCE_ENDINGS = (".cpp", ".h", ".py", ".sh", ".cmake", "CMakeLists.txt")


def line_count(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def breaches(root):
    found = []
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SOURCE_ENDINGS):
                    path = os.path.join(folder, name)
                    n = line_count(path)
                    if n > SOURCE_LIMIT:
                        found.append(f"{os.path.relpath(path, root)}: {n} lines (at most {SOURCE_LIMIT}: split it by job)")
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        n = line_count(readme)
        if n > README_LIMIT:
            found.append(f"README.md: {n} lines (at most {README_LIMIT}: measurements go to docs/PERFORMANCE.md)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "model"))
        with open(os.path.join(root, "model", "Big.cpp"), "w") as f:
            f.write("\n" * (SOURCE_LIMIT + 1))
        with open(os.path.join(root, "model", "Fits.h"), "w") as f:
            f.write("\n" * SOURCE_LIMIT)
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write("\n" * (README_LIMIT + 1))
        found = breaches(root)
        if len(found) != 2 or not found[0].startswith("model/Big.cpp") or not found[1].startswith("README.md"):
            print("self-test failed:", found)
            return 1
    print("self-test passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = breaches(root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
