// What the reader fuzzing harnesses (tests/fuzz/fuzz_*.cc) share: a snapshot file per process,
// the requests a render might make, and the rule that a read ends in particles or a UserError.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/gadget_reader.h"

namespace splotch::fuzzing {

// Per process: parallel fuzzing jobs (-jobs, -fork) must not share the files.
inline const std::string& snapshot_path(const char* reader) {
  static const std::string path = "/dev/shm/fuzz_" + std::string(reader) + "_" + std::to_string(::getpid());
  return path;
}

inline void write(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
}

inline RenderTypeRequest request(int type, float size_fix, const char* size, const char* colour, const char* intensity,
                                 bool vector_colour = false, std::optional<unsigned> present = std::nullopt,
                                 SizeEstimate estimate = SizeEstimate::none) {
  RenderTypeRequest r;
  r.file_type = type;
  r.size_fix = size_fix;
  r.size.label = size;
  r.colour = {colour, 1.0f, present};
  r.intensity.label = intensity;
  r.vector_colour = vector_colour;
  r.size_estimate = estimate;
  return r;
}

// Each request read from `path` with the byte order detected, forced on and forced off; the
// particles must come with every array of one length, or the read must end in a UserError.
template <class Read>
void try_reads(Read&& read, const std::string& path, const std::vector<std::vector<RenderTypeRequest>>& requests) {
  for (std::optional<bool> swap : {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)})
    for (const auto& types : requests) {
      TypedSnapshotRequest o;
      o.files = {path};
      o.swap_endian = swap;
      o.types = types;
      try {
        const ParticleSet p = read(o);
        if (p.x.size() != p.hsml.size() || p.x.size() != p.colour[0].size() || p.x.size() != p.intensity.size())
          std::abort();
      } catch (const UserError&) {}
    }
}

// LLVMFuzzerInitialize's work: `-write_seeds=DIR` writes seeds and exits; else `remove` deletes
// the per-process files at exit. The caller's snapshot_path() is built as the argument, before
// `remove` is registered, so that the name outlives remove's call.
inline int initialize(int* argc, char*** argv, void (*write_seeds)(const std::string&),
                      [[maybe_unused]] const std::string& snapshot_path, void (*remove)()) {
  for (int i = 1; i < *argc; ++i)
    if (std::string((*argv)[i]).rfind("-write_seeds=", 0) == 0) {
      write_seeds((*argv)[i] + 13);
      std::exit(0);
    }
  std::atexit(remove);
  return 0;
}

}  // namespace splotch::fuzzing
