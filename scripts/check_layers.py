#!/usr/bin/env python3
"""The library's layers run one way: vocabulary, then internals, then API.

  vocabulary  include/cupp/cuda/*.hpp and every public header that says so
              in a line of its own, `// cupp-layer: vocabulary` (config,
              dtype, shape, errors, array_fwd, axis, index_types, the
              keyword arguments ...): the types every layer names; they
              include only each other.
  internals   detail/cupp/detail/**: include vocabulary and other internals.
  API         every other header under include/cupp/: NumPy's functions,
              which may include anything. An API header is a door: its
              arguments' checks and one call into its area; at most
              MAX_API_DETAIL code lines of it may sit in a `namespace
              detail` (the machinery belongs under detail/).

Fails (exit 1), listing each offence, when a vocabulary header includes an
internal or API header, an internal header includes an API header, a
project header is included with quotes rather than from the include roots
(<cupp/...>), an API header holds more machinery than the bound, or two
headers share a file name. Run by ctest (layer_check) and CI.

  python3 scripts/check_layers.py [REPO]            the check
  python3 scripts/check_layers.py --report [REPO]   the measures: machinery
      lines per API header, and the project headers each public header
      reaches (works on any revision of the tree)
"""
import os
import re
import sys

MAX_API_DETAIL = 25
MARKER = re.compile(r"^//\s*cupp-layer:\s*vocabulary\s*$", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
NAMESPACE_OR_BRACE = re.compile(r"namespace\s+([\w:]*)\s*\{|\{|\}")


def headers(repo):
    for top in ("include", "detail"):
        base = os.path.join(repo, top)
        for d, _, files in os.walk(base):
            for f in sorted(files):
                if f.endswith((".hpp", ".cuh", ".h", ".inc")):
                    path = os.path.join(d, f)
                    yield path, os.path.relpath(path, base).replace(os.sep, "/")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# The vocabulary before headers said so themselves: lets --report measure
# older revisions of the tree alike.
OLD_VOCABULARY = {
    "cupp/config.hpp", "cupp/dtype.hpp", "cupp/shape.hpp", "cupp/errors.hpp",
    "cupp/array_fwd.hpp", "cupp/axis.hpp", "cupp/index_types.hpp", "cupp/reduction_options.hpp",
}


def layer_of(name, text, old_tree=False):
    if name.startswith("cupp/detail/"):
        return 1
    if name == "cupp/cuda/nccl.hpp" and old_tree:
        return 2
    if name.startswith("cupp/cuda/") or MARKER.search(text) or (old_tree and name in OLD_VOCABULARY):
        return 0
    return 2


def detail_code_lines(text):
    """Code lines (not comments, blank lines or preprocessor lines) inside a
    `namespace detail` (or one nested in it) of a header."""
    inside = []  # per open brace: whether it is within a detail namespace
    count = 0
    in_comment = False
    for line in text.split("\n"):
        s = line.strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        code = re.sub(r"//.*", "", line)
        if s and not s.startswith("//") and not s.startswith("#") and inside and inside[-1]:
            count += 1
        for m in NAMESPACE_OR_BRACE.finditer(code):
            t = m.group(0)
            if t.startswith("namespace"):
                inside.append("detail" in m.group(1).split("::") or bool(inside and inside[-1]))
            elif t == "{":
                inside.append(bool(inside and inside[-1]))
            elif inside:
                inside.pop()
    return count


def load(repo):
    info = {}
    old_tree = not any(MARKER.search(read(p)) for p, _ in headers(repo))
    for path, name in headers(repo):
        text = read(path)
        info[name] = {
            "path": path,
            "text": text,
            "layer": layer_of(name, text, old_tree),
            "includes": [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
                         for m in INCLUDE.finditer(text)],
        }
    return info


def closure(info, name, seen=None):
    seen = set() if seen is None else seen
    if name not in seen:
        seen.add(name)
        for _, inc, _ in info.get(name, {}).get("includes", ()):
            if inc.startswith("cupp/"):
                closure(info, inc, seen)
    return seen


def report(repo):
    info = load(repo)
    public = sorted(n for n in info if not n.startswith("cupp/detail/"))
    rows = [(detail_code_lines(info[n]["text"]), n) for n in public if info[n]["layer"] == 2]
    code = sum(1 for n in public if info[n]["layer"] == 2
               for line in info[n]["text"].split("\n")
               if line.strip() and not line.strip().startswith(("//", "#", "*", "/*")))
    print(f"API headers: {len(rows)}; code lines in them: {code}; "
          f"in namespace detail: {sum(r[0] for r in rows)}")
    print(f"API headers over {MAX_API_DETAIL} namespace-detail lines: "
          f"{sum(1 for r in rows if r[0] > MAX_API_DETAIL)}")
    for n_detail, name in sorted(rows, reverse=True):
        if n_detail:
            print(f"  {n_detail:5d}  {name}")
    print("project headers each public header reaches (itself included), and their lines:")
    for name in public:
        reach = closure(info, name)
        lines = sum(info[r]["text"].count("\n") for r in reach if r in info)
        print(f"  {len(reach):5d} {lines:7d}  {name}")
    return 0


def check(repo):
    info = load(repo)
    names = ("vocabulary", "internal", "API")
    bad = []
    for name, h in sorted(info.items()):
        mine = h["layer"]
        rel = os.path.relpath(h["path"], repo)
        for quote, inc, line in h["includes"]:
            if quote == '"':
                bad.append(f'{rel}:{line}: #include "{inc}": include project headers as <cupp/...>')
                continue
            if not inc.startswith("cupp/"):
                continue
            if inc not in info:
                bad.append(f"{rel}:{line}: <{inc}> is not a header of the project")
                continue
            theirs = info[inc]["layer"]
            if theirs > mine or (mine == 0 and theirs != 0):
                bad.append(f"{rel}:{line}: a {names[mine]} header includes the {names[theirs]} "
                           f"header <{inc}>")
        if mine == 2:
            n = detail_code_lines(h["text"])
            if n > MAX_API_DETAIL:
                bad.append(f"{rel}: {n} code lines in namespace detail (at most {MAX_API_DETAIL} in "
                           f"an API header: move the machinery into its area under detail/)")
    # One file per name among the public headers: two of one name would say
    # two roles with one word (the old reduction_kernel.hpp pair). An area's
    # umbrella <cupp/X.hpp> and its family <cupp/X/X.hpp> are one role.
    by_file = {}
    for name in info:
        if name.startswith("cupp/detail/"):
            continue
        parts = name.split("/")
        if len(parts) == 3 and parts[2] == parts[1] + ".hpp":
            continue
        by_file.setdefault(parts[-1], []).append(name)
    for f, names_ in sorted(by_file.items()):
        if len(names_) > 1:
            bad.append(f"{f}: one name, {len(names_)} headers ({', '.join(sorted(names_))}): "
                       f"name each for its role")
    # An API header that reaches internals naming arrays through array_fwd.hpp
    # must include ndarray.hpp too: otherwise a template of those internals
    # is instantiated with the array incomplete (every header compiles on
    # its own, and the first use fails).
    for name in sorted(info):
        if info[name]["layer"] != 2:
            continue
        reach = closure(info, name)
        if "cupp/array_fwd.hpp" in reach and "cupp/ndarray.hpp" not in reach and any(
                info[r]["layer"] == 1 for r in reach if r in info):
            bad.append(f"include/{name}: reaches internal headers that name arrays but not "
                       f"<cupp/ndarray.hpp> (include <cupp/expression.hpp> or <cupp/ndarray.hpp>)")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} offence(s) against the layers (see docs/design.md, "
              f"'Layers and folders')")
        return 1
    print(f"check_layers: {len(info)} headers, every include runs vocabulary -> internals -> API, "
          f"API headers hold at most {MAX_API_DETAIL} lines of machinery")
    return 0


def main():
    args = sys.argv[1:]
    want_report = "--report" in args
    args = [a for a in args if a != "--report"]
    repo = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    return report(repo) if want_report else check(repo)


if __name__ == "__main__":
    sys.exit(main())
