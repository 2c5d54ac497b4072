#!/usr/bin/env bash
# Several GPUs of one node (issue 23): bin/splotch_mpi with renderer = cuda, one process per GPU,
# on the benchmark snapshot in FILES Gadget files (make_snapshot --files; each process reads whole
# files) with the standard view.
#
# Data-parallel strong scaling: for each size and a_eq_e TRUE and FALSE, 1, 2, 4, 8 GPUs (those
# the node has); one row per case with the medians over RUNS runs of the stages rank 0 reports,
# `wait` (rank 0's total less its stages: mostly waiting for the slowest process before the
# reduce), the wall time of the whole mpirun, the speedup of the total and of the wall against
# the first of GPUS (1 GPU by default), and how far the picture is from that one's.
#
# Frame-parallel: a fly-through of FRAMES frames (bin/splotch_path fly) of the first size at
# FRAME_RES, the frames dealt out to 1, 2, 4, 8 processes (mpi_mode = frames), and every frame by
# all (mpi_mode = data); frames per second of the whole mpirun, and the speedup against 1 GPU, of the
# whole mpirun and of the scene alone (its summary's time: without the launch, start and end).
#
#   tests/bench/bench_mpi_gpu.sh                              # 1e8, 4096², 16 files, 96 frames at 2048²
#   SIZES="1e8 1e9" RUNS=3 tests/bench/bench_mpi_gpu.sh       # 1e9: 44 GB in 16 files, 10 minutes to write
#   GPUS="1 2" FRAMES=0 tests/bench/bench_mpi_gpu.sh
#   KEYS="cuda_large_splats=host" tests/bench/bench_mpi_gpu.sh   # more keys for every run
#   FLY_DATA=0 tests/bench/bench_mpi_gpu.sh                      # no fly-through with every frame by all
#   A_EQ_E=FALSE FRAMES=0 tests/bench/bench_mpi_gpu.sh           # the a_eq_e = FALSE rows alone
#   SINGLE=0 tests/bench/bench_mpi_gpu.sh                         # the fly-through alone
# Without a GPU, mpirun or bin/splotch_mpi it says so and ends (status 0). RENDERER=host NODE_GPUS=2
# runs the same steps without a GPU (to try the script).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-3}
SIZES=${SIZES:-1e8}
RES=${RES:-4096}
FILES=${FILES:-16}
FRAMES=${FRAMES:-96}
FRAME_RES=${FRAME_RES:-2048}
CORES=${CORES:-$(nproc)}
DIR=build/bench
mkdir -p "$DIR"
command -v mpirun >/dev/null || { echo "bench_mpi_gpu: no mpirun (make deps MPI=1)"; exit 0; }
[ -x bin/splotch_mpi ] || { echo "bench_mpi_gpu: bin/splotch_mpi is not built"; exit 0; }
RENDERER=${RENDERER:-cuda}
read -r -a keys <<<"${KEYS:-}"
node_gpus=${NODE_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)}
[ "$node_gpus" -gt 0 ] || { echo "bench_mpi_gpu: no GPU here (nvidia-smi -L lists none)"; exit 0; }
if [ -z "${GPUS:-}" ]; then
  GPUS=
  for g in 1 2 4 8; do [ "$g" -le "$node_gpus" ] && GPUS="$GPUS $g"; done
fi

# The GPUs' processes: each takes one GPU by its rank on the node, and the node's cores are
# shared out among them for the CPU stages (reading, the host's part of the splats).
run_mpi() {  # processes, then the arguments of bin/splotch_mpi
  local procs=$1 threads=$((CORES / $1))
  shift
  [ "$threads" -ge 1 ] || threads=1
  # Each process says when it began (before MPI's start; bash's few milliseconds before it count
  # in its `started` too): the launcher's own time is the first of these less mpirun's start.
  mpirun -q --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS=$threads -x NCCL_NVLS_ENABLE=0 \
    -np "$procs" bash -c 'echo "began ${OMPI_COMM_WORLD_RANK:-0} $(date +%s.%N)"; exec bin/splotch_mpi "$@"' _ "$@"
}

snapshot_of() {  # size -> the first file's name, written if missing
  local prefix=$DIR/bench_${1}_${FILES}files_000
  [ -f "$prefix.$((FILES - 1))" ] ||
    bin/make_snapshot --n "$(count_of "$1")" --seed 1 --files "$FILES" --out "$prefix" >&2
  echo "$prefix"
}

echo "bench_mpi_gpu: $node_gpus GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
  xargs), $CORES cores, renderer = $RENDERER"
stages="plan read gpu_start normalize to_gpu geometry colour sort exchange render reduce post write"
if [ "${SINGLE:-1}" = 1 ]; then
  printf "%-16s %6s %9s %-6s %4s %-5s %4s" dataset N image a_eq_e gpus mode drew
  for s in $stages total wait; do printf " %9s" "$s"; done
  printf " %8s %8s %8s %8s %8s %8s %8s %10s\n" wall launch started end "speedup" "wall_sp" max_diff differ
  for n in $SIZES; do
    snapshot=$(snapshot_of "$n")
    cat "$snapshot".* >/dev/null  # the files in the page cache: the reads are warm in every case
    # A snapshot just written is still going to disk (44 GB at 10^9), which most likely held up
    # the pictures' writes in one row on 4 x H200 (0.45-0.61 s against 0.08-0.10 s). Done first.
    sync
    for a in ${A_EQ_E:-TRUE FALSE}; do
      base_total= base_wall= reference=$DIR/mpi_gpu_${n}_$a.tga
      # Several GPUs: as mpi_mode = auto chooses (every process, or rank 0 alone where the share model
      # says one GPU finishes first), and every process drawing (mpi_mode = data).
      for case in $(for g in $GPUS; do echo "$g:auto"; [ "$g" -gt 1 ] && echo "$g:data"; done); do
        g=${case%%:*} mode=${case#*:}
        log=$DIR/mpi_gpu_${n}_${a}_${g}_$mode.log
        : >"$log"
        for _ in $(seq "$RUNS"); do
          start=$(date +%s.%N)
          run_mpi "$g" tests/bench/bench_gadget.par infile="${snapshot%000}" fidx=0 xres="$RES" renderer=$RENDERER \
            a_eq_e=$a mpi_mode=$mode outfile="$DIR/mpi_gpu_out.tga" ${keys[@]+"${keys[@]}"} >"$log.run"
          echo "wall $(since "$start") s" >>"$log.run"
          awk -v s="$start" '$1 == "began" {if (!b || $3 < b) b = $3; if ($2 == 0) r = $3}
            END {printf "launch %.3f s\nrank0_began %.3f s\n", b - s, r - s}' "$log.run" >>"$log.run"
          cat "$log.run" >>"$log"
        done
        rm -f "$log.run"
        drew=$g
        grep -q "rank 0 alone draws" "$log" && drew=1
        grep -q "processes on $g GPU" "$log" || [ "$drew" = 1 ] || [ "$RENDERER" != cuda ] || echo "bench_mpi_gpu: $g processes did not report $g GPUs" >&2
        [ -n "$base_total" ] || cp "$DIR/mpi_gpu_out.tga" "$reference"
        printf "%-16s %6s %9s %-6s %4s %-5s %4s" "gadget_${FILES}files" "$n" "${RES}x$RES" "$a" "$g" "$mode" "$drew"
        for s in $stages total; do printf " %9s" "$(awk -v s="$s" '/^  [a-z]/ && $1 == s && $3 == "s" {print $2}' "$log" | median)"; done
        printf " %9s" "$(awk -v stages=" $stages " '/^  [a-z]/ && $3 == "s" && index(stages, " " $1 " ") {sum += $2}
          $1 == "total" && $3 == "s" {printf "%.3f\n", $2 - sum; sum = 0}' "$log" | median)"
        total=$(awk '$1 == "total" && $3 == "s" {print $2}' "$log" | median)
        wall=$(awk '$1 == "wall" {print $2}' "$log" | median)
        started=$(awk '$1 == "started" && $3 == "s" {print $2}' "$log" | median)
        # What the whole mpirun took beyond its processes' start and rank 0's frame: the launcher
        # before the first process began, and the end after the picture was written.
        launch=$(awk '$1 == "launch" && $3 == "s" {print $2}' "$log" | median)
        end=$(awk '$1 == "started" && $3 == "s" {s = $2} $1 == "total" && $3 == "s" {t = $2} $1 == "wall" {w = $2}
          $1 == "rank0_began" {printf "%.3f\n", w - $2 - s - t}' "$log" | median)
        [ -n "$base_total" ] || { base_total=$total base_wall=$wall; }
        read -r worst share <<<"$(compare_tga "$reference" "$DIR/mpi_gpu_out.tga")"
        awk -v w="$wall" -v t="$total" -v bt="$base_total" -v bw="$base_wall" -v m="$worst" -v d="$share" \
          -v st="${started:--}" -v l="${launch:--}" -v e="${end:--}" \
          'BEGIN {printf " %8.3f %8s %8s %8s %7.2fx %7.2fx %8s %10s\n", w, l, st, e, bt / t, bw / w, m, d}'
      done
    done
  done
  echo "(seconds, medians of $RUNS runs, stages as rank 0 reports them, the snapshot's files in the page cache;"
  echo " wait: rank 0's total less its stages; wall: the whole mpirun, the processes' start and end included;"
  echo " launch: from mpirun's start to its first process's; started: from rank 0's start to its first stage (MPI's"
  echo " start in it); end: what is left of the wall after rank 0's start, its started and total (the processes' end"
  echo " after the picture is written; a run that fails leaves its output in the log's .run file);"
  echo " speedup: of the total, wall_sp: of the wall, against the first of GPUS; max_diff, differ: against its picture;"
  echo " mode: mpi_mode, drew: the processes that drew the frame)"
fi

[ "$FRAMES" -gt 0 ] || exit 0
[ -x bin/splotch_path ] || { echo "bench_mpi_gpu: bin/splotch_path is not built: no fly-through"; exit 0; }
echo
n=${SIZES%% *}
snapshot=$(snapshot_of "$n")
sync  # (as above: no writeback of a snapshot just written beside the frames)
path=$DIR/mpi_gpu_fly_$FRAMES.txt
bin/splotch_path fly camera="230,-120,160 150,-40,120 90,10,80 70,40,62" lookat=50,50,50 frames="$FRAMES" \
  out="$path" >/dev/null
printf "%-16s %6s %9s %6s %-6s %4s %9s %8s %8s %9s %8s\n" dataset N image frames mode gpus wall frames/s speedup \
  scene scene_sp
base= scene_base=
for case in $(for g in $GPUS; do echo "frames:$g"; done) $(for g in $GPUS; do [ "$g" -gt 1 ] && [ "${FLY_DATA:-1}" = 1 ] && echo "data:$g"; done); do
  mode=${case%%:*} g=${case#*:}
  walls= scenes=
  for _ in $(seq "$RUNS"); do
    rm -f "$DIR"/mpi_gpu_fly_out*.tga
    start=$(date +%s.%N)
    run_mpi "$g" tests/bench/bench_gadget.par infile="${snapshot%000}" fidx=0 xres="$FRAME_RES" renderer=$RENDERER \
      scene_file="$path" mpi_mode="$mode" exposure=auto outfile="$DIR/mpi_gpu_fly_out.tga" ${keys[@]+"${keys[@]}"} \
      >"$DIR/mpi_gpu_fly_${mode}_$g.log"
    walls="$walls $(since "$start")"
    # The scene's own time, from its first frame's start to its last's end (its summary's "in X s").
    scenes="$scenes $(sed -n 's/^scene: .* in \([0-9.]*\) s (.*/\1/p' "$DIR/mpi_gpu_fly_${mode}_$g.log" | head -1)"
    [ "$(ls "$DIR"/mpi_gpu_fly_out*.tga | wc -l)" -eq "$FRAMES" ] || { echo "bench_mpi_gpu: frames missing"; exit 1; }
  done
  wall=$(tr ' ' '\n' <<<"$walls" | grep . | median)
  scene=$(tr ' ' '\n' <<<"$scenes" | grep . | median)
  [ -n "$base" ] || base=$wall
  [ -n "$scene_base" ] || scene_base=$scene
  printf "%-16s %6s %9s %6s %-6s %4s" "gadget_${FILES}files" "$n" "${FRAME_RES}x$FRAME_RES" "$FRAMES" "$mode" "$g"
  awk -v w="$wall" -v b="$base" -v f="$FRAMES" -v s="$scene" -v sb="$scene_base" \
    'BEGIN {printf " %9.3f %8.2f %7.2fx %9.3f %7.2fx\n", w, f / w, b / w, s, (s > 0 ? sb / s : 0)}'
done
echo "(wall: the whole mpirun, the snapshot's read by each process and the frames' writing included, medians of"
echo " $RUNS runs; frames: dealt out to the processes as they become free, each process keeping the particles on"
echo " its GPU; data: every frame by all processes, images reduced on rank 0; speedup against 1 GPU; scene: the"
echo " scene's own time as its summary gives it, without the launch, the processes' start and their end)"
