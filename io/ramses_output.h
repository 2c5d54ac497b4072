// A RAMSES output directory (output_NNNNN/): its info file (CPU count, dimensions, box, time, units),
// the descriptors of its hydro variables and particle fields (new style), or the classic layouts of
// outputs written before them (old style), and the names of its per-CPU files. Text only: the
// binary files are read by io/ramses_reader.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace splotch {

// A field of a descriptor: its name and its kind (d: real8, f: real4, i: int4, l/q: int8, b: int1).
struct RamsesField {
  std::string name;
  char kind = 'd';
};

struct RamsesOutput {
  std::string directory;  // with a trailing '/'
  std::string number;     // "00010"
  std::string info_path;
  std::map<std::string, double> info;  // every "key = number" line of the info file
  int ncpu = 0, ndim = 3, levelmin = 0, levelmax = 0;
  double boxlen = 1, time = 0, aexp = 1, h0 = 0;
  double unit_l = 0, unit_d = 0, unit_t = 0;  // cgs of one code length, density, time; 0: not given
  std::string ordering;
  // The hydro variables by the descriptor (empty: no descriptor, the classic order applies).
  std::vector<RamsesField> hydro_fields;
  bool hydro_descriptor = false;
  // The particle fields by part_file_descriptor.txt, or by the header's "Particle fields" line
  // (old style: pos vel mass iord level tform metal ..., expanded per dimension); empty: neither.
  std::vector<RamsesField> particle_fields;
  bool particle_descriptor = false;
  // header_NNNNN.txt's family counts (new style) or totals (old style: dark matter, stars, sinks).
  std::map<std::string, std::uint64_t> family_counts;

  std::string amr_path(int cpu) const { return file_path("amr", cpu); }
  std::string hydro_path(int cpu) const { return file_path("hydro", cpu); }
  std::string part_path(int cpu) const { return file_path("part", cpu); }
  std::string sink_csv_path() const { return directory + "sink_" + number + ".csv"; }
  // The sinks' binary restart file (RAMSES of 2014 to 2018 wrote one per CPU, each of all sinks).
  std::string sink_binary_path() const { return file_path("sink", 1); }
  bool cosmological() const;

 private:
  std::string file_path(const std::string& kind, int cpu) const;
};

// The output `path` names: its directory, its info file or any file in it. An error says what is
// missing (no info_NNNNN.txt: not a RAMSES output).
RamsesOutput open_ramses_output(const std::string& path);

// Whether `path` is a RAMSES output directory or its info file (for the format's detection).
bool is_ramses_output(const std::string& path);

// The classic hydro variables of an output without a descriptor: density, velocity_x (y, z by the
// dimensions), pressure, then scalar_01, ... up to `nvar`.
std::vector<RamsesField> classic_hydro_fields(int ndim, int nvar);

}  // namespace splotch
