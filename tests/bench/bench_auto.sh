#!/usr/bin/env bash
# renderer = auto against host and cuda (issue 18): the benchmark snapshot (../shared/bench, raw
# blocks) with the standard view, one frame and a FRAMES-frame orbit of one snapshot, at each of
# SIZES. One row per case and renderer: the median wall time of the whole process over RUNS runs,
# per frame, what auto chose, and the ratio of each row to the faster of host and cuda.
#
#   tests/bench/bench_auto.sh                          # 1e6 1e7 1e8, 2048x2048, 20 frames, 3 runs
#   SIZES="1e7" RES=800 FRAMES=60 RUNS=5 tests/bench/bench_auto.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-3}
SIZES=${SIZES:-"1e6 1e7 1e8"}
RES=${RES:-2048}
FRAMES=${FRAMES:-20}
AEQE=${AEQE:-TRUE}
DIR=build/bench
mkdir -p "$DIR"
renderers="host auto"  # without a GPU, auto must match the host
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then renderers="host cuda auto"; fi

# Runs bin/splotch RUNS times; prints the median wall time; the logs stay in $DIR/auto_*.log.
timed() {
  local log=$1
  shift
  : >"$log"
  local times=()
  for _ in $(seq "$RUNS"); do
    local start
    start=$(date +%s.%N)
    bin/splotch "$@" xres="$RES" a_eq_e="$AEQE" >>"$log"
    times+=("$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')")
  done
  printf "%s\n" "${times[@]}" | median
}
# What the runs in a log rendered with: host, or cuda.
chosen() { grep -o -E '(host|cuda)[ (a-z)]* renderer' "$1" | sed 's/ .*//' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

printf "%-6s %9s %9s %7s %-10s %9s %9s %-10s %9s\n" case N image frames renderer wall_s per_frame chose vs_best
orbit=$DIR/orbit_$FRAMES.txt
bin/splotch_path orbit camera=230,-120,160 lookat=50,50,50 frames="$FRAMES" out="$orbit" >/dev/null
for n in $SIZES; do
  raw=$DIR/bench_$n.bin
  [ -f "$raw" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$raw" >&2
  cat "$raw" >/dev/null  # from the page cache, as tests/bench/bench.sh
  for kind in single scene; do
    unset wall chose
    declare -A wall=([cuda]=-) chose=()
    frames=1
    scene_args=()
    if [ $kind = scene ]; then frames=$FRAMES scene_args=(scene_file="$orbit"); fi
    for renderer in $renderers; do
      log=$DIR/auto_${n}_${kind}_$renderer.log
      wall[$renderer]=$(timed "$log" tests/bench/bench.par infile="$raw" outfile="$DIR/auto_out.tga" \
        renderer="$renderer" ${scene_args[@]+"${scene_args[@]}"})
      chose[$renderer]=$(chosen "$log")
    done
    best=$(awk -v h="${wall[host]}" -v c="${wall[cuda]}" 'BEGIN {print (c == "-" || h < c ? h : c)}')
    for renderer in $renderers; do
      printf "%-6s %9s %9s %7s %-10s %9s %9.3f %-10s %9s\n" $kind "$n" "${RES}x$RES" "$frames" "$renderer" \
        "${wall[$renderer]}" "$(awk -v w="${wall[$renderer]}" -v f="$frames" 'BEGIN {print w / f}')" \
        "${chose[$renderer]}" "$(awk -v w="${wall[$renderer]}" -v b="$best" 'BEGIN {printf "%.2fx", w / b}')"
    done
  done
done
echo "(wall: the whole process, median of $RUNS runs; a_eq_e = $AEQE; vs_best: over the faster of host and cuda;"
echo " chose: the renderer the runs' report names (a scene's frame lines))"
