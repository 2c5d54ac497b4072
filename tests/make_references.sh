#!/usr/bin/env bash
# Writes the reference images of the end-to-end tests (make references). Run it only when a
# change of the picture is intended, look at the new images, and say why in the commit.
# The control image is the first case rendered with fov one degree wider: the comparison in the
# test must reject it, which shows that the tolerance is tight enough to see a real change.
set -euo pipefail
cd "$(dirname "$0")/.."
work=build/references
mkdir -p "$work" testdata/reference
grep -v '^#' tests/end_to_end/e2e_cases.sh | while read -r name args; do
  # shellcheck disable=SC2086
  bin/make_demo --out "$work/$name.bin" $args >/dev/null
  bin/splotch --quiet "testdata/e2e/$name.par" infile="$work/$name.bin" outfile="testdata/reference/$name.png"
  rm -f "testdata/reference/$name.png.used.par"
  echo "wrote testdata/reference/$name.png"
done
bin/splotch --quiet testdata/e2e/scalar_colorbar.par infile="$work/scalar_colorbar.bin" fov=56 \
  outfile=testdata/reference/control_scalar_colorbar_fov56.png
rm -f testdata/reference/control_scalar_colorbar_fov56.png.used.par
echo "wrote testdata/reference/control_scalar_colorbar_fov56.png"
