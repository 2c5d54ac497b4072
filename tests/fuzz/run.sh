#!/usr/bin/env bash
# Fuzzes the Gadget, Tipsy, RAMSES, Phantom, Enzo (its hierarchy), VisIVO, Bonsai and mesh readers with libFuzzer (clang from Debian, with AddressSanitizer and
# UndefinedBehaviorSanitizer): builds tests/fuzz/fuzz_{gadget,tipsy,ramses,phantom,enzo,visivo,bonsai,mesh} under build/fuzz, seeds them
# (written seeds and the real files of ../shared/data) and runs each for SECONDS (default 600).
# Findings (crash-*, leak-*, timeout-*) land in build/fuzz/<reader>/; the last lines of each log
# say how many inputs were run; the exit status is 1 when there are findings.
#
#   tests/fuzz/run.sh                 # all, 10 minutes each
#   SECONDS_EACH=60 tests/fuzz/run.sh tipsy
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${SECONDS_EACH:-600}
READERS=${*:-gadget tipsy ramses phantom enzo visivo bonsai mesh}
CXX=${FUZZ_CXX:-clang++}
FLAGS="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fopenmp -I."
COMMON="io/input_file.cc io/page_cache.cc io/read_ahead.cc io/gadget_file.cc io/field_names.cc io/read_plan.cc io/block_copy.cc io/snapshot_units.cc"
declare -A SOURCES=(
  [gadget]="io/gadget_reader.cc"
  [tipsy]="io/tipsy_reader.cc io/tipsy_file.cc io/tipsy_aux_array.cc"
  [ramses]="io/ramses_reader.cc io/ramses_output.cc io/fortran_records.cc io/column_snapshot.cc io/column_reader.cc"
  [phantom]="io/phantom_reader.cc io/phantom_untagged.cc io/no_hdf5.cc io/fortran_records.cc io/column_snapshot.cc io/column_reader.cc"
  [enzo]="io/enzo_run.cc io/enzo_reader.cc io/no_hdf5.cc io/column_snapshot.cc"
  [visivo]="io/visivo_reader.cc io/ascii_reader.cc io/column_snapshot.cc"
  [bonsai]="io/bonsai_reader.cc io/column_snapshot.cc io/column_reader.cc"
  [mesh]="io/mesh_reader.cc io/column_snapshot.cc"
)
declare -A REAL=(
  [gadget]="gadgetreader_test_g2_snap.0 pop3_gadget2_fmt2_gassphere_snapshot_004 vaex_gassphere_bigendian.dat genetic_gadget3_fmt1_gas_dm_test10g iccpy_gadget_binary_snapshot_000"
  [tipsy]="changa_testonestar_onestar.tbin genetic_tipsy_littleendian_gas_test04d"
  [ramses]=""
  [phantom]=""
  [enzo]=""
  [visivo]=""
  [bonsai]=""
  [mesh]=""
)
for r in $READERS; do
  dir=build/fuzz/$r
  mkdir -p "$dir/seeds" "$dir/corpus"
  # shellcheck disable=SC2086
  $CXX $FLAGS "tests/fuzz/fuzz_$r.cc" ${SOURCES[$r]} $COMMON -o "$dir/fuzz_$r"
  "$dir/fuzz_$r" -write_seeds="$dir/seeds"
  for f in ${REAL[$r]}; do [ -f "../shared/data/$f" ] && cp "../shared/data/$f" "$dir/seeds/"; done
  echo "== fuzz_$r: $SECONDS_EACH s"
  (cd "$dir" && OMP_NUM_THREADS=2 ./fuzz_$r -max_len=300000 -timeout=20 -max_total_time="$SECONDS_EACH" \
     -print_final_stats=1 corpus seeds > fuzz.log 2>&1) || true
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs|ERROR|SUMMARY" "$dir/fuzz.log" | tail -6
  if ls "$dir" | grep -E "^(crash|leak|timeout|oom)-"; then
    echo "fuzz_$r: findings above, in $dir (reproduce: $dir/fuzz_$r $dir/<finding>)"
    found=1
  else
    echo "no findings"
  fi
done
exit ${found:-0}
