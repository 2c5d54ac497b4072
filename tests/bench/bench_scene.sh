#!/usr/bin/env bash
# Scenes (issue 5), on the benchmark snapshots (../shared/bench) with the standard view:
#   orbit     FRAMES frames of an orbit of one snapshot against a single-frame run of the same
#             view: the snapshot is read once, so a frame costs what the camera-dependent stages do;
#   movie     FRAMES frames of the orbit interpolated between two Gadget-2 snapshots (fidx 0 to
#             0.98, interpolation_mode = 1, particles matched by ID): each snapshot is read once,
#             and a frame costs the interpolation and the camera-dependent stages; against a
#             single-frame run of the first snapshot;
#   sequence  one frame per snapshot of SNAPSHOTS Gadget-2 files (different seeds, fidx 000, 001,
#             ...) with the next snapshot read in the background while a frame renders
#             (scene_read_ahead = auto, the default, and TRUE) against reading each in its
#             frame's turn (FALSE).
# One row per case: medians over RUNS runs of the whole process's wall time, per frame, and the
# ratio to the single run (orbit) or to reading in turn (sequence).
#
#   tests/bench/bench_scene.sh                                  # 1e6, 800x800, host renderer
#   SIZES=1e7 RENDERER=auto EXTRA="size_estimate0=knn" tests/bench/bench_scene.sh   # a GPU node, and
#                                                          # smoothing lengths estimated per snapshot
#   COLD=1 tests/bench/bench_scene.sh   # the sequence's files dropped from the page cache before each
#                                 # run (dd iflag=nocache), as a simulation's snapshots are read
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-3}
SIZES=${SIZES:-1e6}
RES=${RES:-800}
FRAMES=${FRAMES:-60}
SNAPSHOTS=${SNAPSHOTS:-6}
RENDERER=${RENDERER:-host}
read -r -a extra_args <<<"${EXTRA:-}"
DIR=build/bench
mkdir -p "$DIR"

# Runs bin/splotch RUNS times with the arguments; prints the median wall time; the last log stays
# in $DIR/scene.log.
timed() {
  local times=()
  for _ in $(seq "$RUNS"); do
    [ -z "${COLD:-}" ] || for f in "${cold_files[@]}"; do dd if="$f" iflag=nocache count=0 status=none; done
    local start
    start=$(date +%s.%N)
    bin/splotch "$@" renderer="$RENDERER" xres="$RES" ${extra_args[@]+"${extra_args[@]}"} >"$DIR/scene.log"
    times+=("$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')")
  done
  printf "%s\n" "${times[@]}" | median
}

printf "%-9s %9s %9s %-8s %7s %-28s %9s %9s %9s %s\n" case N image renderer frames variant wall_s per_frame ratio reads
cold_files=()
for n in $SIZES; do
  # orbit: the raw block file, as tests/bench/bench.sh renders it.
  raw=$DIR/bench_$n.bin
  [ -f "$raw" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$raw" >&2
  cat "$raw" >/dev/null
  orbit=$DIR/orbit_$FRAMES.txt
  bin/splotch_path orbit camera=230,-120,160 lookat=50,50,50 frames="$FRAMES" out="$orbit"
  single=$(timed tests/bench/bench.par infile="$raw" outfile="$DIR/scene_single.tga")
  printf "%-9s %9s %9s %-8s %7s %-28s %9s %9.3f %9s %s\n" orbit "$n" "${RES}x$RES" "$RENDERER" 1 "single frame" "$single" \
    "$single" 1.00x -
  whole=$(timed tests/bench/bench.par infile="$raw" outfile="$DIR/scene_orbit.tga" scene_file="$orbit")
  reads=$(sed -n 's/.*; \([0-9]*\) snapshot reads\{0,1\}.*/\1/p' "$DIR/scene.log")
  awk -v n="$n" -v r="${RES}x$RES" -v re="$RENDERER" -v f="$FRAMES" -v w="$whole" -v s="$single" -v rd="$reads" \
    'BEGIN {printf "%-9s %9s %9s %-8s %7s %-28s %9s %9.3f %8.2fx %s\n", "orbit", n, r, re, f, "one snapshot", w, w / f, s / (w / f), rd}'

  # sequence: Gadget-2 files of different seeds, one frame each.
  scene=$DIR/sequence_$SNAPSHOTS.txt
  echo fidx >"$scene"
  for k in $(seq 0 $((SNAPSHOTS - 1))); do
    file=$(printf "%s/seq_%s_%03d" "$DIR" "$n" "$k")
    [ -f "$file" ] || bin/make_snapshot --n "$(count_of "$n")" --seed $((k + 1)) --out "$file" >&2
    cat "$file" >/dev/null
    echo "$k" >>"$scene"
  done

  # movie: the orbit between the first two snapshots of the sequence.
  movie=$DIR/movie_$FRAMES.txt
  awk -v f="$FRAMES" 'NR == 1 {print $0, "fidx"; next} {printf "%s %.6g\n", $0, (NR - 2) / f}' "$orbit" >"$movie"
  single=$(timed tests/bench/bench_gadget.par infile="$DIR/seq_${n}_" fidx=0 interpolation_mode=1 \
    outfile="$DIR/movie_single.tga")
  printf "%-9s %9s %9s %-8s %7s %-28s %9s %9.3f %9s %s\n" movie "$n" "${RES}x$RES" "$RENDERER" 1 "single frame, IDs read" \
    "$single" "$single" 1.00x -
  whole=$(timed tests/bench/bench_gadget.par infile="$DIR/seq_${n}_" interpolation_mode=1 outfile="$DIR/movie.tga" \
    scene_file="$movie")
  reads=$(sed -n 's/.*; \([0-9]*\) snapshot reads.*/\1/p' "$DIR/scene.log")
  awk -v n="$n" -v r="${RES}x$RES" -v re="$RENDERER" -v f="$FRAMES" -v w="$whole" -v s="$single" -v rd="$reads" \
    'BEGIN {printf "%-9s %9s %9s %-8s %7s %-28s %9s %9.3f %8.2fx %s\n", "movie", n, r, re, f, "two snapshots, mode 1", w, w / f, s / (w / f), rd}'

  cold_files=()
  for k in $(seq 0 $((SNAPSHOTS - 1))); do cold_files+=("$(printf "%s/seq_%s_%03d" "$DIR" "$n" "$k")"); done
  serial=
  for ahead in FALSE auto TRUE; do
    whole=$(timed tests/bench/bench_gadget.par infile="$DIR/seq_${n}_" outfile="$DIR/scene_seq.tga" \
      scene_file="$scene" scene_read_ahead=$ahead)
    [ -n "$serial" ] || serial=$whole
    reads=$(sed -n 's/.*; \([0-9]*\) snapshot reads, \([0-9]*\) of them.*/\1 (\2 ahead)/p' "$DIR/scene.log")
    awk -v n="$n" -v r="${RES}x$RES" -v re="$RENDERER" -v f="$SNAPSHOTS" -v w="$whole" -v s="$serial" -v rd="$reads" \
      -v v="scene_read_ahead=$ahead" \
      'BEGIN {printf "%-9s %9s %9s %-8s %7s %-28s %9s %9.3f %8.2fx %s\n", "sequence", n, r, re, f, v, w, w / f, s / w, rd}'
  done
done
keys=${EXTRA:+; keys: $EXTRA}
cold=${COLD:+; the files of the sequence dropped from the page cache before each run}
echo "(wall seconds of the whole process, medians of $RUNS runs; ratio: orbit and movie, the single frame's time"
echo " over the scene's per frame; sequence, reading in turn over this row; reads: snapshot reads in the run$keys$cold)"
