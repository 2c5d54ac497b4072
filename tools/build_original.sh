#!/usr/bin/env bash
# Builds the original Splotch (github.com/splotchviz/splotch, Splotch6-generic) so that `make
# bench` can time it beside splotch in the same command (tests/bench/bench.sh: ORIGINAL=...,
# ORIGINAL_CUDA=...). Its source is not part of this project (GPL): give a checkout of it.
#
#   tools/build_original.sh SOURCE_DIR [cpu|cuda|all]     # into build/original/cpu, .../cuda
#
# The original's Makefile is left as it is: its SYSTYPE "generic" block (-O0 -g, no OpenMP, sm_30)
# is overridden from the make command line: -O3 and -march=native as we build, OpenMP, no MPI, no
# HDF5; the CUDA variant (its OPT += -DCUDA) for sm_90 with C++17 (CUDA 13's Thrust wants it). CUDA
# 13 removed two cudaDeviceProp fields that only its device-info printout reads (clockRate,
# deviceOverlap): they are named to fields that exist, on the nvcc command line.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: $0 SOURCE_DIR [cpu|cuda|all] (a checkout of github.com/splotchviz/splotch)}
what=${2:-all}
[ -f "$src/Makefile" ] && [ -d "$src/splotch" ] || { echo "$0: $src is not the original Splotch's source" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
jobs=${JOBS:-$(nproc)}

copy() {  # the source without its .git and sample data
  rm -rf "build/original/$1"
  mkdir -p "build/original/$1"
  tar -C "$src" --exclude=.git --exclude=./data -cf - . | tar -C "build/original/$1" -xf -
}
build() {
  copy "$1"
  shift
  (cd "build/original/$variant" && make -j"$jobs" OMP=-fopenmp "$@") >"build/original/$variant.log" 2>&1 ||
    { echo "$0: the original's $variant build failed; see build/original/$variant.log" >&2; exit 1; }
  echo "built build/original/$variant/Splotch6-generic"
}
if [ "$what" = cpu ] || [ "$what" = all ]; then
  variant=cpu build cpu OPTIMIZE="-O3 -march=native -std=c++11"
fi
if [ "$what" = cuda ] || [ "$what" = all ]; then
  arch="-arch=sm_90"
  variant=cuda build cuda OPT=-DCUDA OPTIMIZE="-O3 -march=native -std=c++17" NVCC="$NVCC" NVCCARCH="$arch" \
    NVCCFLAGS="$arch -dc -std=c++17 -DclockRate=major -DdeviceOverlap=asyncEngineCount" CUDA_HOME="$CUDA_HOME" \
    LIB_OPT="-L$CUDA_HOME/lib64 -lcudart_static -ldl -lrt -lpthread"
fi
