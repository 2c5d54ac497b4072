#!/usr/bin/env bash
# Pictures before and after a change that must not change them (issue 19's rule: byte-identical).
# Renders the demo pictures, the benchmark view (1e6 particles, a_eq_e TRUE and FALSE, 800x800)
# and one picture of every snapshot of ../shared/data (camera placed from the data, exposure =
# auto so that no picture is saturated or black and hides a change), on the host,
# and on the GPU too where one answers, into DIR, and writes DIR/sums (sha256 of each picture).
# Threads are fixed (OMP_NUM_THREADS=2): a_eq_e = FALSE breaks ties by a tile order whose tile
# side follows the thread count.
# Every picture is byte-stable from run to run, the GPU's too: the Btiles (Algorithm B, the
# default) sum in integers (cuda/btile_renderer.cu; until issue 38 they added floats atomically, in
# no fixed order, and on the H100 up to 3 of 18 pictures differed between two runs of one build).
# Where a GPU answers, every picture is also drawn with Algorithm A (cuda_algorithm = fragment, a
# stable sort by pixel, then a sum per pixel in that order: *_cuda_fragment.tga), which goes
# through the same pipeline (particles kept on the GPU, its geometry, colour and draw order) and
# so compares with trees whose Btile sums were floats.
#
#   tests/picture_check.sh build/pictures_before          # at the old commit
#   tests/picture_check.sh build/pictures_after           # at the new one
#   tests/picture_check.sh --compare build/pictures_before build/pictures_after
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --compare ]; then
  [ -f "$2/sums" ] && [ -f "$3/sums" ] || { echo "usage: $0 --compare DIR_BEFORE DIR_AFTER (each with its sums)"; exit 2; }
  total=$(wc -l <"$2/sums")
  if diff <(sort -k2 "$2/sums") <(sort -k2 "$3/sums") >/dev/null; then
    echo "picture_check: all $total pictures byte-identical"
    exit 0
  fi
  echo "picture_check: pictures that differ or are missing (< before, > after):"
  diff <(sort -k2 "$2/sums") <(sort -k2 "$3/sums") | grep '^[<>]' || true
  exit 1
fi

OUTDIR=${1:?usage: $0 DIR | --compare DIR_BEFORE DIR_AFTER}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
export OMP_NUM_THREADS=2
make -s bin/splotch bin/make_demo bin/make_snapshot build/demo/demo_particles.bin build/demo/demo_vector.bin >/dev/null
renderers=host
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then renderers="host cuda cuda_fragment"; fi
log=$OUTDIR/log
: >"$log"
render() {  # name, then the arguments of bin/splotch
  local name=$1
  shift
  for r in $renderers; do
    local keys="renderer=$r"
    [ "$r" = cuda_fragment ] && keys="renderer=cuda cuda_algorithm=fragment"
    # shellcheck disable=SC2086 # (keys: words on purpose)
    bin/splotch "$@" $keys outfile="$OUTDIR/${name}_$r.tga" >>"$log" 2>&1 ||
      { echo "picture_check: $name ($r) failed; see $log"; exit 1; }
  done
}

render demo testdata/demo.par
render demo_vector testdata/demo_vector.par
bench=build/bench/bench_1e6.bin
[ -f "$bench" ] || { mkdir -p build/bench && bin/make_snapshot --n 1000000 --seed 1 --raw block --out "$bench" >/dev/null; }
for aeqe in TRUE FALSE; do render "bench_1e6_$aeqe" tests/bench/bench.par infile="$bench" xres=800 a_eq_e=$aeqe; done

data=../shared/data
if [ -d "$data" ]; then
  # file, simtype, file type, the keys giving smoothing lengths (as tests/end_to_end/test_cli.cc renders them)
  while read -r file simtype ptype size; do
    [ -f "$data/$file" ] || continue
    par=$OUTDIR/real.par
    printf 'simtype = %s\ninfile = %s\nptype0 = %s\n%s\nintensity_label0 = MASS\nintensity_log0 = TRUE\npalette0 = testdata/palettes/fire.pal\nxres = 256\nperiodic = FALSE\nexposure = auto\n' \
      "$simtype" "$data/$file" "$ptype" "$size" >"$par"
    render "real_${file}_type$ptype" "$par"
  done <<'LIST'
gadgetreader_test_g2_snap.0 2 0 size_fix0=0
gadgetreader_test_g2_snap.0 2 1 size_estimate0=knn
pop3_gadget2_fmt2_gassphere_snapshot_004 2 0 size_fix0=0
vaex_gassphere_littleendian.dat 2 0 size_estimate0=knn
vaex_gassphere_bigendian.dat 2 0 size_estimate0=knn
genetic_gadget3_fmt1_gas_dm_test10g 2 1 size_estimate0=knn
iccpy_gadget_binary_snapshot_000 2 1 size_estimate0=knn
gadget4_lcdm_gas_snapshot_000.hdf5 8 0 size_fix0=0
gadget4_lcdm_gas_snapshot_004.hdf5 8 1 size_estimate0=knn
cmacionize_swift_test.hdf5 8 0 size_fix0=0
swift_sodshock3d_glass_002.hdf5 8 0 size_fix0=0
changa_pgtest_ms.000010 11 1 size_estimate0=knn
changa_testonestar_onestar.tbin 11 0 size_fix0=0
genetic_tipsy_littleendian_gas_test04d 11 1 size_estimate0=knn
LIST
else
  echo "picture_check: $data is not beside this checkout: its snapshots are left out" >&2
fi
(cd "$OUTDIR" && sha256sum -- *.tga >sums)
echo "picture_check: $(wc -l <"$OUTDIR/sums") pictures in $OUTDIR ($renderers)"
