#!/usr/bin/env bash
# make bench: how fast the readers of the formats held as columns read (RAMSES, Enzo, Phantom,
# ASCII, FITS), warm (from the page cache): per input, the bytes of the files its reader reads (a RAMSES
# output's amr, hydro and part files; an Enzo output's data files; else the file), the read stage's time (median of RUNS runs of
# bin/splotch at 64x64 from the snapshot alone) and the rate, against `cat` of the same files
# (median of RUNS) in the same run. INPUTS lists more (the larger outputs the readers issue
# names, fetched into a directory of your own).
#
#   tests/bench/bench_formats.sh
#   INPUTS="/data/output_00010 /data/hydro32_00020" RUNS=7 tests/bench/bench_formats.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-5}
DATA=../shared/data
DEFAULTS="$DATA/ramses_multimat2d_output_00001 $DATA/ramses_sedov2d_output_00001 $DATA/ramses_galaxy_particles_output_00010 $DATA/phantom_blast_00010 $DATA/phantom_adiabatic_00000.h5 $DATA/fits_example_cube.fits"
INPUTS=${INPUTS:-$DEFAULTS}
OUT=build/bench
mkdir -p "$OUT"
now() { date +%s.%N; }
printf "%-40s %10s %9s %9s %9s %9s %7s\n" input MB read_s read_MB/s cat_s cat_MB/s ratio
for input in $INPUTS; do
  [ -e "$input" ] || { echo "$input: not here, skipped"; continue; }
  if [ -d "$input" ] && ls "$input"/*.hierarchy >/dev/null 2>&1; then  # Enzo: its HDF5 data files
    files=$(ls "$input"/*.cpu[0-9]* "$input"/*.grid[0-9]* 2>/dev/null || true)
  elif [ -d "$input" ]; then
    files=$(ls "$input"/amr_* "$input"/hydro_* "$input"/part_* 2>/dev/null || true)
  else
    files=$input
  fi
  bytes=$(cat $files | wc -c)
  cat $files >/dev/null
  read_s=$(for r in $(seq "$RUNS"); do
    bin/splotch "$input" xres=64 outfile="$OUT/bench_formats.png" renderer=host | awk '$1 == "read" && $3 == "s" {print $2}'
  done | median)
  cat_s=$(for r in $(seq "$RUNS"); do s=$(now); cat $files >/dev/null; since "$s"; done | median)
  awk -v n="$(basename "$input")" -v b="$bytes" -v r="$read_s" -v c="$cat_s" 'BEGIN {
    printf "%-40s %10.2f %9.3f %9.0f %9.3f %9.0f %7.2f\n", n, b / 1e6, r, (r > 0 ? b / r / 1e6 : 0), c,
      (c > 0 ? b / c / 1e6 : 0), (c > 0 ? r / c : 0) }'
done
