#!/usr/bin/env bash
# make bench (second table): how fast the Gadget reader reads the benchmark snapshot
# (../shared/bench, Gadget-2 format 2), warm (from the page cache) and cold (the file's pages
# dropped from the cache first, with dd iflag=nocache, which needs no root). One row per N: the
# file's size, the bytes a render reads (POS, HSML, U, RHO: 24 bytes per particle), the read
# stage's time (median of RUNS runs of bin/splotch at 64x64, so that the rest costs little) and
# the rates, in GB/s of bytes read and of the file's size (the original Splotch reads the whole
# file: issue 4 quotes 4.7 s, 0.9 GB/s for 1e8 on the H100 node), and the disk's own sequential
# read rate (dd iflag=direct) for the cold figures to compare with. The read stage also checks
# the particles for NaN and the like (a few ms at 1e7), so the rates understate the reader a little.
#
#   tests/bench/bench_read.sh                     # 1e7, 5 runs
#   RUNS=3 SIZES="1e7 1e8" tests/bench/bench_read.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-5}
SIZES=${SIZES:-"1e7"}
DIR=build/bench
mkdir -p "$DIR"
rate() { awk -v b="$1" -v t="$2" 'BEGIN {if (t == "-" || t <= 0) print "-"; else printf "%.2f", b / t / 1e9}'; }

printf "%-14s %11s %8s %8s %8s %8s %9s %8s %9s %8s %9s\n" dataset N file_GB read_GB threads \
  warm_s warm_GB/s file/s cold_s cold_GB/s disk_GB/s
for n in $SIZES; do
  snapshot=$DIR/bench_${n}_000
  [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --out "$snapshot" >&2
  file_bytes=$(stat -c %s "$snapshot")
  read_bytes=$(( $(count_of "$n") * 24 ))
  run() {
    bin/splotch tests/bench/bench_gadget.par infile="$snapshot" outfile="$DIR/bench_read.tga" xres=64 renderer=host |
      awk '$1 == "read" && $3 == "s" {print $2}'
  }
  cat "$snapshot" >/dev/null
  warm=$(for r in $(seq "$RUNS"); do run; done | median)
  drop() { dd if="$snapshot" iflag=nocache count=0 status=none; }
  cold=$(for r in $(seq "$RUNS"); do drop; run; done | median)
  drop
  # (A file system without O_DIRECT: no disk figure.)
  disk=$( (dd if="$snapshot" of=/dev/null bs=16M iflag=direct 2>&1 || true) | awk '/copied/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^s,?$/) { t = $(i - 1) } } END {print (t == "" ? "-" : t)}')
  threads=${OMP_NUM_THREADS:-$(nproc)}
  printf "%-14s %11s %8.2f %8.2f %8s %8s %9s %8s %9s %8s %9s\n" "gadget_$n" "$(count_of "$n")" \
    "$(awk -v b="$file_bytes" 'BEGIN {print b / 1e9}')" "$(awk -v b="$read_bytes" 'BEGIN {print b / 1e9}')" \
    "$threads" "$warm" "$(rate "$read_bytes" "$warm")" "$(rate "$file_bytes" "$warm")" "$cold" \
    "$(rate "$read_bytes" "$cold")" "$(rate "$file_bytes" "$disk")"
done
echo "(read stage of bin/splotch, medians of $RUNS runs; GB/s of the bytes read, file/s: of the file's size;"
echo " cold: the file's pages dropped from the page cache before each run; disk: dd iflag=direct of the whole file)"
