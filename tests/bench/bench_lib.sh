# Helpers the benchmark scripts share (sourced, not run).

# 1e8 -> 100000000
count_of() { python3 -c "print(int(float('$1')))" 2>/dev/null || awk "BEGIN{printf \"%d\", $1}"; }
# The median of the numbers on stdin, one a line; "-" for none.
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# The largest difference of an 8-bit value and the share of values that differ, of two TGA files of one size.
compare_tga() {
  python3 - "$1" "$2" <<'PY'
import sys
a, b = (open(p, 'rb').read() for p in sys.argv[1:3])
ha, hb = 18 + a[0], 18 + b[0]
a, b = a[ha:], b[hb:]
if len(a) != len(b):
    print("size? -"); sys.exit()
try:
    import numpy
    d = numpy.abs(numpy.frombuffer(a, numpy.uint8).astype(int) - numpy.frombuffer(b, numpy.uint8))
    print(int(d.max()), "%.4f%%" % (100.0 * numpy.count_nonzero(d) / len(d)))
except ImportError:
    diff = [abs(x - y) for x, y in zip(a, b)]
    print(max(diff), "%.4f%%" % (100.0 * sum(1 for d in diff if d) / len(diff)))
PY
}
# Seconds since $1 (a `date +%s.%N`).
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}'; }
