#!/usr/bin/env python3
"""The library's layers run one way: vocabulary, then internals, then API.

  vocabulary  include/cupp/{config,dtype,shape,errors,array_fwd,axis,
              index_types,reduction_options}.hpp and include/cupp/cuda/*.hpp:
              the types every layer names (arrays' declaration, index and
              axis arguments, keyword arguments); they include only each
              other.
  internals   detail/cupp/detail/**: include vocabulary and other internals.
  API         every other header under include/cupp/: NumPy's functions,
              which may include anything.

Fails (exit 1), listing each offending include, when a vocabulary header
includes an internal or API header, or an internal header includes an API
header; also when a project header is included with quotes rather than
from the include roots (<cupp/...>). Run by ctest (layer_check) and CI.

  python3 scripts/check_layers.py [REPO]
"""
import os
import re
import sys

VOCABULARY = {
    "cupp/config.hpp", "cupp/dtype.hpp", "cupp/shape.hpp", "cupp/errors.hpp",
    "cupp/array_fwd.hpp", "cupp/axis.hpp", "cupp/index_types.hpp",
    "cupp/reduction_options.hpp",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def layer(name):
    # NCCL's front end: opt-in, built on its own internals (detail/nccl/).
    if name == "cupp/cuda/nccl.hpp":
        return 2
    if name in VOCABULARY or name.startswith("cupp/cuda/"):
        return 0
    if name.startswith("cupp/detail/"):
        return 1
    return 2


def headers(repo):
    for top, prefix in (("include", ""), ("detail", "")):
        base = os.path.join(repo, top)
        for d, _, files in os.walk(base):
            for f in files:
                if f.endswith((".hpp", ".cuh", ".h")):
                    path = os.path.join(d, f)
                    yield path, prefix + os.path.relpath(path, base).replace(os.sep, "/")


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    names = ("vocabulary", "internal", "API")
    bad = []
    count = 0
    for path, name in headers(repo):
        count += 1
        mine = layer(name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            quote, inc = m.groups()
            line = text.count("\n", 0, m.start()) + 1
            rel = os.path.relpath(path, repo)
            if quote == '"':
                bad.append(f'{rel}:{line}: #include "{inc}": include project headers as <cupp/...>')
                continue
            if not inc.startswith("cupp/"):
                continue
            theirs = layer(inc)
            if theirs > mine or (mine == 0 and theirs != 0):
                bad.append(f"{rel}:{line}: a {names[mine]} header includes the {names[theirs]} "
                           f"header <{inc}>")
    # An API header that reaches internals naming arrays through array_fwd.hpp
    # must include ndarray.hpp too: otherwise a template of those internals
    # is instantiated with the array incomplete (every header compiles on
    # its own, and the first use fails).
    graph = {}
    for path, name in headers(repo):
        with open(path, encoding="utf-8") as f:
            graph[name] = [m.group(2) for m in INCLUDE.finditer(f.read())
                           if m.group(2).startswith("cupp/")]

    def closure(name, seen):
        if name not in seen:
            seen.add(name)
            for inc in graph.get(name, ()):
                closure(inc, seen)
        return seen

    for name in sorted(graph):
        if layer(name) != 2:
            continue
        reach = closure(name, set())
        if "cupp/array_fwd.hpp" in reach and "cupp/ndarray.hpp" not in reach and any(
                layer(r) == 1 for r in reach):
            bad.append(f"include/{name}: reaches internal headers that name arrays but not "
                       f"<cupp/ndarray.hpp> (include <cupp/expression.hpp> or <cupp/ndarray.hpp>)")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} include(s) against the layers (see docs/design.md, "
              f"'Layers and folders')")
        return 1
    print(f"check_layers: {count} headers, every include runs vocabulary -> internals -> API")
    return 0


if __name__ == "__main__":
    sys.exit(main())
