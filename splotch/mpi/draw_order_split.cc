#include "splotch/mpi/draw_order_split.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
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

std::vector<std::uint64_t> count_keys(const std::uint32_t* keys, std::size_t n, int above, int digit_shift,
                                      const std::vector<std::uint32_t>& prefixes) {
  const std::size_t rows = prefixes.size();
  std::vector<std::uint64_t> counts(rows * digits, 0);
#pragma omp parallel
  {
    std::vector<std::uint64_t> mine(rows * digits, 0);
#pragma omp for schedule(static) nowait
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t key = keys[i];
      std::size_t row = 0;
      if (above < 32) {
        const std::uint32_t prefix = key >> above;
        const auto at = std::lower_bound(prefixes.begin(), prefixes.end(), prefix);
        if (at == prefixes.end() || *at != prefix) continue;
        row = std::size_t(at - prefixes.begin());
      }
      ++mine[row * digits + ((key >> digit_shift) & (digits - 1))];
    }
#pragma omp critical
    for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += mine[k];
  }
  return counts;
}

std::vector<std::uint32_t> key_splitters(const std::uint32_t* keys, std::size_t n, const Comm& comm) {
  return key_splitters(
      [&](int above, int shift, const std::vector<std::uint32_t>& prefixes) {
        return count_keys(keys, n, above, shift, prefixes);
      },
      comm);
}

std::vector<std::uint32_t> key_splitters(const KeyCounts& count, const Comm& comm) {
  const std::size_t boundaries = std::size_t(comm.size() - 1);
  // For boundary q (before process q + 1): the keys wanted below it (once the first counts, of
  // every key, give the total), the bits found so far, and how many keys lie below those bits' range.
  std::vector<std::uint64_t> wanted(boundaries), below(boundaries, 0);
  std::vector<std::uint32_t> value(boundaries, 0);
  for (int level = 0; level < levels; ++level) {
    std::vector<std::uint32_t> prefixes;
    if (level > 0) {
      for (std::uint32_t v : value) prefixes.push_back(v >> shift[level - 1]);
      std::sort(prefixes.begin(), prefixes.end());
      prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    } else {
      prefixes.push_back(0);
    }
    std::vector<std::uint64_t> counts = count(level == 0 ? 32 : shift[level - 1], shift[level], prefixes);
    if (counts.size() != prefixes.size() * digits) throw std::logic_error("key_splitters: counts of another shape");
    comm.sum(counts);
    if (level == 0) {
      std::uint64_t total = 0;
      for (std::uint64_t c : counts) total += c;
      for (std::size_t q = 0; q < boundaries; ++q)
        wanted[q] = std::uint64_t((unsigned __int128)(total) * (q + 1) / std::size_t(comm.size()));
    }
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

namespace {

// A splat's record on its way to another process: x, y, radius, e (RGB) and the draw key.
constexpr std::size_t float_fields = 6, record_bytes = (float_fields + 1) * 4;

// The splats of one process and type in the file order of all processes' splats: where they
// start in that order, for each type, and how many splats all processes hold.
struct FileOrder {
  std::vector<std::uint64_t> first;  // [type]
  std::uint64_t total = 0;
};
FileOrder file_order(const std::vector<std::size_t>& per_type, const Comm& comm) {
  const std::size_t processes = std::size_t(comm.size()), rank = std::size_t(comm.rank()), types = per_type.size();
  // Type after type, each process after process.
  const std::vector<std::uint64_t> all = comm.gather_all(std::vector<std::uint64_t>(per_type.begin(), per_type.end()));
  FileOrder f;
  f.first.assign(types, 0);
  for (std::size_t type = 0; type < types; ++type)
    for (std::size_t p = 0; p < processes; ++p) {
      if (p == rank) f.first[type] = f.total;
      f.total += all[p * types + type];
    }
  return f;
}

// The process that draws each splat: by position in the file order (SortOrder::none: process q
// draws positions [total q / processes, total (q + 1) / processes)) or by draw key.
void assign_destinations(const Splats& splats, const std::vector<std::size_t>& per_type, SortOrder order,
                         const Comm& comm, ParticleArray<std::uint32_t>& destination) {
  const std::size_t processes = std::size_t(comm.size());
  if (order == SortOrder::none) {
    const FileOrder f = file_order(per_type, comm);
    std::size_t i = 0;
    for (std::size_t type = 0; type < per_type.size(); ++type)
      for (std::size_t j = 0; j < per_type[type]; ++j, ++i) {
        const unsigned __int128 position = f.first[type] + j;
        destination[i] = std::uint32_t(((position + 1) * processes - 1) / f.total);
      }
    return;
  }
  const std::vector<std::uint32_t> splitters = key_splitters(splats.draw_key.data(), splats.size(), comm);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < splats.size(); ++i)
    destination[i] =
        std::uint32_t(std::upper_bound(splitters.begin(), splitters.end(), splats.draw_key[i]) - splitters.begin());
}

// How many splats of each type go to each process ([process][type]), and how many of each type
// come from each process (sent first, so that the receiver can put them in file order).
struct TypeCounts {
  std::vector<std::uint64_t> sent, came;  // [process][type]
  std::vector<std::size_t> to;            // splats to each process
};
TypeCounts exchange_type_counts(const ParticleArray<std::uint32_t>& destination,
                                const std::vector<std::size_t>& per_type, const Comm& comm) {
  const std::size_t processes = std::size_t(comm.size()), types = per_type.size();
  TypeCounts c;
  c.sent.assign(processes * types, 0);
  for (std::size_t type = 0, i = 0; type < types; ++type)
    for (std::size_t j = 0; j < per_type[type]; ++j, ++i) ++c.sent[destination[i] * types + type];
  c.to.assign(processes, 0);
  for (std::size_t p = 0; p < processes; ++p)
    for (std::size_t type = 0; type < types; ++type) c.to[p] += c.sent[p * types + type];
  std::vector<std::size_t> from;
  ParticleArray<char> out(processes * types * 8);
  std::memcpy(out.data(), c.sent.data(), out.size());
  const ParticleArray<char> in = comm.exchange(out, std::vector<std::size_t>(processes, 1), types * 8, from);
  c.came.resize(processes * types);
  std::memcpy(c.came.data(), in.data(), c.came.size() * 8);
  return c;
}

// The splats' records grouped by destination, each group in this process's order (type after
// type). Each thread packs a contiguous part of the splats; its records for process q follow
// those of the threads before it, so every group keeps this process's order.
void pack_records(const Splats& splats, const ParticleArray<std::uint32_t>& destination, std::size_t processes,
                  SortOrder order, ParticleArray<char>& records) {
  const std::uint32_t no_key = 0;
  const float* field[float_fields] = {splats.x.data(),         splats.y.data(),         splats.radius.data(),
                                      splats.colour[0].data(), splats.colour[1].data(), splats.colour[2].data()};
  const std::size_t count = splats.size();
  std::vector<std::size_t> at;  // [thread][process]: where the thread's next record for the process goes
#pragma omp parallel
  {
    const std::size_t threads = std::size_t(omp_get_num_threads()), thread = std::size_t(omp_get_thread_num());
#pragma omp single
    at.assign(threads * processes, 0);
    const std::size_t lo = count * thread / threads, hi = count * (thread + 1) / threads;
    for (std::size_t i = lo; i < hi; ++i) ++at[thread * processes + destination[i]];
#pragma omp barrier
#pragma omp single
    {
      std::size_t next = 0;
      for (std::size_t p = 0; p < processes; ++p)
        for (std::size_t u = 0; u < threads; ++u) next += std::exchange(at[u * processes + p], next);
    }
    for (std::size_t i = lo; i < hi; ++i) {
      char* record = records.data() + record_bytes * at[thread * processes + destination[i]]++;
      for (std::size_t f = 0; f < float_fields; ++f) std::memcpy(record + 4 * f, field[f] + i, 4);
      std::memcpy(record + 4 * float_fields, order == SortOrder::none ? &no_key : &splats.draw_key[i], 4);
    }
  }
}

// The records received (`from[p]` of them from process p, each process's type after type) as
// splats in file order: type after type, each from process after process. SortOrder::none: the
// draw key is the position in that order.
Splats unpack_in_file_order(const ParticleArray<char>& received, const std::vector<std::size_t>& from,
                            const std::vector<std::uint64_t>& came, std::size_t types, SortOrder order) {
  const std::size_t processes = from.size(), count = received.size() / record_bytes;
  if (count > 0xffffffffu) throw std::runtime_error("more than 2^32 particles in one process: use more processes");
  Splats out;
  for (auto* v : {&out.x, &out.y, &out.radius, &out.colour[0], &out.colour[1], &out.colour[2]}) v->resize(count);
  out.draw_key.resize(count);
  // Each block (type, process): where its records are, and where its splats go.
  std::vector<std::size_t> source(processes * types), target(processes * types);  // [type][process]
  {
    std::size_t segment = 0, placed = 0;
    std::vector<std::size_t> segment_of(processes);
    for (std::size_t p = 0; p < processes; ++p) {
      segment_of[p] = segment;
      segment += from[p];
    }
    for (std::size_t type = 0; type < types; ++type)
      for (std::size_t p = 0; p < processes; ++p) {
        std::size_t within = 0;
        for (std::size_t u = 0; u < type; ++u) within += came[p * types + u];
        source[type * processes + p] = segment_of[p] + within;
        target[type * processes + p] = placed;
        placed += came[p * types + type];
      }
  }
  float* into[float_fields] = {out.x.data(),         out.y.data(),         out.radius.data(),
                               out.colour[0].data(), out.colour[1].data(), out.colour[2].data()};
  for (std::size_t block = 0; block < processes * types; ++block) {
    const std::size_t type = block / processes, p = block % processes;
#pragma omp parallel for schedule(static)
    for (std::size_t j = 0; j < came[p * types + type]; ++j) {
      const char* record = received.data() + record_bytes * (source[block] + j);
      const std::size_t i = target[block] + j;
      for (std::size_t f = 0; f < float_fields; ++f) std::memcpy(into[f] + i, record + 4 * f, 4);
      if (order == SortOrder::none)
        out.draw_key[i] = std::uint32_t(i);
      else
        std::memcpy(&out.draw_key[i], record + 4 * float_fields, 4);
    }
  }
  return out;
}

}  // namespace

SplitTimes split_draw_order(Splats& splats, const std::vector<std::size_t>& per_type, SortOrder order,
                            const Comm& comm) {
  SplitTimes times;
  auto since = [last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(last, now)).count();
  };
  const std::size_t processes = std::size_t(comm.size());
  // The destinations and records are allocated before anything is passed, so that a process
  // short of memory says so to all.
  ParticleArray<std::uint32_t> destination;
  ParticleArray<char> records;  // not zero-filled: all of it is written
  agreed(&comm, "passing its splats to other processes", [&] {
    destination.resize(splats.size());
    records.resize(splats.size() * record_bytes);
  });
  assign_destinations(splats, per_type, order, comm, destination);
  const TypeCounts counts = exchange_type_counts(destination, per_type, comm);
  times.ranges = since();
  pack_records(splats, destination, processes, order, records);
  splats = Splats();  // all in the records now: the memory back before what comes
  times.packing = since();
  std::vector<std::size_t> from;
  const ParticleArray<char> received = comm.exchange(records, counts.to, record_bytes, from);
  ParticleArray<char>().swap(records);
  times.passing = since();
  splats = unpack_in_file_order(received, from, counts.came, per_type.size(), order);
  times.unpacking = since();
  return times;
}

}  // namespace splotch
