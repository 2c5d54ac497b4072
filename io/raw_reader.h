// Readers for the raw float32 layouts of the original Splotch (simtype 0 and 1):
//   table  (simtype 0): one record of `num_fields` floats per particle;
//   blocks (simtype 1): `num_fields` blocks, each holding one field for every particle.
// The particle count is the file size divided by 4 * num_fields; a size that is not a multiple is
// an error (the original silently dropped the tail). Fields the render does not need are not read.
#pragma once

#include <string>

#include "io/particle_set.h"
#include "io/progress.h"
#include "io/read_share.h"

namespace splotch {

struct RawOptions {
  enum class Layout { table, blocks };
  Layout layout = Layout::table;
  int num_fields = 0;
  // 0-based field index of each quantity; -1 when absent.
  int x = 0, y = 1, z = 2;
  int hsml = -1;                  // absent: hsml = smooth_factor
  int intensity = -1;             // absent: I = intensity_absent
  float intensity_absent = 0.5f;  // the original's; a map's amount per particle, 1
  int colour[3] = {-1, -1, -1};   // absent: colour[0] = 1, colour[1..2] = 0
  bool vector_colour = false;     // read colour[1] and colour[2] as well
  bool swap_endian = true;        // the original's default for raw files
  float smooth_factor = 1.0f;     // multiplies the hsml field
  ReadShare share;                // an MPI process's slice of the particles
};

ParticleSet read_raw(const std::string& path, const RawOptions& options, const ProgressCallback& progress = {});

}  // namespace splotch
