#!/usr/bin/env bash
# make bench: renders the shared benchmark snapshot (../shared/bench, raw block layout) with the
# standard view at 800x800 and 2048x2048, a_eq_e TRUE and FALSE, and prints one table row per
# case: the median over RUNS runs of each stage's time, of the total that bin/splotch reports and
# of the wall time of the whole process, the peak memory, particles per second and the ratio (of
# the wall time) to the original
# Splotch's figures that issue #2 quotes for this machine kind (2 OpenMP threads).
#
#   tests/bench/bench.sh                    # all cases, 5 runs each; GPU rows too where there is a GPU
#   RUNS=3 SIZES="1e6" tests/bench/bench.sh # fewer
#   RENDERERS="host cuda cuda:fragment" tests/bench/bench.sh  # GPU renderers too
#                                      # (cuda: btile), with
#                                      # their ratio to the host's; gpu_part, upload, kernels, host_part
#                                      # and gpu_MiB are the GPU rows' render parts and device memory
#   FORMAT=gadget tests/bench/bench.sh      # the Gadget-2 snapshot (the generator's default) instead of
#                                      # the raw block file: the same particles, read by the Gadget reader
#   FORMAT=gadget FILES=16 SIZES=1e9 RESOLUTIONS=2048 RENDERERS=cuda tests/bench/bench.sh  # a snapshot
#                                      # in 16 files (make_snapshot --files: 10^9 is 44 GB; 46 GB of disk)
#   FORMAT=gadget EXTRA="size_estimate0=knn" SIZES=1e7 tests/bench/bench.sh  # more keys for every run
#                                      # (here: smoothing lengths from the 32 nearest neighbours, the hsml column)
#   RENDERERS="host auto cuda" tests/bench/bench.sh  # auto: the default, labelled with what it chose
#                                      # (renderer = cuda waits for the search for a GPU before the
#                                      # read, so that its error comes first; auto does not wait)
#   ORIGINAL=build/original/cpu/Splotch6-generic ORIGINAL_CUDA=build/original/cuda/Splotch6-generic \
#     tests/bench/bench.sh                   # the original Splotch timed in the same command (built by
#                                      # tools/build_original.sh; raw format only), a row each, and
#                                      # orig_s/speedup from them: host rows against ORIGINAL, GPU
#                                      # rows against ORIGINAL_CUDA (its a_eq_e = FALSE is refused)
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

RUNS=${RUNS:-5}
SIZES=${SIZES:-"1e6 1e7"}
RESOLUTIONS=${RESOLUTIONS:-"800 2048"}
FORMAT=${FORMAT:-raw}
FILES=${FILES:-1}
read -r -a extra_args <<<"${EXTRA:-}"
# GPU rows by default where a GPU answers (the binary must then be built with CUDA, as `make` does
# when nvcc is found).
default_renderers="host"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  default_renderers="host auto cuda:fragment"
fi
RENDERERS=${RENDERERS:-$default_renderers}
DIR=build/bench
mkdir -p "$DIR"


# The original Splotch on this machine kind (issue #2): seconds and peak MiB, by N, xres, a_eq_e.
original() {
  case "$1 $2 $3" in
    "1e6 800 TRUE") echo "0.54 61" ;;
    "1e6 800 FALSE") echo "0.88 61" ;;
    "1e7 2048 TRUE") echo "2.9 481" ;;
    "1e7 2048 FALSE") echo "5.1 481" ;;
    *) echo "- -" ;;
  esac
}

# The original Splotch timed here: the median wall seconds and the peak MiB of RUNS runs of
# binary $1 on snapshot $2 at side $3 with a_eq_e $4, or "- -" when it failed (its log says why).
# It takes no command-line keys: each run gets bench.par with the run's keys added.
time_original() {
  local bin=$1 snapshot=$2 res=$3 aeqe=$4 log=$5 par=$DIR/original.par walls peaks
  {
    cat tests/bench/bench.par
    printf "infile = %s\noutfile = %s\nxres = %s\nyres = %s\na_eq_e = %s\n" "$snapshot" "$DIR/original_out" "$res" \
      "$res" "$aeqe"
    # Its defaults that differ: periodic wraps by a box size the raw reader never sets; a log file.
    printf "ptypes = 1\nperiodic = FALSE\nprint_logfile = FALSE\npictype = 0\ncolorbar = FALSE\nboost = FALSE\n"
  } >"$par"
  : >"$log"
  for run in $(seq "$RUNS"); do
    local start
    start=$(date +%s.%N)
    if command -v /usr/bin/time >/dev/null 2>&1; then
      /usr/bin/time -f "peak_kib %M" "$bin" "$par" >>"$log" 2>&1 || { echo "- -"; return; }
    else
      "$bin" "$par" >>"$log" 2>&1 || { echo "- -"; return; }
    fi
    echo "wall $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}') s" >>"$log"
  done
  walls=$(awk '$1 == "wall" {print $2}' "$log" | median)
  peaks=$(awk '$1 == "peak_kib" {printf "%.1f\n", $2 / 1024}' "$log" | sort -g | tail -1)
  echo "$walls ${peaks:--}"
}


stages="plan read hsml normalize geometry colour sort gpu_start to_gpu render gpu_part upload kernels host_part post write total wall"
printf "%-14s %9s %9s %-21s %-6s" dataset N image renderer a_eq_e
for s in $stages; do printf " %9s" "$s"; done
printf " %9s %9s %10s %9s %8s %9s %9s %9s\n" "peak_MiB" "gpu_MiB" "Mpart/s" "orig_s" "speedup" "orig_MiB" "render_vs" "wall_vs"

for n in $SIZES; do
  if [ "$FORMAT" = gadget ] && [ "$FILES" -gt 1 ]; then
    snapshot=$DIR/bench_${n}_${FILES}files_000 par=tests/bench/bench_gadget.par dataset=gadget_$n
    [ -f "$snapshot.$((FILES - 1))" ] ||
      bin/make_snapshot --n "$(count_of "$n")" --seed 1 --files "$FILES" --out "$snapshot" >&2
  elif [ "$FORMAT" = gadget ]; then
    snapshot=$DIR/bench_${n}_000 par=tests/bench/bench_gadget.par dataset=gadget_$n
    [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --out "$snapshot" >&2
  else
    snapshot=$DIR/bench_$n.bin par=tests/bench/bench.par dataset=bench_$n
    [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$snapshot" >&2
  fi
  cat "$snapshot"* >/dev/null  # every run reads from the page cache, as the original's figures do
  for res in $RESOLUTIONS; do
    for aeqe in TRUE FALSE; do
      host_render=-; host_wall=-
      # The original, when given, timed first: our rows' ratios are to it.
      measured_cpu="" measured_cuda=""
      if [ -n "${ORIGINAL:-}" ] && [ "$FORMAT" = raw ]; then
        measured_cpu=$(time_original "$ORIGINAL" "$snapshot" "$res" "$aeqe" "$DIR/original_${n}_${res}_${aeqe}.log")
      fi
      if [ -n "${ORIGINAL_CUDA:-}" ] && [ "$FORMAT" = raw ]; then
        measured_cuda=$(time_original "$ORIGINAL_CUDA" "$snapshot" "$res" "$aeqe" \
          "$DIR/original_cuda_${n}_${res}_${aeqe}.log")
      fi
      for variant in cpu cuda; do
        m=$([ $variant = cpu ] && echo "$measured_cpu" || echo "$measured_cuda")
        [ -n "$m" ] || continue
        read -r o_s o_mib <<<"$m"
        printf "%-14s %9s %9s %-21s %-6s" "$dataset" "$n" "${res}x${res}" "original$([ $variant = cuda ] && echo :cuda)" "$aeqe"
        for s in $stages; do printf " %9s" "$([ "$s" = wall ] && echo "$o_s" || echo -)"; done
        rate=$(awk -v n="$(count_of "$n")" -v t="$o_s" 'BEGIN {if (t == "-") print "-"; else printf "%.2f", n / t / 1e6}')
        printf " %9s %9s %10s %9s %8s %9s %9s %9s\n" "$o_mib" - "$rate" - - - - -
      done
      for renderer in $RENDERERS; do
        log=$DIR/run_${n}_${res}_${renderer}_${aeqe}.log
        : >"$log"
        for run in $(seq "$RUNS"); do
          start=$(date +%s.%N)
          gpu_args=()
          case "$renderer" in
            *:*) gpu_args=(cuda_algorithm="${renderer#*:}") ;;
          esac
          bin/splotch "$par" infile="$snapshot" outfile="$DIR/bench_out.tga" \
            xres="$res" a_eq_e="$aeqe" renderer="${renderer%%:*}" ${gpu_args[@]+"${gpu_args[@]}"} \
            ${extra_args[@]+"${extra_args[@]}"} >>"$log"
          echo "wall $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}') s" >>"$log"
        done
        label=$renderer
        if [ "${renderer%%:*}" = auto ]; then  # which renderer auto chose
          label="$renderer=$(sed -n 's/^splotch: wrote .*, \([a-z]*\) .*renderer.*/\1/p' "$log" | sort -u | tr '\n' ' ' | sed 's/ $//')"
        fi
        printf "%-14s %9s %9s %-21s %-6s" "$dataset" "$n" "${res}x${res}" "$label" "$aeqe"
        for s in $stages; do
          printf " %9s" "$(awk -v s="$s" '$1 == s && $3 == "s" {print $2}' "$log" | median)"
        done
        render=$(awk '$1 == "render" && $3 == "s" {print $2}' "$log" | median)
        peak=$(awk '$1 == "peak" {print $3}' "$log" | sort -g | tail -1)
        gpu_mib=$(awk '/on the GPU/ {for (i = 1; i + 2 <= NF; i++) if ($(i + 1) == "MiB" && $(i + 2) == "of") print $i}' "$log" |
          sort -g | tail -1)
        total=$(awk '$1 == "wall" {print $2}' "$log" | median)
        read -r orig_s orig_mib <<<"$(original "$n" "$res" "$aeqe")"
        if [ "$renderer" = host ] && [ -n "$measured_cpu" ]; then
          read -r orig_s orig_mib <<<"$measured_cpu"
        elif [ "$renderer" != host ] && [ -n "$measured_cuda$measured_cpu" ]; then
          read -r orig_s orig_mib <<<"${measured_cuda:-$measured_cpu}"
        fi
        rate=$(awk -v n="$(count_of "$n")" -v t="$total" 'BEGIN {printf "%.2f", n / t / 1e6}')
        speedup=$(awk -v o="$orig_s" -v t="$total" 'BEGIN {if (o == "-") print "-"; else printf "%.2fx", o / t}')
        if [ "$renderer" = host ]; then host_render=$render; host_wall=$total; fi
        ratio() { awk -v h="$1" -v t="$2" 'BEGIN {if (h == "-" || t == 0) print "-"; else printf "%.2fx", h / t}'; }
        printf " %9s %9s %10s %9s %8s %9s %9s %9s\n" "$peak" "${gpu_mib:--}" "$rate" "$orig_s" "$speedup" "$orig_mib" \
          "$(ratio "$host_render" "$render")" "$(ratio "$host_wall" "$total")"
      done
    done
  done
done
echo "(seconds, medians of $RUNS runs; total: as bin/splotch reports it; wall: the whole process;"
echo " Mpart/s and speedup from wall; orig: the original Splotch, 2 OpenMP threads, as quoted in issue #2,"
echo " or where ORIGINAL (ORIGINAL_CUDA) ran in this command, its rows' wall (host rows against ORIGINAL,"
echo " GPU rows against ORIGINAL_CUDA where it ran, else ORIGINAL); to_gpu: the particles copied to the GPU"
echo " (its geometry, colour and ordering then run there, and the geometry column is its kernels' part of render);"
echo " render_vs, wall_vs: the host renderer's render stage and wall time in this command over this row's,"
echo " when RENDERERS lists host first, e.g. RENDERERS=\"host cuda cuda:fragment\";"
echo " gpu_part: the GPU's work (wall), upload and kernels summed over chunks (they overlap), host_part:"
echo " the splats larger than the tile boundary on CPU threads meanwhile; gpu_MiB: device memory in use;"
echo " gpu_start: waiting for the GPU's start-up (driver, context, pinned buffers) that the stages before did not hide)"
