// A stable, parallel counting sort into buckets: each thread takes one contiguous share of the
// items, counts what goes into each bucket, and after a prefix sum over (bucket, thread) writes
// its items to their final positions. Items keep their order within a bucket, whatever the
// number of threads. Used to list splats per image tile and to order splats by tile.
//
//   for_each_bucket(i, visit): calls visit(bucket) for each bucket item i belongs to (any number)
//   prepare(total):           called once the output size is known, before any place()
//   place(i, position):       item i goes to `position` of the output
// Returns the start of each bucket in the output (buckets + 1 entries).
#pragma once

#include <omp.h>

#include <cstddef>
#include <vector>

namespace splotch {

template <class ForEachBucket, class Prepare, class Place>
std::vector<std::size_t> bucket_sort(std::size_t n, int buckets, ForEachBucket for_each_bucket, Prepare prepare,
                                     Place place) {
  const int nthreads = omp_get_max_threads();
  const std::size_t nb = std::size_t(buckets);
  std::vector<std::size_t> next(std::size_t(nthreads) * nb, 0);  // [thread][bucket]
  auto share = [&](int t, std::size_t& lo, std::size_t& hi) {
    lo = n * std::size_t(t) / std::size_t(nthreads);
    hi = n * std::size_t(t + 1) / std::size_t(nthreads);
  };
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    share(t, lo, hi);
    std::size_t* count = &next[std::size_t(t) * nb];
    for (std::size_t i = lo; i < hi; ++i) for_each_bucket(i, [&](int b) { ++count[b]; });
  }
  std::vector<std::size_t> start(nb + 1, 0);
  std::size_t total = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    start[b] = total;
    for (int t = 0; t < nthreads; ++t) {
      std::size_t& c = next[std::size_t(t) * nb + b];
      const std::size_t here = c;
      c = total;  // from now on: where this thread's next item of bucket b goes
      total += here;
    }
  }
  start[nb] = total;
  prepare(total);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    std::size_t lo, hi;
    share(t, lo, hi);
    std::size_t* position = &next[std::size_t(t) * nb];
    for (std::size_t i = lo; i < hi; ++i) for_each_bucket(i, [&](int b) { place(i, position[b]++); });
  }
  return start;
}

}  // namespace splotch
