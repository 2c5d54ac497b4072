#!/usr/bin/env bash
# make bench: a picture and a column map from NumPy arrays (splotch.Particles, the Python module)
# against bin/splotch reading the same particles from the benchmark snapshot's raw block file, with
# the same keys, in one command (tools/bench_python.py prints the table: stages, walls, the ratio
# of the draw stages, whether the pictures are the same); then the one published timing of a
# Python peer, swiftsimio's 2019 benchmark, set up again and drawn by the module
# (tools/bench_published.py: the published time quoted beside ours, the machines differ).
#
#   tests/bench/bench_python.sh                    # 1e7 particles, 800x800, 5 runs
#   SIZES="1e6 1e7" RESOLUTIONS="800 2048" RUNS=3 tests/bench/bench_python.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-5}
SIZES=${SIZES:-1e7}
RESOLUTIONS=${RESOLUTIONS:-800}
PYTHON=${PYTHON:-/usr/bin/python3}
DIR=build/bench
mkdir -p "$DIR"
if ! ls python/splotch/_core*.so >/dev/null 2>&1; then
  echo "bench_python: the module is not built (make python); skipped" >&2
  exit 0
fi
for n in $SIZES; do
  snapshot=$DIR/bench_${n}.bin
  [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$snapshot" >&2
  cat "$snapshot" >/dev/null  # (both read from the page cache)
  for r in $RESOLUTIONS; do
    echo "== bench_python: $n particles, ${r}x${r}"
    "$PYTHON" tools/bench_python.py --snapshot "$snapshot" --n "$(count_of "$n")" --xres "$r" --runs "$RUNS" \
      --work "$DIR/python_$n"
  done
done
echo "== bench_python: swiftsimio's published benchmark, set up again"
"$PYTHON" tools/bench_published.py --runs "$RUNS"
