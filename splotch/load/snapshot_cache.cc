#include "splotch/load/snapshot_cache.h"

#include <new>
#include <stdexcept>

#include "params/number_text.h"

namespace splotch {

std::string snapshot_signature(const std::string& input_keys, const std::vector<TypeNormalization>& normalization) {
  std::string out = input_keys;
  auto value = [&](const std::optional<float>& v) { out += v ? " " + number_text(*v) : " -"; };
  for (const TypeNormalization& t : normalization) {
    out += "\n" + std::to_string(t.color_log) + std::to_string(t.color_asinh) + std::to_string(t.intensity_log) +
           std::to_string(t.vector_colour);
    value(t.color_min);
    value(t.color_max);
    value(t.intensity_min);
    value(t.intensity_max);
  }
  return out;
}

SnapshotCache::~SnapshotCache() {
  if (ahead_.valid()) ahead_.wait();
}

const LoadedSnapshot* SnapshotCache::kept(const std::string& signature) const {
  for (const Kept& k : kept_)
    if (k.signature == signature) return &k.loaded;
  return nullptr;
}

std::vector<const LoadedSnapshot*> SnapshotCache::all_kept() const {
  std::vector<const LoadedSnapshot*> all;
  for (const Kept& k : kept_) all.push_back(&k.loaded);
  return all;
}

const LoadedSnapshot& SnapshotCache::keep(std::string signature, LoadedSnapshot loaded, const std::string& beside) {
  clear(beside);
  kept_.push_back({std::move(signature), std::move(loaded)});
  return kept_.back().loaded;
}

void SnapshotCache::clear(const std::string& beside) {
  // From the ends only, so that the one beside stays in place (callers hold it).
  while (!kept_.empty() && (beside.empty() || kept_.front().signature != beside)) kept_.pop_front();
  while (!kept_.empty() && (beside.empty() || kept_.back().signature != beside)) kept_.pop_back();
  if (!match_first_.empty() && (!kept(match_first_) || !kept(match_second_))) {
    match_first_.clear();
    match_second_.clear();
    match_ = SnapshotMatch();
  }
}

const SnapshotMatch& SnapshotCache::match(const std::string& first, const std::string& second) {
  if (first == match_first_ && second == match_second_) return match_;
  const LoadedSnapshot *a = kept(first), *b = kept(second);
  if (!a || !b) throw std::logic_error("SnapshotCache::match: a snapshot of the pair is not kept");
  match_ = match_snapshots(a->particles, b->particles);
  match_first_ = first;
  match_second_ = second;
  return match_;
}

void SnapshotCache::read_ahead(std::string signature, SnapshotRequest input,
                               std::vector<TypeNormalization> normalization) {
  if (ahead_.valid()) return;
  ahead_signature_ = std::move(signature);
  ahead_ = std::async(std::launch::async, [input = std::move(input), normalization = std::move(normalization)] {
    // With as many threads as the frame that renders meanwhile: the two share the cores while
    // both run, and the read has them all once the frame is done. On the 16-core node, half the
    // threads made frames whose snapshot needed the nearest-neighbour smoothing lengths 1.4
    // times slower than reading in turn, all of them as fast; cold reads gained 1.3-1.4x either way.
    Console holding{Console::Holding{}};
    Ahead a;
    try {
      a.loaded = load_snapshot(input, normalization, holding);
    } catch (...) {
      a.error = std::current_exception();  // after the warnings that came before it
    }
    a.warnings = holding.held_warnings();
    return a;
  });
}

const LoadedSnapshot* SnapshotCache::take_read_ahead(const std::string& signature, Console& console,
                                                     const std::string& beside) {
  if (!ahead_.valid()) return nullptr;
  if (!beside.empty() && ahead_signature_ == beside) return nullptr;  // the frame's other snapshot: taken next
  if (signature != ahead_signature_) {
    ahead_.wait();
    ahead_ = std::future<Ahead>();
    return nullptr;
  }
  clear(beside);
  std::future<Ahead> ahead = std::move(ahead_);
  Ahead a = ahead.get();
  if (a.error) {
    try {
      std::rethrow_exception(a.error);
    } catch (const std::bad_alloc&) {
      return nullptr;  // read again now, with the memory the kept snapshot held
    } catch (...) {
      for (const std::string& w : a.warnings) console.warning(w);
      throw;
    }
  }
  for (const std::string& w : a.warnings) console.warning(w);
  return &keep(signature, std::move(a.loaded), beside);
}

}  // namespace splotch
