#!/usr/bin/env bash
# Fails on an include that runs upward between the rooms of the code, or on a circular include
# between files (issue 19; ARCHITECTURE.md shows the flow). Each room lists the rooms its files may
# include; a room includes its own files freely, but never in a circle. tests/ and tools/ may
# include anything.
#
#   tests/include_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import os, re, sys

# room -> the rooms it may include (besides itself), from the bottom of the flow up.
allowed = {
    "errors": [],
    "params": ["errors"],
    "io": ["errors"],
    "splotch/util": ["errors", "io"],
    "splotch/splat": ["errors", "splotch/util"],
    "splotch/stages": ["errors", "io", "splotch/util", "splotch/splat"],
    "splotch/mpi": ["errors", "io", "splotch/util", "splotch/splat", "splotch/stages"],
    "splotch/load": ["errors", "params", "io", "splotch/util", "splotch/stages", "splotch/mpi"],
    "cuda": ["errors", "io", "splotch/splat"],  # the renderer contract and io-level types only
    "splotch/render": ["errors", "io", "splotch/util", "splotch/splat", "splotch/stages", "cuda"],
    "splotch/settings": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/load",
                         "splotch/render", "cuda"],
    "splotch/frame": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
                      "splotch/load", "splotch/render", "cuda", "splotch/settings"],
    "splotch/scene": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
                      "splotch/load", "splotch/render", "cuda", "splotch/settings", "splotch/frame"],
    "splotch/serve": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
                      "splotch/load", "splotch/render", "cuda", "splotch/settings", "splotch/frame",
                      "splotch/scene"],
    "splotch/embed": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
                      "splotch/load", "splotch/render", "cuda", "splotch/settings", "splotch/frame", "splotch/scene",
                      "splotch/serve", "splotch/app"],
    "python": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
               "splotch/load", "splotch/render", "cuda", "splotch/settings", "splotch/frame", "splotch/scene",
               "splotch/serve", "splotch/app", "splotch/embed"],
    "splotch/app": ["errors", "params", "io", "splotch/util", "splotch/splat", "splotch/stages", "splotch/mpi",
                    "splotch/load", "splotch/render", "cuda", "splotch/settings", "splotch/frame", "splotch/scene",
                    "splotch/serve"],
}

def room_of(path):
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "splotch" else parts[0]

files = []
for top in ("errors", "params", "io", "cuda", "splotch", "python"):
    for d, _, names in os.walk(top):
        files += [os.path.join(d, n) for n in names if n.endswith((".h", ".cc", ".cu", ".cuh"))]

include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
graph, problems = {}, []
for f in sorted(files):
    room = room_of(f)
    if room not in allowed:
        problems.append(f"{f}: room '{room}' is not in tests/include_check.sh: add it, with the rooms it may include")
        continue
    graph[f] = []
    with open(f, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            m = include.match(line)
            if not m:
                continue
            target = m.group(1)
            if target.startswith("build/gen/"):  # made by the Makefile from the including room's own files
                continue
            if not os.path.exists(target):
                problems.append(f"{f}:{number}: includes \"{target}\", which is not a file of the tree "
                                "(includes are written from the top: \"io/image.h\")")
                continue
            graph[f].append(target)
            to = room_of(target)
            if to != room and to not in allowed[room]:
                problems.append(f"{f}:{number}: {room}/ includes {target}, of {to}/, which it may not "
                                f"(it may include {', '.join(allowed[room]) or 'nothing'}): move what it "
                                "needs down the flow, or pass it in")

# Circular includes between files: a depth-first search, reporting each circle once.
state, stack, circles = {}, [], set()
def visit(f):
    state[f] = 1
    stack.append(f)
    for g in graph.get(f, []):
        if state.get(g) == 1:
            circle = stack[stack.index(g):] + [g]
            circles.add(" -> ".join(circle))
        elif g in graph and not state.get(g):
            visit(g)
    stack.pop()
    state[f] = 2
sys.setrecursionlimit(10000)
for f in graph:
    if not state.get(f):
        visit(f)
problems += [f"circular include: {c}" for c in sorted(circles)]

if problems:
    print("include_check: %d problem(s)" % len(problems))
    print("\n".join(problems))
    sys.exit(1)
print(f"include_check: {len(graph)} files, no include runs upward or in a circle")
PY
