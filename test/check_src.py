#!/usr/bin/python3
"""No two files of src/ call each other, nor any ring of them: what files share
lives in one place that each uses, so that each file can be read from its
callees up.

    /usr/bin/python3 test/check_src.py [REPO]

The graph is built twice, where it can be: from the source, each file's
external functions (a definition at the start of a line whose return type,
on the line before, is not static) and the calls of other files to them,
comments and strings left out; and from the objects, where a build left
them (src/*.o, with nm): each object's undefined symbols that another
object defines, variables included.  A file that uses one of another's is
an edge; a cycle in either graph fails, with its edges.  Prints TAP lines;
exits non-zero on any failure.
"""
import glob
import os
import re
import subprocess
import sys

repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
results = []


def check(name, ok, why=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name))
    if not ok and why:
        print("".join("# %s\n" % l for l in why.rstrip().splitlines()), end="")


def code_of(path):
    """A C file without its comments, string and character literals."""
    text = open(path).read()
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: "\n" * m.group(0).count("\n") if m.group(0).startswith("/") else '""', text, flags=re.S)


def source_graph(files):
    """{file: {other file: [names it uses]}} from the source."""
    defined = {}
    codes = {f: code_of(f) for f in files}
    for f, code in codes.items():
        lines = code.splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"([A-Za-z_]\w*)\(", line)
            if m and i > 0 and re.match(r"[A-Za-z_]", lines[i - 1]) and not lines[i - 1].startswith("static") \
                    and not lines[i - 1].rstrip().endswith((";", ",")):
                defined.setdefault(m.group(1), f)
    edges = {}
    for f, code in codes.items():
        for name in sorted(set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", code))):
            other = defined.get(name)
            if other and other != f:
                edges.setdefault(f, {}).setdefault(other, []).append(name)
    return edges


def object_graph(objects):
    """The same from the objects' symbol tables (nm), or None."""
    defined, undefined = {}, {}
    try:
        for o in objects:
            out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    undefined.setdefault(o, set()).add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBRC":
                    defined[parts[2]] = o
    except (OSError, subprocess.CalledProcessError):
        return None
    edges = {}
    for o, names in undefined.items():
        for name in sorted(names):
            other = defined.get(name)
            if other and other != o:
                edges.setdefault(o, {}).setdefault(other, []).append(name)
    return edges


def cycle(edges):
    """One cycle of the graph, as a list of its nodes, or None."""
    state = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def describe(edges, ring):
    return "\n".join("%s -> %s: %s" % (os.path.basename(a), os.path.basename(b), ", ".join(edges[a][b]))
                     for a, b in zip(ring, ring[1:]))


def main():
    files = sorted(glob.glob(os.path.join(repo, "src", "*.c")))
    edges = source_graph(files)
    ring = cycle(edges)
    check("src/: no two files call each other, nor a ring of them (%d files, %d calling edges, from the source)"
          % (len(files), sum(len(v) for v in edges.values())), ring is None, ring and describe(edges, ring))
    # The check must be able to fail: a planted call back from a callee.
    callee = next((b for a in sorted(edges) for b in sorted(edges[a])), None)
    if callee:
        caller = next(a for a in sorted(edges) if callee in edges[a])
        planted = source_graph(files)
        planted.setdefault(callee, {}).setdefault(caller, []).append("(planted)")
        check("the check finds a planted call back from %s to %s" % (os.path.basename(callee),
                                                                     os.path.basename(caller)),
              cycle(planted) is not None)
    objects = [f[:-2] + ".o" for f in files]
    if all(os.path.exists(o) for o in objects):
        oedges = object_graph(objects)
        if oedges is not None:
            ring = cycle(oedges)
            check("src/*.o: no two objects use each other's symbols, nor a ring of them (%d edges, from nm)"
                  % sum(len(v) for v in oedges.values()), ring is None, ring and describe(oedges, ring))
    print("1..%d" % len(results))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
