#include "io/read_plan.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <numeric>

#include "errors/user_error.h"
#include "io/first_error.h"
#include "io/read_ahead.h"

namespace splotch {

void run_read_plan(const ReadPlan& plan, const ProgressCallback& progress) {
  for (const Fill& f : plan.fills) {
    const long count = long(f.count);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; ++i) f.target[i] = f.value;
  }
  std::vector<ReadAhead::Range> ranges;
  for (const BlockCopy& c : plan.copies) ranges.push_back({c.file, c.offset, c.bytes()});
  ReadAhead ahead(std::move(ranges));
  const long jobs = long(plan.jobs.size()), shared = jobs + long(plan.copies.size());
  const long all = shared + long(plan.library_reads.size());
  std::atomic<long> done{0};
  FirstError error;
  auto report = [&] {
    const long now = ++done;
    if (progress && omp_get_thread_num() == 0) progress(double(now) / double(all));
  };
#pragma omp parallel
  {
#pragma omp single nowait
    for (const auto& read : plan.library_reads)
      error.run([&] {
        read();
        report();
      });
    std::vector<unsigned char> buffer;
#pragma omp for schedule(dynamic, 1) nowait
    for (long k = 0; k < shared; ++k)
      error.run([&] {
        if (k < jobs)
          plan.jobs[std::size_t(k)]();
        else {
          ahead.reading(std::size_t(k - jobs));
          run_block_copy(plan.copies[std::size_t(k - jobs)], buffer);
        }
        report();
      });
  }
  error.rethrow_if_any();
  // Thread 0 may have had no piece of its own (few pieces, many threads): the end is reported
  // here in any case.
  if (progress) progress(1.0);
  for (const auto& f : plan.finish) f();
}

ParticleSet allocate_particles(const std::vector<std::size_t>& first, const std::vector<RenderTypeRequest>& types,
                               ReadPlan& plan) {
  const std::size_t total = first.back();
  ParticleSet p;
  for (ParticleArray<float>* a : {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0]}) a->resize(total);
  if (std::any_of(types.begin(), types.end(), [](const RenderTypeRequest& r) { return r.vector_colour; })) {
    p.colour[1].resize(total);
    p.colour[2].resize(total);
    for (std::size_t n = 0; n < types.size(); ++n)
      if (!types[n].vector_colour)
        for (int j : {1, 2}) plan.fills.push_back({p.colour[j].data() + first[n], first[n + 1] - first[n], 0.0f});
  }
  const int motion = std::accumulate(types.begin(), types.end(), 0,
                                     [](int m, const RenderTypeRequest& r) { return std::max(m, r.motion); });
  if (motion > 0) p.id.resize(total);
  if (motion > 1)
    for (ParticleArray<float>* a : {&p.vx, &p.vy, &p.vz}) a->resize(total);
  if (types.size() > 1) {
    p.type.resize(total);
    for (std::size_t n = 0; n < types.size(); ++n)
      std::fill(p.type.begin() + std::ptrdiff_t(first[n]), p.type.begin() + std::ptrdiff_t(first[n + 1]),
                std::uint8_t(n));
  }
  return p;
}

std::vector<std::size_t> render_type_starts(const std::vector<RenderTypeRequest>& types, const ShareRanges& ranges) {
  std::vector<std::size_t> first(types.size() + 1, 0);
  for (std::size_t n = 0; n < types.size(); ++n) first[n + 1] = first[n] + (ranges[n].second - ranges[n].first);
  return first;
}

}  // namespace splotch
