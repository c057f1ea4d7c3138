#!/usr/bin/env python3
"""check-layering.py - the runtime's folder rules (docs/architecture.md).

Every folder of runtime/ (but include/) has a README.md whose
line "May include: `a/`, `b/c.h`, ..." says what its files may include
with quotes: a folder prefix or a header, by its path from runtime/
("core/base/", "plugins/plugin_util.h"), `libwrap/` (the installed
headers) or `common/` (common/'s headers, included by their bare name). A
folder may always include its own headers. A file is ruled by the
README.md of the nearest folder above it. Outside runtime/, report/ may
include only otf2merge/ and libwrap/ from the runtime.

Then the link graph: in the build tree, the objects of the runtime
(liblibwrap_runtime.so) give, per object, the symbols it defines and
those it needs. An object that needs a symbol another object defines is
an edge between their folders; the check fails on any cycle between
folders, and on any edge that the needing folder's rule does not allow.

  check-layering.py SOURCE_DIR BUILD_DIR     the check (exit 0 or 1)
  check-layering.py --self-test SOURCE_DIR BUILD_DIR
      the check on the real tree with one forbidden include and one link
      cycle added: passes only when both are reported.
"""
import os
import re
import subprocess
import sys

RUNTIME_SKIP = ("include",)
SOURCE_EXT = (".c", ".h", ".S")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DLFCN_RE = re.compile(r'^\s*#\s*include\s+<dlfcn\.h>', re.M)
RULE_RE = re.compile(r"^May include:(.*)$", re.M)


def folders_with_rules(runtime):
    """{folder (relative to runtime/): [allowed items]}"""
    rules = {}
    for root, dirs, files in os.walk(runtime):
        rel = os.path.relpath(root, runtime)
        if rel.split(os.sep)[0] in RUNTIME_SKIP:
            dirs[:] = []
            continue
        if "README.md" in files and rel != ".":
            with open(os.path.join(root, "README.md")) as f:
                m = RULE_RE.search(f.read())
            if not m:
                raise SystemExit(f"runtime/{rel}/README.md: no line 'May include: `...`'")
            rules[rel] = re.findall(r"`([^`]+)`", m.group(1))
    return rules


def rule_folder(rules, rel_path):
    """The folder whose rule governs runtime/rel_path (nearest README.md)."""
    d = os.path.dirname(rel_path)
    while d:
        if d in rules:
            return d
        d = os.path.dirname(d)
    return None


def allowed(rules, folder, target):
    if target.startswith(folder + "/"):
        return True
    for item in rules[folder]:
        if item == "none":
            continue
        if item.endswith("/") and target.startswith(item):
            return True
        if target == item:
            return True
    return False


def classify_include(runtime, common, src_rel, inc):
    """The include's path from runtime/, or common/NAME, or None if local."""
    if inc.startswith("libwrap/"):
        return inc
    if "/" not in inc:
        if os.path.exists(os.path.join(common, inc)):
            return "common/" + inc
        return "unqualified/" + inc
    return inc


def check_includes(src, extra_includes=()):
    runtime = os.path.join(src, "runtime")
    common = os.path.join(src, "common")
    rules = folders_with_rules(runtime)
    errors = []
    files = []
    for root, dirs, names in os.walk(runtime):
        rel = os.path.relpath(root, runtime)
        if rel.split(os.sep)[0] in RUNTIME_SKIP:
            dirs[:] = []
            continue
        for n in sorted(names):
            if n.endswith(SOURCE_EXT):
                files.append(os.path.normpath(os.path.join(rel, n)))
    facts = []
    for rel in sorted(files):
        with open(os.path.join(runtime, rel)) as f:
            text = f.read()
        for m in INCLUDE_RE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            facts.append((rel, line, m.group(1)))
        # The core reaches the loader through core/base/dl.h only (the
        # static archive references its functions weakly there).
        m = DLFCN_RE.search(text)
        if m and rel.startswith("core/") and rel != "core/base/dl.h":
            line = text.count("\n", 0, m.start()) + 1
            errors.append(f"runtime/{rel}:{line}: #include <dlfcn.h>: the core uses the loader "
                          'through "core/base/dl.h" only')
    facts.extend(extra_includes)
    for rel, line, inc in facts:
        folder = rule_folder(rules, rel)
        where = f"runtime/{rel}:{line}"
        if folder is None:
            errors.append(f"{where}: no README.md with 'May include:' in its folder or above")
            continue
        target = classify_include(runtime, common, rel, inc)
        if target.startswith("unqualified/"):
            errors.append(f'{where}: #include "{inc}": expected a path from runtime/ '
                          f'(such as "core/base/json.h") or a header of common/')
            continue
        if not allowed(rules, folder, target):
            errors.append(f'{where}: #include "{inc}": runtime/{folder}/ may include only '
                          + ", ".join(rules[folder]))
    # The report reaches the runtime only through otf2merge/ and libwrap/.
    top = set(os.listdir(runtime))
    report = os.path.join(src, "report")
    for n in sorted(os.listdir(report)) if os.path.isdir(report) else []:
        if not n.endswith(SOURCE_EXT):
            continue
        with open(os.path.join(report, n)) as f:
            text = f.read()
        for m in INCLUDE_RE.finditer(text):
            inc = m.group(1)
            first = inc.split("/")[0]
            if "/" in inc and first in top and first not in ("otf2merge", "include"):
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f'report/{n}:{line}: #include "{inc}": the report may include '
                              "only otf2merge/ and libwrap/ from the runtime")
    return rules, errors


def object_symbols(obj):
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRVWCGSi":
            defined.add(name)
    return defined, undefined


def runtime_objects(build):
    """{object path relative to runtime/ minus .o: path} of the shared runtime."""
    for target in ("libwrap_runtime.dir", "libwrap_runtime_static.dir"):
        base = os.path.join(build, "runtime", "CMakeFiles", target)
        objs = {}
        for root, _, names in os.walk(base):
            for n in names:
                if n.endswith(".o"):
                    p = os.path.join(root, n)
                    objs[os.path.relpath(p, base)[:-2]] = p
        if any(not k.startswith("__") for k in objs):
            return objs
    raise SystemExit(f"{build}: no objects of the runtime (build it first)")


def link_graph(rules, rules_root, build, extra_edges=()):
    """{(from folder, to folder): {(object, symbol), ...}}"""
    objs = runtime_objects(build)
    defs, needs, folder_of = {}, {}, {}
    for rel, path in objs.items():
        if rel.startswith("..") or not os.path.exists(os.path.join(rules_root, rel)):
            continue  # common/'s objects in the static archive; a stale object
        folder = rule_folder(rules, rel)
        if folder is None:
            continue
        folder_of[rel] = folder
        defs[rel], needs[rel] = object_symbols(path)
    owner = {}
    for rel, d in defs.items():
        for s in d:
            owner.setdefault(s, rel)
    edges = {}
    for rel, u in needs.items():
        for s in u:
            o = owner.get(s)
            if o and folder_of[o] != folder_of[rel]:
                edges.setdefault((folder_of[rel], folder_of[o]), set()).add((rel, s))
    for a, b, what in extra_edges:
        edges.setdefault((a, b), set()).add(what)
    return edges


def cycles(edges):
    """Strongly connected components of more than one folder (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def check_links(rules, rules_root, build, extra_edges=()):
    edges = link_graph(rules, rules_root, build, extra_edges)
    errors = []
    for comp in cycles(edges):
        lines = [f"link cycle between folders {', '.join(comp)}:"]
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                sample = ", ".join(f"{o}: {s}" for o, s in sorted(why)[:4])
                lines.append(f"  {a} -> {b} ({sample}{', ...' if len(why) > 4 else ''})")
        errors.append("\n".join(lines))
    for (a, b), why in sorted(edges.items()):
        if not allowed(rules, a, b + "/"):
            o, s = sorted(why)[0]
            errors.append(f"runtime/{o}: needs {s} from runtime/{b}/, which runtime/{a}/ "
                          "may not use (its README.md)")
    return edges, errors


def run(src, build, extra_includes=(), extra_edges=()):
    rules, errors = check_includes(src, extra_includes)
    edges, link_errors = check_links(rules, os.path.join(src, "runtime"), build, extra_edges)
    return rules, edges, errors + link_errors


def main(argv):
    selftest = "--self-test" in argv
    args = [a for a in argv[1:] if a != "--self-test"]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check-layering.py [--self-test] SOURCE_DIR BUILD_DIR", file=sys.stderr)
        return 2
    src, build = args
    if selftest:
        bad_include = ("core/base/log.c", 1, "plugins/plugin_util.h")
        bad_edge = ("core/base", "process", ("core/base/log.o", "lw_finish"))
        _, _, errors = run(src, build, [bad_include], [bad_edge])
        text = "\n".join(errors)
        ok = ('runtime/core/base/log.c:1: #include "plugins/plugin_util.h"' in text
              and "link cycle between folders" in text and "core/base" in text)
        print(text)
        print("self-test:", "both violations reported" if ok else "a violation was NOT reported")
        return 0 if ok else 1
    rules, edges, errors = run(src, build)
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} layering error(s); the rules are in each folder's README.md "
              "(docs/architecture.md)")
        return 1
    print(f"{len(rules)} folders, their includes and {len(edges)} link edges between them "
          "follow the rules; no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
