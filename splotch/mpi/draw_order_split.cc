#include "splotch/mpi/draw_order_split.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace splotch {
namespace {

// The key's bits are found 11, 11 and 10 at a time: histograms of 2048 counts per range boundary.
constexpr int levels = 3;
constexpr int shift[levels] = {21, 10, 0};
constexpr std::uint32_t digits = 2048;

// Counts, for every prefix in `prefixes` (sorted, distinct; the key's bits above shift[level]),
// how many keys with that prefix have each digit at `level`: prefixes.size() x digits, summed
// over all processes.
std::vector<std::uint64_t> histograms(const std::uint32_t* keys, std::size_t n, int level,
                                      const std::vector<std::uint32_t>& prefixes, const Comm& comm) {
  const std::size_t rows = prefixes.size();
  std::vector<std::uint64_t> counts(rows * digits, 0);
  const int above = level == 0 ? 32 : shift[level - 1];
#pragma omp parallel
  {
    std::vector<std::uint64_t> mine(rows * digits, 0);
#pragma omp for schedule(static) nowait
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t key = keys[i];
      std::size_t row = 0;
      if (level > 0) {
        const std::uint32_t prefix = key >> above;
        const auto at = std::lower_bound(prefixes.begin(), prefixes.end(), prefix);
        if (at == prefixes.end() || *at != prefix) continue;
        row = std::size_t(at - prefixes.begin());
      }
      ++mine[row * digits + ((key >> shift[level]) & (digits - 1))];
    }
#pragma omp critical
    for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += mine[k];
  }
  comm.sum(counts);
  return counts;
}

}  // namespace

std::vector<std::size_t> splats_per_type(const Splats& s, int types) {
  std::vector<std::size_t> count(std::size_t(std::max(types, 1)), 0);
  if (s.type.empty()) {
    count[0] = s.size();
    return count;
  }
  // The splats are in type order: the runs' ends, by binary search.
  for (int t = 0; t < types; ++t)
    count[std::size_t(t)] = std::size_t(std::upper_bound(s.type.begin(), s.type.end(), std::uint8_t(t)) -
                                        std::lower_bound(s.type.begin(), s.type.end(), std::uint8_t(t)));
  return count;
}

std::vector<std::uint32_t> key_splitters(const std::uint32_t* keys, std::size_t n, const Comm& comm) {
  const std::size_t boundaries = std::size_t(comm.size() - 1);
  const std::uint64_t total = comm.sum(std::uint64_t(n));
  // For boundary q (before process q + 1): the keys wanted below it, the bits found so far, and
  // how many keys lie below those bits' range.
  std::vector<std::uint64_t> wanted(boundaries), below(boundaries, 0);
  std::vector<std::uint32_t> value(boundaries, 0);
  for (std::size_t q = 0; q < boundaries; ++q)
    wanted[q] = std::uint64_t((unsigned __int128)(total) * (q + 1) / std::size_t(comm.size()));
  for (int level = 0; level < levels; ++level) {
    std::vector<std::uint32_t> prefixes;
    if (level > 0) {
      for (std::uint32_t v : value) prefixes.push_back(v >> shift[level - 1]);
      std::sort(prefixes.begin(), prefixes.end());
      prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    } else {
      prefixes.push_back(0);
    }
    const std::vector<std::uint64_t> counts = histograms(keys, n, level, prefixes, comm);
    for (std::size_t q = 0; q < boundaries; ++q) {
      const std::size_t row =
          level == 0 ? 0
                     : std::size_t(std::lower_bound(prefixes.begin(), prefixes.end(), value[q] >> shift[level - 1]) -
                                   prefixes.begin());
      // The digit whose keys hold the wanted-th key (the last digit when none is left to hold it).
      std::uint32_t d = 0;
      while (d + 1 < digits && below[q] + counts[row * digits + d] <= wanted[q]) below[q] += counts[row * digits + d++];
      value[q] |= d << shift[level];
    }
  }
  return value;
}

void split_draw_order(Splats& s, const std::vector<std::size_t>& per_type, SortOrder order, const Comm& comm) {
  const std::size_t K = std::size_t(comm.size()), me = std::size_t(comm.rank()), T = per_type.size();
  const std::size_t n = s.size();
  // Positions in file order: type t of every process, process after process.
  const std::vector<std::uint64_t> all = comm.gather_all(std::vector<std::uint64_t>(per_type.begin(), per_type.end()));
  std::vector<std::uint64_t> first(T, 0);  // this process's first splat of each type
  std::uint64_t total = 0;
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t r = 0; r < K; ++r) {
      if (r == me) first[t] = total;
      total += all[r * T + t];
    }
  // The process drawing each splat: by position (file order) or by key. The records to send are
  // allocated before anything is passed, so that a process short of memory says so to all.
  constexpr std::size_t fields = 7, record = fields * 4;
  ParticleArray<std::uint32_t> to;
  ParticleArray<char> send;  // not zero-filled: all of it is written
  agreed(&comm, "passing its splats to other processes", [&] {
    to.resize(n);
    send.resize(n * record);
  });
  if (order == SortOrder::none) {
    // Process q draws positions [total q / K, total (q + 1) / K).
    std::size_t i = 0;
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t j = 0; j < per_type[t]; ++j, ++i) {
        const unsigned __int128 g = first[t] + j;
        to[i] = std::uint32_t(((g + 1) * K - 1) / total);
      }
  } else {
    const std::vector<std::uint32_t> splitters = key_splitters(s.draw_key.data(), n, comm);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i)
      to[i] = std::uint32_t(std::upper_bound(splitters.begin(), splitters.end(), s.draw_key[i]) - splitters.begin());
  }

  // Records of x, y, radius, e (RGB) and the key, grouped by the process they go to, each group in
  // this process's order (type after type). How many of each type go where is sent first.
  std::vector<std::uint64_t> type_count(K * T, 0);  // [process][type]
  for (std::size_t t = 0, i = 0; t < T; ++t)
    for (std::size_t j = 0; j < per_type[t]; ++j, ++i) ++type_count[to[i] * T + t];
  std::vector<std::size_t> count(K, 0);
  for (std::size_t q = 0; q < K; ++q)
    for (std::size_t t = 0; t < T; ++t) count[q] += type_count[q * T + t];
  std::vector<std::size_t> types_from;
  ParticleArray<char> type_counts_out(K * T * 8);
  std::memcpy(type_counts_out.data(), type_count.data(), type_counts_out.size());
  const ParticleArray<char> type_counts_in =
      comm.exchange(type_counts_out, std::vector<std::size_t>(K, 1), T * 8, types_from);
  std::vector<std::uint64_t> came(K * T);  // [process][type]
  std::memcpy(came.data(), type_counts_in.data(), came.size() * 8);

  const std::uint32_t no_key = 0;
  const float* field[fields - 1] = {s.x.data(),         s.y.data(),         s.radius.data(),
                                    s.colour[0].data(), s.colour[1].data(), s.colour[2].data()};
  // Each thread packs a contiguous part of the splats; its records for process q follow those of
  // the threads before it, so every group keeps this process's order.
  std::vector<std::size_t> at;  // [thread][process]
#pragma omp parallel
  {
    const std::size_t threads = std::size_t(omp_get_num_threads()), t = std::size_t(omp_get_thread_num());
#pragma omp single
    at.assign(threads * K, 0);
    const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    for (std::size_t i = lo; i < hi; ++i) ++at[t * K + to[i]];
#pragma omp barrier
#pragma omp single
    {
      std::size_t next = 0;
      for (std::size_t q = 0; q < K; ++q)
        for (std::size_t u = 0; u < threads; ++u) next += std::exchange(at[u * K + q], next);
    }
    for (std::size_t i = lo; i < hi; ++i) {
      char* r = send.data() + record * at[t * K + to[i]]++;
      for (std::size_t f = 0; f + 1 < fields; ++f) std::memcpy(r + 4 * f, field[f] + i, 4);
      std::memcpy(r + 4 * (fields - 1), order == SortOrder::none ? &no_key : &s.draw_key[i], 4);
    }
  }
  s = Splats();  // all in the records now: the memory back before what comes
  std::vector<std::size_t> from;
  const ParticleArray<char> received = comm.exchange(send, count, record, from);
  ParticleArray<char>().swap(send);

  // Into file order: type after type, each from process after process.
  const std::size_t m = received.size() / record;
  if (m > 0xffffffffu) throw std::runtime_error("more than 2^32 particles in one process: use more processes");
  Splats out;
  for (auto* v : {&out.x, &out.y, &out.radius, &out.colour[0], &out.colour[1], &out.colour[2]}) v->resize(m);
  out.draw_key.resize(m);
  std::vector<std::size_t> source(K * T), target(K * T);  // [type][process]: where each block is and goes
  {
    std::size_t segment = 0, placed = 0;
    std::vector<std::size_t> segment_of(K);
    for (std::size_t r = 0; r < K; ++r) {
      segment_of[r] = segment;
      segment += from[r];
    }
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t r = 0; r < K; ++r) {
        std::size_t within = 0;
        for (std::size_t u = 0; u < t; ++u) within += came[r * T + u];
        source[t * K + r] = segment_of[r] + within;
        target[t * K + r] = placed;
        placed += came[r * T + t];
      }
  }
  float* into[fields - 1] = {out.x.data(),         out.y.data(),         out.radius.data(),
                             out.colour[0].data(), out.colour[1].data(), out.colour[2].data()};
  for (std::size_t b = 0; b < K * T; ++b) {
    const std::size_t t = b / K, r = b % K;
#pragma omp parallel for schedule(static)
    for (std::size_t j = 0; j < came[r * T + t]; ++j) {
      const char* rec = received.data() + record * (source[b] + j);
      const std::size_t i = target[b] + j;
      for (std::size_t f = 0; f + 1 < fields; ++f) std::memcpy(into[f] + i, rec + 4 * f, 4);
      if (order == SortOrder::none)
        out.draw_key[i] = std::uint32_t(i);
      else
        std::memcpy(&out.draw_key[i], rec + 4 * (fields - 1), 4);
    }
  }
  s = std::move(out);
}

}  // namespace splotch
