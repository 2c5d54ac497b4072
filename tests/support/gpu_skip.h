// GPU test cases are declared `TEST_CASE("..." * doctest::skip(testing::no_gpu()))`: where no GPU
// can be used (no device, no driver, a build without CUDA) they do not run, doctest counts them as
// skipped in its summary, and the reason is printed once, when the cases are registered. On a
// machine with a GPU they run for real.
#pragma once

#include <cstdio>
#include <string>

#include "splotch/render/gpu_render.h"

namespace splotch::testing {

inline bool no_gpu() {
  static const bool absent = [] {
    std::string why;
    if (cuda_device_present(&why)) return false;
    std::fprintf(stderr, "[splotch tests] the GPU test cases are skipped (counted as skipped below): %s\n",
                 why.c_str());
    return true;
  }();
  return absent;
}

}  // namespace splotch::testing
