#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the layering rules of docs/ARCHITECTURE.md on the sources of model/,
widgets/ and app/ (.h and .cpp):

  model-qt          model/ includes no Qt header (<QString>, <QtCore/...>,
                    <qcustomplot.h>, "QList", ...) and uses no Q_OBJECT,
                    Q_GADGET or Q_NAMESPACE.
  widgets-torch     widgets/ includes no LibTorch header (<torch/...>,
                    <ATen/...>, <c10/...>, <caffe2/...>).
  widgets-torch-via widgets/ includes no header of model/ or app/ that
                    includes LibTorch, directly or through other headers.
  app-header        model/ and widgets/ include no header of app/.
  widgets-header    model/ includes no header of widgets/.
  model-room-cycle  the rooms of model/ (its folders: nn, train, io, ...)
                    form no cycle: an include from one room into another
                    is reported when the other room reaches back to it.
  layer-name        a header of the repository is included by its path from
                    the repository root, which names its layer
                    ("widgets/TrainingPanel.h", not "TrainingPanel.h"), also
                    from a file beside it.

A quoted include is looked up as the compiler finds it: in the including
file's folder, then in the repository root ("model/nn/CharGPT.h"), the one
include folder the targets export. An angle include is looked up in the
repository root. Includes inside comments and string
literals (raw ones too) are not includes. Each violation is one line,
FILE:LINE: what it includes and which rule that breaks; the exit status is 1
when there is any, 0 otherwise.

--self-test writes a small tree that breaks every rule (and a few things
that look like violations but are not) to a temporary folder, and checks
that exactly the expected violations are reported, so that this check
cannot pass by finding nothing.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import deque

LAYERS = ("model", "widgets", "app")
SOURCE_SUFFIXES = (".h", ".cpp")
TORCH_PREFIXES = ("torch/", "ATen/", "c10/", "caffe2/")
# <QString>, <QtCore/QObject>, <Qt>, <QtGlobal>; Qt's lower-case headers
# (<qglobal.h>, <qstring.h>); QCustomPlot, a Qt widget library.
QT_INCLUDE = re.compile(r"^(Q[A-Za-z0-9_]*(/.*)?|q[a-z0-9_]*\.h|qcustomplot\.h)$")
QT_MACRO = re.compile(r"\bQ_(OBJECT|GADGET|NAMESPACE)\b")
INCLUDE_DIRECTIVE = re.compile(r"^\s*#\s*include\b")
INCLUDE_TARGET = re.compile(r'^\s*#\s*include\s*(?:<([^>\n]+)>|"([^"\n]+)")')
RAW_STRING_START = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def strip_source(text):
    """Returns (code, bare): text with comments replaced by spaces, and the
    same with the contents of string and character literals replaced by
    spaces too. Newlines are kept, so line numbers stay."""
    code = []
    bare = []
    i = 0
    n = len(text)

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            code.append(blank(text[i:j]))
            bare.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            code.append(blank(text[i:j]))
            bare.append(blank(text[i:j]))
            i = j
        elif c in "uULR" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) \
                and RAW_STRING_START.match(text, i):
            m = RAW_STRING_START.match(text, i)
            end = text.find(")" + m.group(1) + '"', m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            code.append(text[i:j])
            bare.append(text[i:m.end() - 1] + blank(text[m.end() - 1:j - 1]) + text[j - 1:j])
            i = j
        elif c == '"' or (c == "'" and not _is_digit_separator(text, i)):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            code.append(text[i:j])
            bare.append(c + blank(text[i + 1:j - 1]) + text[j - 1:j] if j - i >= 2 else text[i:j])
            i = j
        else:
            code.append(c)
            bare.append(c)
            i += 1
    return "".join(code), "".join(bare)


def _is_digit_separator(text, i):
    """True for the ' of 1'000'000 or 0xFF'FF: the token before it starts
    with a digit."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_'."):
        j -= 1
    return j < i and text[j].isdigit()


class Tree:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self._includes = {}
        self._torch = {}

    def rel(self, path):
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def layer(self, rel):
        top = rel.split("/", 1)[0]
        return top if top in LAYERS else None

    def sources(self):
        for layer in LAYERS:
            base = os.path.join(self.root, layer)
            for folder, dirs, files in os.walk(base):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(SOURCE_SUFFIXES):
                        yield self.rel(os.path.join(folder, name))

    def _inside(self, rel):
        return rel != ".." and not rel.startswith("../") and not os.path.isabs(rel)

    def resolve(self, including, target, quoted):
        """The repository file (relative path) that an include names, or None
        for a header from outside the repository."""
        bases = []
        if quoted:
            bases.append(os.path.dirname(os.path.join(self.root, including)))
        bases.append(self.root)
        for base in bases:
            candidate = os.path.normpath(os.path.join(base, target))
            if os.path.isfile(candidate):
                rel = self.rel(os.path.realpath(candidate))
                if self._inside(rel):
                    return rel
        return None

    def parse(self, rel):
        """[(line, target, quoted, resolved)] of rel's includes, and the lines
        that use a Qt meta-object macro, cached."""
        if rel in self._includes:
            return self._includes[rel]
        try:
            with open(os.path.join(self.root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            sys.exit(f"check_layers: cannot read {rel}: {e.strerror}")
        code, bare = strip_source(text)
        includes = []
        macros = []
        for number, (code_line, bare_line) in enumerate(
                zip(code.split("\n"), bare.split("\n")), start=1):
            if INCLUDE_DIRECTIVE.match(bare_line):
                m = INCLUDE_TARGET.match(code_line)
                if m:
                    quoted = m.group(2) is not None
                    target = (m.group(2) if quoted else m.group(1)).strip()
                    includes.append((number, target, quoted, self.resolve(rel, target, quoted)))
            m = QT_MACRO.search(bare_line)
            if m:
                macros.append((number, m.group(0)))
        self._includes[rel] = (includes, macros)
        return self._includes[rel]

    def torch_chain(self, start):
        """None when start reaches no LibTorch header; otherwise the shortest
        chain of includes from start to one, as text. Breadth-first, each
        file once, so cycles end."""
        if start in self._torch:
            return self._torch[start]
        parent = {start: None}
        queue = deque([start])
        found = None
        while queue and found is None:
            current = queue.popleft()
            for line, target, quoted, resolved in self.parse(current)[0]:
                if resolved is None:
                    if is_torch(target, quoted):
                        found = (current, line, target)
                        break
                elif resolved not in parent:
                    parent[resolved] = (current, line)
                    queue.append(resolved)
        chain = None
        if found is not None:
            current, line, target = found
            steps = [f"{current}:{line} includes <{target}>"]
            while parent[current] is not None:
                previous, previous_line = parent[current]
                steps.append(f"{previous}:{previous_line} includes {current}")
                current = previous
            steps.reverse()
            chain = "; ".join(steps)
        self._torch[start] = chain
        return chain


def is_torch(target, quoted):
    return not quoted and target.startswith(TORCH_PREFIXES)


def is_qt(target):
    return bool(QT_INCLUDE.match(target))


def check(root):
    """The violations under root, as (file, line, rule, message), sorted."""
    tree = Tree(root)
    found = []
    for rel in tree.sources():
        layer = tree.layer(rel)
        includes, macros = tree.parse(rel)
        if layer == "model":
            for line, macro in macros:
                found.append((rel, line, "model-qt",
                              f"model/ uses {macro}; model/ never uses Qt"))
        for line, target, quoted, resolved in includes:
            shown = f'"{target}"' if quoted else f"<{target}>"
            target_layer = tree.layer(resolved) if resolved else None
            if layer == "model" and resolved is None and is_qt(target):
                found.append((rel, line, "model-qt",
                              f"model/ includes the Qt header {shown}; model/ never uses Qt"))
            if layer == "widgets" and resolved is None and is_torch(target, quoted):
                found.append((rel, line, "widgets-torch",
                              f"widgets/ includes the LibTorch header {shown}; widgets/ never uses LibTorch"))
            if layer in ("model", "widgets") and target_layer == "app":
                found.append((rel, line, "app-header",
                              f"{layer}/ includes {resolved}, a header of app/; only app/ includes app/"))
            if layer == "model" and target_layer == "widgets":
                found.append((rel, line, "widgets-header",
                              f"model/ includes {resolved}, a header of widgets/; model/ never uses widgets/"))
            if quoted and resolved is not None and target != resolved:
                found.append((rel, line, "layer-name",
                              f"{shown} is {resolved}: include it by that name, which says its layer"))
            if layer == "widgets" and target_layer in ("model", "app"):
                chain = tree.torch_chain(resolved)
                if chain is not None:
                    found.append((rel, line, "widgets-torch-via",
                                  f"widgets/ includes {resolved}, which includes LibTorch ({chain});"
                                  f" widgets/ never uses LibTorch"))
    found.extend(room_cycles(tree))
    return sorted(found)


def model_room(rel):
    """The room of a file of model/ ("model/nn/kernels/X.h" -> "nn"), or None."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "model" else None


def room_cycles(tree):
    """Every include from one room of model/ into another that the other
    room reaches back from, through the rooms' includes."""
    edges = []  # (file, line, from room, to room, included file)
    reaches = {}
    for rel in tree.sources():
        source = model_room(rel)
        if source is None:
            continue
        for line, _, _, resolved in tree.parse(rel)[0]:
            target = model_room(resolved) if resolved else None
            if target is not None and target != source:
                edges.append((rel, line, source, target, resolved))
                reaches.setdefault(source, set()).add(target)
    found = []
    for rel, line, source, target, resolved in edges:
        # Breadth first from the included room, without recursion.
        seen, queue, back = {target}, deque([target]), False
        while queue and not back:
            for room in reaches.get(queue.popleft(), ()):
                if room == source:
                    back = True
                    break
                if room not in seen:
                    seen.add(room)
                    queue.append(room)
        if back:
            found.append((rel, line, "model-room-cycle",
                          f"model/{source} includes {resolved}, and model/{target} reaches back to"
                          f" model/{source}: the rooms of model/ form no cycle"))
    return found


def run(root):
    if not all(os.path.isdir(os.path.join(root, d)) for d in LAYERS):
        print(f"check_layers: {root} has no {', '.join(d + '/' for d in LAYERS)} folders",
              file=sys.stderr)
        return 2
    violations = check(root)
    for rel, line, rule, message in violations:
        print(f"{rel}:{line}: [{rule}] {message}")
    if violations:
        print(f"check_layers: {len(violations)} violation(s) of the layering rules"
              " (docs/ARCHITECTURE.md, Layers)", file=sys.stderr)
        return 1
    print(f"check_layers: {sum(1 for _ in Tree(root).sources())} files of"
          f" {', '.join(d + '/' for d in LAYERS)} follow the layering rules")
    return 0


# The hostile tree of --self-test: path -> text. Lines that must be reported
# carry a comment "// expect: RULE"; nothing else may be reported.
FIXTURE = {
    "model/nn/Qtty.h": """\
#pragma once
#include <QString>  // expect: model-qt
#include <QtCore/QObject>  // expect: model-qt
# include "QList"  // expect: model-qt
#include <qglobal.h>  // expect: model-qt
#include <qcustomplot.h>  // expect: model-qt
class Qtty {
    Q_OBJECT  // expect: model-qt
};
""",
    "model/nn/Upward.cpp": """\
#include "model/nn/Qtty.h"
#include "app/Glue.h"  // expect: app-header
#include "../../app/Glue.h"  // expect: app-header layer-name
#include "widgets/Plain.h"  // expect: widgets-header
#include "Qtty.h"  // expect: layer-name
#include <app/Glue.h>  // expect: app-header
""",
    # Looks like violations, is not: comments, strings, raw strings, digit
    # separators, LibTorch in model/.
    "model/nn/Quiet.cpp": """\
#include <torch/torch.h>
#include "model/nn/Deep.h"
// #include <QString>
/* Q_OBJECT
#include "app/Glue.h"
*/
const char* a = "#include <QString> Q_OBJECT";
const char* b = R"sql(
#include <QWidget>
Q_GADGET "unbalanced )" quote
)sql";
const long c = 1'000'000; const char d = '"';
int Q_OBJECTS = 0;
""",
    "model/nn/Deep.h": "#pragma once\n#include <c10/util/BFloat16.h>\n",
    "model/train/Middle.h": '#pragma once\n#include "model/nn/Deep.h"\n',
    "model/train/Outer.h": '#pragma once\n#include "model/train/Middle.h"\n',
    "model/text/Cycle1.h": '#pragma once\n#include "model/text/Cycle2.h"\n#include <vector>\n',
    "model/text/Cycle2.h": '#pragma once\n#include "model/text/Cycle1.h"\n',
    # Two rooms of model/ that include each other.
    "model/io/Up.h": '#pragma once\n#include "model/train/Middle.h"  // expect: model-room-cycle\n',
    "model/train/Down.cpp": '#include "model/io/Up.h"  // expect: model-room-cycle\n#include "Middle.h"  // expect: layer-name\n',
    "widgets/Plain.h": "#pragma once\n#include <QWidget>\n",
    "widgets/Torchy.h": """\
#pragma once
#include <torch/torch.h>  // expect: widgets-torch
#include <ATen/Parallel.h>  // expect: widgets-torch
#include <c10/util/Half.h>  // expect: widgets-torch
#include "widgets/Plain.h"
""",
    "widgets/Reach.cpp": """\
#include "Plain.h"  // expect: layer-name
#include "model/train/Outer.h"  // expect: widgets-torch-via
#include "model/text/Cycle1.h"
#include "app/Glue.h"  // expect: app-header
#include "app/Bridge.h"  // expect: app-header widgets-torch-via
#include "Bridge.h"
// #include "model/nn/Deep.h"
""",
    "app/Glue.h": "#pragma once\n#include <QObject>\n",
    "app/Bridge.h": '#pragma once\n#include "app/Glue.h"\n#include "model/nn/Deep.h"\n',
    "app/Bridge.cpp": '#include "app/Bridge.h"\n#include <torch/torch.h>\n#include "widgets/Plain.h"\n',
}


def write_tree(base, files):
    for rel, text in files.items():
        path = os.path.join(base, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    expected = set()
    for rel, text in FIXTURE.items():
        for number, line in enumerate(text.split("\n"), start=1):
            m = re.search(r"// expect: (.*)$", line)
            if m:
                expected.update((rel, number, rule) for rule in m.group(1).split())
    failures = []
    with tempfile.TemporaryDirectory(prefix="check_layers.") as base:
        write_tree(base, FIXTURE)
        got = {(rel, line, rule) for rel, line, rule, _ in check(base)}
        for item in sorted(expected - got):
            failures.append("not reported: %s:%d [%s]" % item)
        for item in sorted(got - expected):
            failures.append("reported wrongly: %s:%d [%s]" % item)
        fired = {rule for _, _, rule in got}
        for rule in ("model-qt", "widgets-torch", "widgets-torch-via", "app-header", "widgets-header",
                     "model-room-cycle", "layer-name"):
            if rule not in fired:
                failures.append(f"rule {rule} never fired")
        # The command line: exit 1 and one FILE:LINE: line per violation on
        # the hostile tree, exit 0 on the tree without its bad files.
        script = os.path.abspath(__file__)
        bad = subprocess.run([sys.executable, script, "--root", base],
                             capture_output=True, text=True)
        lines = bad.stdout.splitlines()
        if bad.returncode != 1:
            failures.append(f"exit status {bad.returncode} on the hostile tree, not 1")
        if len(lines) != len(expected) or not all(re.match(r"^[\w/.]+:\d+: \[[\w-]+\] ", s) for s in lines):
            failures.append("output on the hostile tree is not one FILE:LINE: [rule] line per violation:\n"
                            + bad.stdout)
        for rel in ("model/nn/Qtty.h", "model/nn/Upward.cpp", "widgets/Torchy.h", "widgets/Reach.cpp",
                    "model/train/Down.cpp"):
            os.remove(os.path.join(base, rel))
        good = subprocess.run([sys.executable, script, "--root", base],
                              capture_output=True, text=True)
        if good.returncode != 0:
            failures.append(f"exit status {good.returncode} on the clean tree, not 0:\n" + good.stdout)
    for failure in failures:
        print(f"check_layers --self-test: {failure}")
    if failures:
        return 1
    print(f"check_layers --self-test: all {len(expected)} planted violations reported, nothing else")
    return 0


def main():
    parser = argparse.ArgumentParser(description="Checks the layering of model/, widgets/ and app/.")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository root (default: this script's parent folder)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on a hostile tree in a temporary folder")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return run(os.path.abspath(args.root))


if __name__ == "__main__":
    sys.exit(main())
