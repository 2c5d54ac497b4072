// What a scene keeps from frame to frame (docs/design.md section 3, scene files): the snapshot of the
// frame before, ready for any camera (both snapshots of a frame interpolated between two), and the
// snapshot of a later frame read in the background while the current frame renders. A snapshot is known by its
// signature: the keys and values that chose and read it, and those of its normalisation; frames with the same signature
// need the same particles.
#pragma once

#include <deque>
#include <exception>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "splotch/load/interpolate_snapshots.h"
#include "splotch/load/snapshot_load.h"
#include "splotch/util/console.h"

namespace splotch {

// `input_keys`: the keys reading the input settings looked up, with their values (as used.par
// lists them).
std::string snapshot_signature(const std::string& input_keys, const std::vector<TypeNormalization>& normalization);

class SnapshotCache {
 public:
  SnapshotCache() = default;
  ~SnapshotCache();  // waits for a read in the background: it cannot be abandoned
  SnapshotCache(const SnapshotCache&) = delete;
  SnapshotCache& operator=(const SnapshotCache&) = delete;

  // The kept snapshot with this signature; else null.
  const LoadedSnapshot* kept(const std::string& signature) const;
  // Every snapshot kept (for a caller to see what memory they hold).
  std::vector<const LoadedSnapshot*> all_kept() const;
  // Keeps `loaded` for later frames, instead of the others kept (but the one with signature
  // `beside`: an interpolated frame's other snapshot, which stays where it is).
  const LoadedSnapshot& keep(std::string signature, LoadedSnapshot loaded, const std::string& beside = "");
  // The kept snapshots' memory back (but that of `beside`).
  void clear(const std::string& beside = "");

  // How the particles of the kept snapshots `first` and `second` match (by ID), worked out once for
  // all the frames between them.
  const SnapshotMatch& match(const std::string& first, const std::string& second);

  // Starts reading `input` in the background (when nothing is read there already).
  void read_ahead(std::string signature, SnapshotRequest input, std::vector<TypeNormalization> normalization);
  // Whether a read in the background is going on or done (and not taken yet).
  bool reading_ahead() const { return ahead_.valid(); }
  // The snapshot read in the background, when it has this signature: waits for the read, keeps it
  // (in place of the one kept before, whose memory goes first), gives its warnings to `console`,
  // and throws its error. Null when there is none for this signature, or when it ran out of
  // memory (then the caller reads it itself, with the kept snapshot's memory back). A read for
  // another signature is waited for and dropped.
  const LoadedSnapshot* take_read_ahead(const std::string& signature, Console& console, const std::string& beside = "");

 private:
  struct Ahead {
    LoadedSnapshot loaded;
    std::vector<std::string> warnings;
    std::exception_ptr error;
  };
  struct Kept {
    std::string signature;
    LoadedSnapshot loaded;
  };
  std::deque<Kept> kept_;                   // one, or an interpolated frame's two (a deque: each stays in place)
  std::string match_first_, match_second_;  // the signatures of the pair `match_` matches
  SnapshotMatch match_;
  std::string ahead_signature_;
  std::future<Ahead> ahead_;
};

}  // namespace splotch
