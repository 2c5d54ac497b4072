#!/usr/bin/env bash
# What the MPI build's start costs (issue 36, section 7): the wall time of `--version` and of a
# small render (N particles of the demo, RES pixels wide, renderer=host unless RENDERER, THREADS
# OpenMP threads: 1, so that a busy machine's cores do not drown the start), median of RUNS runs
# after one untimed run, for
#   the default build                  bin/splotch (build/default/splotch after make MPI=1)
#   the MPI build without a launcher   bin/splotch_mpi, as a user of `make MPI=1` runs bin/splotch
#   the launcher alone                 mpirun -np 1 bin/splotch (the default build: no MPI_Init)
#   the MPI build under a launcher     mpirun -np 1 bin/splotch_mpi
# The last row less the one before it is MPI's own start in the process (MPI_Init_thread, the node
# and GPU communicators, MPI_Finalize); started without a launcher the MPI build should cost what
# the default build costs.
#
#   tests/bench/bench_mpi_start.sh
#   RUNS=21 N=1e8 RES=2048 RENDERER=auto THREADS=16 tests/bench/bench_mpi_start.sh   # a GPU frame (the GPU node)
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-11}
N=${N:-1e4}
RES=${RES:-256}
RENDERER=${RENDERER:-host}
export OMP_NUM_THREADS=${THREADS:-1}
DIR=build/bench
mkdir -p "$DIR"
. tests/bench/bench_lib.sh

command -v mpirun >/dev/null || { echo "bench_mpi_start: no mpirun (make deps MPI=1)"; exit 0; }
[ -x bin/splotch_mpi ] || { echo "bench_mpi_start: bin/splotch_mpi is not built"; exit 0; }
[ -x bin/make_demo ] || { echo "bench_mpi_start: bin/make_demo is not built"; exit 0; }

# The benchmark snapshot (../shared/bench, the standard view) where make bench built its generator,
# else the demo's particles (at most 10^7 of them).
if [ -x bin/make_snapshot ]; then
  snapshot=$DIR/bench_$N.bin par=tests/bench/bench.par
  [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$N")" --seed 1 --raw block --out "$snapshot" >&2
else
  snapshot=$DIR/start_$N.bin par=testdata/demo.par
  [ -f "$snapshot" ] || bin/make_demo --out "$snapshot" --n "$(count_of "$N")" >/dev/null
fi
mpirun_1="mpirun -q --allow-run-as-root --oversubscribe --bind-to none -np 1"  # (bound to one core, 16 threads would share it)
render="$par infile=$snapshot outfile=$DIR/start_out.png xres=$RES renderer=$RENDERER --quiet"

# The median wall time in seconds of RUNS runs of the command line $1 (one untimed run first:
# the binary and the snapshot in the page cache).
median_time() {
  $1 >/dev/null 2>&1 || { echo "failed: $1" >&2; echo "-"; return; }
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    $1 >/dev/null 2>&1
    since "$start"
    echo
  done | median
}

row() {  # label, command prefix, binary
  printf "%-34s %12s %12s\n" "$1" "$(median_time "$2 $3 --version")" "$(median_time "$2 $3 $render")"
}

echo "MPI start: medians of $RUNS runs (s); render: $(count_of "$N") particles of $snapshot, ${RES}x${RES}, renderer=$RENDERER, $OMP_NUM_THREADS thread(s)"
printf "%-34s %12s %12s\n" case "--version" render
# After `make MPI=1` bin/splotch is the MPI build, and the default build is build/default/splotch.
default=bin/splotch
cmp -s bin/splotch bin/splotch_mpi && default=build/default/splotch
if [ -x "$default" ]; then
  row "default build" "" "$default"
else
  default=""
  printf "%-34s %12s %12s\n" "default build (not built)" "-" "-"
fi
row "MPI build, no launcher" "" bin/splotch_mpi
[ -n "$default" ] && row "launcher alone (mpirun -np 1)" "$mpirun_1" "$default"
row "MPI build, mpirun -np 1" "$mpirun_1" bin/splotch_mpi
