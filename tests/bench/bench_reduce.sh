#!/usr/bin/env bash
# The image reductions of the data-parallel MPI mode alone (bin/splotch_reduce_bench): summing the
# processes' images (a_eq_e) and compositing their layers (a_eq_e = FALSE), through MPI by rank 0
# directly and by bands, and through the node's shared memory (node: what splotch takes within a
# node), on 2 to 16 processes (as many as the machine has cores), a RES² image; one row per number
# of processes with the medians of RUNS runs.
#
#   tests/bench/bench_reduce.sh                        # 4096², 5 runs
#   RES=2048 PROCESSES="2 4" tests/bench/bench_reduce.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

RES=${RES:-4096}
RUNS=${RUNS:-5}
CORES=${CORES:-$(nproc)}
PROCESSES=${PROCESSES:-"2 4 8 16"}
command -v mpirun >/dev/null || { echo "bench_reduce: no mpirun (make deps MPI=1)"; exit 0; }
[ -x bin/splotch_reduce_bench ] || { echo "bench_reduce: bin/splotch_reduce_bench is not built"; exit 0; }

printf "%-7s %9s %10s %10s %10s %12s %12s %12s\n" procs image sum_direct sum_bands sum_node comp_direct comp_bands \
  comp_node
for p in $PROCESSES; do
  [ "$p" -le "$CORES" ] || continue
  out=$(mpirun -q --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS=$((CORES / p)) -np "$p" \
    bin/splotch_reduce_bench "$RES" "$RUNS")
  get() { awk -v k="$1" -v w="$2" '$1 == k && $2 == w {print $3}' <<<"$out"; }
  printf "%-7s %9s %10s %10s %10s %12s %12s %12s\n" "$p" "${RES}x$RES" "$(get sum direct)" "$(get sum bands)" \
    "$(get sum node)" "$(get composite direct)" "$(get composite bands)" "$(get composite node)"
done
echo "(seconds until every process is done, medians of $RUNS runs, OMP_NUM_THREADS = $CORES / procs; within a node"
echo " splotch takes node; between nodes, the sum by rank 0 directly with fewer than 4 nodes, all else by bands)"
