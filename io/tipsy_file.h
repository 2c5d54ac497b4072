// A Tipsy snapshot (simtype 11): the "standard" binary format of Tipsy, PKDGRAV, Gasoline and
// ChaNGa. A header (double time; int nbodies, ndim, nsph, ndark, nstar; most writers add 4 bytes
// of padding, some do not: 32 or 28 bytes), then the records of the gas, the dark matter and the
// stars, in that order, each a fixed run of float32 values. XDR writers (ChaNGa, PKDGRAV) make
// the file big-endian; others write it in their machine's order. Nothing in the file names the
// byte order, the header size or the precision, so they are found by trying each until the header
// is self-consistent and the counts account for the file's exact size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/input_file.h"
#include "io/particle_array.h"

namespace splotch {

constexpr int tipsy_types = 3;  // 0 gas, 1 dark, 2 star: the file's order

// "gas", "dark", "star".
const char* tipsy_type_name(int type);

// One field of a record. Positions and velocities are 3 values; some ChaNGa runs write them as
// doubles (bDoublePos, bDoubleVel); everything else is float32.
struct TipsyField {
  std::string name;        // mass, pos, vel, rho, temp, hsmooth, metals, phi, eps, tform
  int components = 1;      // 1, or 3 for pos and vel
  int value_bytes = 4;     // 4, or 8 for pos / vel written in double
  std::size_t offset = 0;  // bytes from the start of the record
};

struct TipsyHeader {
  double time = 0;  // the scale factor in cosmological runs
  std::uint32_t nbodies = 0, ndim = 0;
  std::array<std::uint32_t, tipsy_types> count{};  // nsph, ndark, nstar
};

// The Tipsy record field that `label` (any case) means: a field name itself, or a Gadget block
// label or HDF5 dataset name of the same quantity (HSML, SmoothingLength -> hsmooth; Density ->
// rho; Temperature -> temp; Softening -> eps; ...), so that one parameter file serves several
// codes. "" when the label means no record field (it may name an auxiliary array).
std::string tipsy_field_name(const std::string& label);

// Where one reader wants the values of a field (one component of it) from a run of records:
// value k of the run goes to out[k], times `factor`.
struct TipsyColumn {
  std::size_t offset = 0;  // of the value in its record
  int value_bytes = 4;     // 4: float, 8: double
  float* out = nullptr;    // for the run's first record
  float factor = 1.0f;
};

// Fixed-size records from `start` of a file: the particles of one type, or an auxiliary array
// (records of one value).
struct TipsyRecords {
  const InputFile* file = nullptr;
  std::size_t start = 0, record_bytes = 0;
  bool swap = false;

  // Records [first, first + count) in one positioned read into `buffer`; their values into the
  // columns (out[first + i]), byte order fixed and converted to float.
  void read(std::size_t first, std::size_t count, const std::vector<TipsyColumn>& columns,
            std::vector<unsigned char>& buffer) const;
  // Records per piece of parallel work: about 1 MiB, so that each read is large yet the buffer of
  // every thread stays in its core's cache while the columns are taken from it, one pass per
  // column (pieces of 8 and 32 MiB read 1.5 and 2 times slower), and a machine of many cores
  // does not hold many large buffers.
  std::size_t records_per_piece() const;
};

class TipsyFile {
 public:
  // swap_endian: the byte order to try first (TRUE: the file's is not this machine's; unset: big-endian,
  // the usual XDR); the header and the file's size decide, and the guess only breaks a tie. A file that is not a
  // consistent Tipsy snapshot: UserError saying what it looks like.
  explicit TipsyFile(const std::string& path, std::optional<bool> swap_endian = std::nullopt);

  const std::string& path() const { return file_.path(); }
  const InputFile& file() const { return file_; }
  bool swapped() const { return swapped_; }
  bool big_endian() const;
  std::size_t header_bytes() const { return header_bytes_; }  // 32 (padded) or 28
  int position_bytes() const { return position_bytes_; }      // 4, or 8 (bDoublePos)
  int velocity_bytes() const { return velocity_bytes_; }      // 4, or 8 (bDoubleVel)
  const TipsyHeader& header() const { return header_; }
  double time() const { return header_.time; }
  std::uint64_t count(int type) const { return header_.count[std::size_t(type)]; }
  std::uint64_t total() const { return header_.nbodies; }
  // The index of the type's first particle in file order (gas, dark, star): where its values
  // start in an auxiliary array, which holds one value per particle of every type.
  std::uint64_t first_index(int type) const;

  // The fields of the type's record, in record order.
  const std::vector<TipsyField>& fields(int type) const { return fields_[std::size_t(type)]; }
  std::string field_names(int type) const;  // "mass, pos, vel, eps, phi" for messages
  // The field that `label` means (tipsy_field_name) if the type's record has it, else null.
  const TipsyField* field(int type, const std::string& label) const;
  std::size_t record_bytes(int type) const;
  TipsyRecords records(int type) const;

  // One component of a field for every particle of a type, as float (for --info and tests);
  // a label the type's record does not have: UserError listing those it has.
  ParticleArray<float> read_field(int type, const std::string& label, int component = 0) const;

 private:
  void detect(std::optional<bool> swap_endian);
  bool fits(const TipsyHeader& h, std::size_t header_bytes, int position_bytes, int velocity_bytes) const;
  void set_layout(int position_bytes, int velocity_bytes);

  InputFile file_;
  TipsyHeader header_;
  bool swapped_ = false;
  std::size_t header_bytes_ = 32;
  int position_bytes_ = 4, velocity_bytes_ = 4;
  std::array<std::vector<TipsyField>, tipsy_types> fields_;
};

// Whether `path` is a Tipsy snapshot (a consistent header and size in either byte order); for
// telling formats apart, never an error.
bool is_tipsy_file(const std::string& path);

}  // namespace splotch
