#include "splotch/frame/gpu_split.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "splotch/frame/run_report.h"

namespace splotch {

KeyCounts gpu_key_counts(DeviceParticles& particles, const DeviceView& view, std::string& failure) {
  return [&particles, view, &failure](int above, int shift, const std::vector<std::uint32_t>& prefixes) {
    constexpr std::uint32_t digits = 2048;
    std::vector<std::uint64_t> out;
    try {
      out.assign(prefixes.size() * digits, 0);
      if (!failure.empty()) return out;
      // Bins of the keys with each prefix, from its first key on: the first bin's digit is that
      // key's (the prefix's low bit where fewer than 11 bits are left below it, as the host counts).
      for (std::size_t row = 0; row < prefixes.size(); ++row) {
        const std::uint32_t lo = above >= 32 ? 0 : prefixes[row] << above;
        const std::uint32_t bins = std::uint32_t(1) << (std::min(above, 32) - shift);
        const std::vector<std::uint64_t> h = count_draw_keys(particles, view, lo, shift, bins);
        const std::uint32_t first_digit = lo >> shift;
        for (std::uint32_t b = 0; b < bins; ++b) out[row * digits + ((first_digit + b) & (digits - 1))] += h[b];
      }
    } catch (const std::exception& e) {
      if (failure.empty()) failure = e.what();
      out.assign(prefixes.size() * digits, 0);  // (what the others sum with theirs)
    }
    return out;
  };
}

namespace {

// Every process's share, as each passed it.
std::vector<SplitShare> shares_of(const Comm& comm, const SplitShare& mine, std::size_t types) {
  const std::size_t processes = std::size_t(comm.size());
  const std::vector<std::uint64_t> words = comm.gather_all(mine.words());
  std::vector<SplitShare> shares;
  const std::size_t each = SplitShare::word_count(processes, types);
  for (std::size_t p = 0; p < processes; ++p)
    shares.push_back(SplitShare::from_words(words.data() + p * each, processes, types));
  return shares;
}

// The GPU memory the processes drawing on this process's GPU take to gather their ranges.
std::size_t gathers_on_this_gpu(const Comm& comm, const std::vector<SplitShare>& shares, int width, int height) {
  const std::vector<std::uint64_t> gpus =
      comm.gather_all({std::uint64_t(comm.node_id()), std::uint64_t(comm.gpu_index())});
  const std::size_t processes = shares.size(), types = shares[0].count.size() / processes;
  const std::size_t me = std::size_t(comm.rank());
  std::size_t bytes = 0;
  for (std::size_t q = 0; q < processes; ++q) {
    if (gpus[2 * q] != gpus[2 * me] || gpus[2 * q + 1] != gpus[2 * me + 1]) continue;
    std::size_t range = 0;
    for (const SplitShare& s : shares)
      for (std::size_t t = 0; t < types; ++t) range += s.count[q * types + t];
    bytes += split_gather_bytes(range, width, height);
  }
  return bytes;
}

}  // namespace

bool gpus_may_split(const Comm& comm, SortOrder sort) {
  return comm.size() > 1 && comm.node_size() == comm.size() && sort != SortOrder::none;
}

CudaReport render_gpu_split(DeviceParticles& particles, const DeviceView& view, const CudaOptions& options,
                            const Comm& comm, int width, int height, float* layer,
                            std::vector<std::pair<std::string, double>>& parts) {
  auto since = [last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(last, now)).count();
  };
  const std::string what = "splitting the draw order on the GPUs";
  try {
    // The ranges. A process whose counting fails counts nothing more and says so after the
    // search, whose collective steps every process takes.
    std::string failure;
    const std::vector<std::uint32_t> splitters = key_splitters(gpu_key_counts(particles, view, failure), comm);
    agreed(&comm, what, [&] {
      if (!failure.empty()) throw std::runtime_error(failure);
    });
    const double ranges = since();

    // The ranges' copies stay until every process has drawn its range.
    struct EndSplit {
      DeviceParticles& particles;
      ~EndSplit() {
        try {
          end_split(particles);
        } catch (...) {  // (a GPU failing here fails the next step too, which says so)
        }
      }
    } end{particles};
    SplitShare mine;
    agreed(&comm, what, [&] { mine = write_split(particles, view, width, height, splitters); });
    // Each range another process draws in an allocation of its own, where the GPU keeps room for
    // the gathers of the processes drawing on it (their ranges' sizes from every share's counts).
    const std::size_t types = std::max<std::size_t>(1, view.types.size());
    const std::size_t keep_free = gathers_on_this_gpu(comm, shares_of(comm, mine, types), width, height);
    agreed(&comm, what, [&] { copy_split_ranges(particles, mine, std::size_t(comm.rank()), keep_free); });
    const std::vector<SplitShare> shares = shares_of(comm, mine, types);
    const double writing = since();

    // Every process's splats stay where they are until all have gathered theirs: agreed() waits
    // for all.
    CudaReport report;
    SplitDrawTimes t;
    agreed(&comm, what, [&] {
      report = draw_split(particles, view, options, shares, std::size_t(comm.rank()), width, height, layer, &t);
    });
    const double all = since();
    // (The parts only of a split that drew: one that failed is drawn again through the host's.)
    add_seconds(parts, "ranges", ranges);
    add_seconds(parts, "writing", writing);
    add_seconds(parts, "opening", t.opening);
    add_seconds(parts, "passing", t.passing);
    add_seconds(parts, "drawing", t.drawing);
    add_seconds(parts, "fetching", t.fetching);
    add_seconds(parts, "waiting", std::max(0.0, all - t.opening - t.passing - t.drawing - t.fetching));
    report.geometry_seconds = ranges + writing;  // (projected and coloured on the GPU twice: to count and to write)
    return report;
  } catch (const AgreedError& e) {
    // Not the user's to mend: the caller draws the view through the host's stages.
    throw std::runtime_error(e.what());
  }
}

}  // namespace splotch
