#!/usr/bin/env bash
# make bench: quantitative maps (map = column, docs/maps.md) against SPLASH 3.6 and yt 4.1 on the
# same map in the same command: the Gadget-2 benchmark snapshot (../shared/bench, make_snapshot's
# default format) of SIZES particles, the whole periodic box projected along z, N x N pixels for
# each N of RESOLUTIONS. tools/compare_maps.py runs the three (RUNS runs each, medians) and prints
# the accuracy table (each peer's map against splotch's) and the speed table: splotch's stages,
# each tool's whole-process wall time and splotch's speed-up over it.
#
#   tests/bench/bench_maps.sh                          # 1e6 and 1e7, 1024^2 and 2048^2, 3 runs each
#   SIZES=1e6 RESOLUTIONS=1024 RUNS=1 tests/bench/bench_maps.sh
#   PEERS="" tests/bench/bench_maps.sh                 # splotch alone (no yt, no SPLASH)
#
# yt and SPLASH come from Debian (apt-get install python3-yt splash); a missing one is left out,
# with a message. SPLASH runs as it draws the box (no periodic images: its rows' totals are a few
# per cent short, see the accuracy table's splash_pg rows for the box with them).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-3}
SIZES=${SIZES:-"1e6 1e7"}
RESOLUTIONS=${RESOLUTIONS:-"1024 2048"}
PEERS=${PEERS-"yt splash"}
DIR=build/bench
mkdir -p "$DIR"

peer_args=()
if [[ " $PEERS " != *" yt "* ]] || ! /usr/bin/python3 -c "import yt" 2>/dev/null; then
  [[ " $PEERS " == *" yt "* ]] && echo "bench_maps: yt is not installed (apt-get install python3-yt): its rows are left out" >&2
  peer_args+=(--no-yt)
fi
if [[ " $PEERS " != *" splash "* ]] || ! command -v splash >/dev/null 2>&1; then
  [[ " $PEERS " == *" splash "* ]] && echo "bench_maps: splash is not installed (apt-get install splash): its rows are left out" >&2
  peer_args+=(--no-splash)
fi
if ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "bench_maps: needs python3-numpy (apt-get install python3-numpy); skipped" >&2
  exit 0
fi

read -r -a resolutions <<<"$RESOLUTIONS"
for n in $SIZES; do
  snapshot=$DIR/bench_${n}_000
  [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --out "$snapshot" >&2
  cat "$snapshot" >/dev/null  # every tool reads from the page cache
  echo "== bench_maps: $n particles ($snapshot), ${resolutions[*]} pixels a side, $RUNS runs per tool"
  /usr/bin/python3 tools/compare_maps.py --inputs bench --bench "$snapshot" --n "${resolutions[@]}" \
    --work "$DIR/maps_$n" --runs "$RUNS" --timing --splash-variants splash ${peer_args[@]+"${peer_args[@]}"}
done
