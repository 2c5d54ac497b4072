#!/usr/bin/env bash
# The server's latency (issue 21), on the benchmark snapshots (../shared/bench) with the standard
# view: bin/splotch --serve holds the snapshot, and bin/splotch_serve_bench replays a recorded
# browser session (tests/bench/serve_session.txt) against it, one picture in flight at a time as
# the page asks for them. Per size, a row for full pictures (PNG, at rest) and one for reduced ones
# (JPEG, half the size each way, a quarter of the particles, while the mouse moves): medians over
# the session's pictures (ROUNDS rounds, the first left out as the warm-up) of the time from the
# request sent to its last byte received, and of the server's own drawing time.
#
#   tests/bench/bench_serve.sh                                   # 1e6, 800x800, host renderer
#   SIZES="1e7 1e8" RES=1280x720 RENDERER=cuda tests/bench/bench_serve.sh   # the GPU machine's rows
#   SESSION=tests/bench/serve_map_session.txt CASE=map tests/bench/bench_serve.sh   # the page's map mode
#   FORMAT=gadget SESSION=tests/bench/serve_field_session.txt CASE=field tests/bench/bench_serve.sh
#       # fields chosen in the page (a Gadget snapshot, whose fields the server lists)
#   FORMAT=gadget SERIES=2 SESSION=tests/bench/serve_time_session.txt CASE=time tests/bench/bench_serve.sh
#       # the time slider dragged between two snapshots (bench_N_000 and _001, seeds 1 and 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh

ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-1e6}
RES=${RES:-800x800}
RENDERER=${RENDERER:-host}
SESSION=${SESSION:-tests/bench/serve_session.txt}
CASE=${CASE:-serve}
FORMAT=${FORMAT:-raw}
SERIES=${SERIES:-1}
SPLOTCH=${SPLOTCH:-bin/splotch}  # (another build's, for a before and after in one command)
read -r -a extra_args <<<"${EXTRA:-}"
DIR=build/bench
mkdir -p "$DIR"
xres=${RES%x*}
yres=${RES#*x}


printf "%-6s %9s %10s %-8s %-8s %8s %9s %9s %9s %11s %12s %s\n" case N image renderer quality pictures \
  median_ms p90_ms max_ms drawing_ms particles/s size
for n in $SIZES; do
  if [ "$FORMAT" = gadget ]; then
    snapshot=$DIR/bench_${n}_000 par=tests/bench/bench_gadget.par
    # (a series of one: the other snapshots beside it moved away, so that none is served; a
    # longer series takes them back first, so that none is written again)
    if [ "$SERIES" != 1 ]; then
      for f in "$DIR"/bench_"${n}"_00[1-9].aside; do [ -f "$f" ] && mv "$f" "${f%.aside}"; done
    fi
    for k in $(seq 0 $((SERIES - 1))); do
      [ -f "$DIR/bench_${n}_00$k" ] || bin/make_snapshot --n "$(count_of "$n")" --seed $((k + 1)) \
        --out "$DIR/bench_${n}_00$k" >&2
    done
    if [ "$SERIES" = 1 ]; then
      for f in "$DIR"/bench_"${n}"_00[1-9]; do [ -f "$f" ] && mv "$f" "$f.aside"; done
    fi
  else
    snapshot=$DIR/bench_$n.bin par=tests/bench/bench.par
    [ -f "$snapshot" ] || bin/make_snapshot --n "$(count_of "$n")" --seed 1 --raw block --out "$snapshot" >&2
  fi
  cat "${snapshot%_000}"* >/dev/null
  log=$DIR/serve_$n.log
  "$SPLOTCH" --serve "$par" --port 0 infile="$snapshot" xres="$xres" yres="$yres" renderer="$RENDERER" \
    outfile="$DIR/serve.png" ${extra_args[@]+"${extra_args[@]}"} >"$log" 2>&1 &
  server=$!
  url=""
  for _ in $(seq 6000); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$log" | head -1 || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "bench_serve: the server did not start:" >&2
    cat "$log" >&2
    exit 1
  fi
  bin/splotch_serve_bench "$url" "$SESSION" "$ROUNDS" >"$DIR/serve_bench_$n.txt" \
    2>"$DIR/serve_stages_$n.txt"
  kill -INT "$server"
  wait "$server"
  while read -r quality pictures median p90 max drawing size particles; do
    rate=$(awk -v n="$particles" -v ms="$median" 'BEGIN {printf "%.3g", (ms > 0 ? n / (ms / 1000) : 0)}')
    printf "%-6s %9s %10s %-8s %-8s %8s %9s %9s %9s %11s %12s %s\n" "$CASE" "$n" "$RES" "$RENDERER" "$quality" \
      "$pictures" "$median" "$p90" "$max" "$drawing" "$rate" "$size"
  done <"$DIR/serve_bench_$n.txt"
  sed "s/^/# $n: /" "$DIR/serve_stages_$n.txt"
done
