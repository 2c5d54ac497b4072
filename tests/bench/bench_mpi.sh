#!/usr/bin/env bash
# Strong scaling of the data-parallel MPI mode (issue 6) on the benchmark snapshot
# (../shared/bench, raw blocks) with the standard view: bin/splotch_mpi under mpirun with 1, 2, 4
# and 8 processes sharing the machine's cores (OMP_NUM_THREADS = cores / processes, unbound), the
# host renderer, and 1 process with the renderer `auto` (the GPU where there is one). One row per
# case: medians over RUNS runs of the stages rank 0 reports and of the wall time, the speedup and
# efficiency against 1 process, and how far the picture is from the single-process one (largest
# difference of an 8-bit value, and the share of values that differ).
#
#
# Then the frame-parallel mode: an orbit of FRAMES frames (bin/splotch_path) of the same snapshot,
# dealt out to 1, 2, 4 and 8 processes (mpi_mode = frames), against the same processes rendering
# each frame together (mpi_mode = data); one row per case with the wall time per frame and the
# speedup against 1 process. FRAMES=0 leaves it out.
#
#   tests/bench/bench_mpi.sh                          # 1e7, 2048x2048, a_eq_e
#   EXTRA="a_eq_e=FALSE" tests/bench/bench_mpi.sh     # compositing: each process draws a range of the order
#   SIZES=1e6 RES=800 PROCESSES="1 2" FRAMES=16 tests/bench/bench_mpi.sh
#
# Between the two, the pictures of 1 to 4 processes against the single process's on the benchmark
# snapshot (EQUAL_N particles, raw and 4 Gadget files, a_eq_e TRUE and FALSE; EQUAL_N=0: none).
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-3}
SIZES=${SIZES:-1e7}
RES=${RES:-2048}
PROCESSES=${PROCESSES:-"1 2 4 8"}
CORES=${CORES:-$(nproc)}
FRAMES=${FRAMES:-32}
read -r -a extra <<<"${EXTRA:-}"
DIR=build/bench
mkdir -p "$DIR"
command -v mpirun >/dev/null || { echo "bench_mpi: no mpirun (make deps MPI=1)"; exit 0; }
[ -x bin/splotch_mpi ] || { echo "bench_mpi: bin/splotch_mpi is not built"; exit 0; }

. tests/bench/bench_lib.sh

stages="plan read normalize geometry colour sort exchange render reduce post write total"
printf "%-10s %9s %9s %-6s %5s %7s" dataset N image render procs threads
for s in $stages; do printf " %8s" "$s"; done
printf " %8s %8s %8s %8s %10s\n" wall speedup effic max_diff differ
for n in $SIZES; do
  snapshot=$DIR/bench_$n.bin
  [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$snapshot" >&2
  cat "$snapshot" >/dev/null
  reference=$DIR/mpi_single.tga
  bin/splotch tests/bench/bench.par infile="$snapshot" outfile="$reference" xres="$RES" renderer=host \
    ${extra[@]+"${extra[@]}"} >/dev/null
  base=
  for case in $(for p in $PROCESSES; do echo "host:$p"; done) auto:1; do
    renderer=${case%%:*} procs=${case#*:}
    threads=$((CORES / procs))
    [ "$threads" -ge 1 ] || threads=1
    log=$DIR/mpi_${renderer}_$procs.log
    : >"$log"
    for _ in $(seq "$RUNS"); do
      start=$(date +%s.%N)
      mpirun -q --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS=$threads -np "$procs" \
        bin/splotch_mpi tests/bench/bench.par infile="$snapshot" outfile="$DIR/mpi_out.tga" xres="$RES" \
        renderer="$renderer" ${extra[@]+"${extra[@]}"} >>"$log"
      echo "wall $(since "$start") s" >>"$log"
    done
    printf "%-10s %9s %9s %-6s %5s %7s" "bench_$n" "$n" "${RES}x$RES" "$renderer" "$procs" "$threads"
    for s in $stages; do printf " %8s" "$(awk -v s="$s" '$1 == s && $3 == "s" {print $2}' "$log" | median)"; done
    wall=$(awk '$1 == "wall" {print $2}' "$log" | median)
    [ -n "$base" ] || base=$wall
    read -r worst share <<<"$(compare_tga "$reference" "$DIR/mpi_out.tga")"
    awk -v w="$wall" -v b="$base" -v p="$procs" -v r="$renderer" -v m="$worst" -v d="$share" \
      'BEGIN {s = b / w; e = r == "host" ? sprintf("%.0f%%", 100 * s / p) : "-"; printf " %8.3f %7.2fx %8s %8s %10s\n", w, s, e, m, d}'
  done
done
echo "(seconds, medians of $RUNS runs, stages as rank 0 reports them; wall: the whole mpirun; speedup and"
echo " efficiency against 1 process; max_diff, differ: against the single-process picture of bin/splotch)"
echo "(${EXTRA:-a_eq_e = TRUE})"

# The pictures of 1 to 4 processes against the single process's, on the benchmark snapshot of
# EQUAL_N particles as a raw file and as 4 Gadget files (whole files for up to 4 processes), at
# 800², a_eq_e TRUE and FALSE (EQUAL_N=0 leaves it out).
EQUAL_N=${EQUAL_N:-1e6}
if [ "$EQUAL_N" != 0 ]; then
  echo
  raw=$DIR/bench_$EQUAL_N.bin
  gadget=$DIR/mpi_gadget_${EQUAL_N}_
  [ -f "$raw" ] || bin/make_snapshot --n "$(count_of "$EQUAL_N")" --seed 1 --raw block --out "$raw" >&2
  [ -f "${gadget}000.3" ] || bin/make_snapshot --n "$(count_of "$EQUAL_N")" --seed 1 --files 4 --out "${gadget}000" >&2
  printf "%-22s %9s %-8s %5s %8s %10s\n" input N a_eq_e procs max_diff differ
  for input in raw gadget; do
    if [ "$input" = raw ]; then args=(tests/bench/bench.par infile="$raw"); else args=(tests/bench/bench_gadget.par infile="$gadget" fidx=0); fi
    for a in TRUE FALSE; do
      bin/splotch "${args[@]}" a_eq_e=$a xres=800 renderer=host outfile="$DIR/mpi_eq_single.tga" >/dev/null
      for procs in 1 2 3 4; do
        mpirun -q --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS=$(((CORES + procs - 1) / procs)) \
          -np "$procs" bin/splotch_mpi "${args[@]}" a_eq_e=$a xres=800 renderer=host outfile="$DIR/mpi_eq.tga" >/dev/null
        read -r worst share <<<"$(compare_tga "$DIR/mpi_eq_single.tga" "$DIR/mpi_eq.tga")"
        printf "%-22s %9s %-8s %5s %8s %10s\n" "$([ $input = raw ] && echo "raw blocks" || echo "Gadget-2, 4 files")" \
          "$EQUAL_N" "$a" "$procs" "$worst" "$share"
      done
    done
  done
  echo "(max_diff, differ: largest difference of an 8-bit value and the share of values that differ, against"
  echo " bin/splotch on the same input)"
fi

[ "$FRAMES" -gt 0 ] || exit 0
echo
orbit=$DIR/mpi_orbit_$FRAMES.txt
bin/splotch_path orbit camera=230,-120,160 lookat=50,50,50 frames="$FRAMES" out="$orbit" >/dev/null
printf "%-10s %9s %9s %6s %-6s %5s %7s %10s %9s\n" dataset N image frames mode procs threads per_frame speedup
for n in $SIZES; do
  snapshot=$DIR/bench_$n.bin
  base=
  for case in $(for p in $PROCESSES; do echo "frames:$p"; done) $(for p in $PROCESSES; do [ "$p" -gt 1 ] && echo "data:$p"; done); do
    mode=${case%%:*} procs=${case#*:}
    threads=$((CORES / procs))
    [ "$threads" -ge 1 ] || threads=1
    walls=
    for _ in $(seq "$RUNS"); do
      rm -f "$DIR"/mpi_orbit_out*.tga
      start=$(date +%s.%N)
      mpirun -q --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS=$threads -np "$procs" \
        bin/splotch_mpi tests/bench/bench.par infile="$snapshot" outfile="$DIR/mpi_orbit_out.tga" xres="$RES" \
        renderer=host scene_file="$orbit" mpi_mode="$mode" ${extra[@]+"${extra[@]}"} >"$DIR/mpi_orbit.log"
      walls="$walls $(since "$start")"
      [ "$(ls "$DIR"/mpi_orbit_out*.tga | wc -l)" -eq "$FRAMES" ] || { echo "bench_mpi: frames missing"; exit 1; }
    done
    wall=$(tr ' ' '\n' <<<"$walls" | grep . | median)
    [ -n "$base" ] || base=$wall
    printf "%-10s %9s %9s %6s %-6s %5s %7s" "bench_$n" "$n" "${RES}x$RES" "$FRAMES" "$mode" "$procs" "$threads"
    awk -v w="$wall" -v b="$base" -v f="$FRAMES" 'BEGIN {printf " %10.4f %8.2fx\n", w / f, b / w}'
  done
done
echo "(wall time of the whole mpirun per frame, medians of $RUNS runs; speedup against 1 process; frames: dealt"
echo " out, each process rendering whole frames of the snapshot it keeps; data: every frame by all processes)"
