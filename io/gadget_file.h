// One file of a Gadget binary snapshot (simtype 2). Format 1 writes anonymous blocks in a
// standard order; format 2 puts an 8-byte record with a 4-character label before each block. Both
// wrap everything in Fortran records (a 4-byte length before and after), whose first one tells the
// format and the byte order: 256 (the header) for format 1, 8 (a label) for format 2, byte-swapped
// for a file of the other endianness. Opening a file walks its records and keeps the block table;
// the particle data are read only when a reader asks for them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/input_file.h"

namespace splotch {

constexpr int gadget_types = 6;

struct GadgetHeader {
  std::array<std::uint32_t, gadget_types> npart{};  // particles of each type in this file
  std::array<double, gadget_types> mass{};          // the mass table: non-zero where all of a type weigh the same
  double time = 0, redshift = 0, box_size = 0;
  double omega0 = 0, omega_lambda = 0, hubble = 0;                            // HubbleParam
  std::array<std::uint32_t, gadget_types> npart_total{}, npart_total_high{};  // over all files, as written
  int num_files = 0;
  int flag_sfr = 0, flag_feedback = 0, flag_cooling = 0, flag_stellarage = 0, flag_metals = 0;
  int flag_entropy = 0, flag_double = 0;

  std::uint64_t count() const;  // particles in this file
};

struct GadgetBlock {
  std::string label;  // trimmed ("POS", "HSML"); format 1: POS VEL ID [MASS] [U RHO HSML] (Millennium's: POS VEL ID
                      // HSML RHO VELDISP), then BLOCK<k>
  std::size_t offset = 0;  // of the data, past the record marker
  std::size_t bytes = 0;
};

// Where a block's values lie: the file types it holds (bit t for type t) and bytes per value.
struct GadgetBlockLayout {
  unsigned types = 0;
  int value_bytes = 4;
  // Bytes from the block's start to the first value of type t (which the block must hold).
  std::size_t offset_of(const GadgetHeader& h, int t, int components) const;
};

class GadgetFile {
 public:
  // swap_endian: the byte order to try first (TRUE: the file's is not this machine's); the record
  // markers decide, so a wrong guess costs nothing.
  explicit GadgetFile(const std::string& path, std::optional<bool> swap_endian = std::nullopt);

  const std::string& path() const { return file_.path(); }
  const InputFile& file() const { return file_; }
  int format() const { return format_; }
  bool swapped() const { return swapped_; }
  const GadgetHeader& header() const { return header_; }
  const std::vector<GadgetBlock>& blocks() const { return blocks_; }
  int position_bytes() const { return position_bytes_; }  // 4 or 8, from the POS block's size

  // The block with this label (any case), or null.
  const GadgetBlock* find(const std::string& label) const;
  std::string labels() const;  // "POS, VEL, ID, ..." for messages

  // How `block` holds `components` values per particle: over the types of `types_given` when it
  // is set (an error if the size disagrees), else over the first of these sets of types whose
  // particle count fits the size: every type, gas alone, the types without a mass-table entry,
  // stars (4), gas and stars; values of the precision of the positions first, then the other.
  // `what` names the quantity for the error when nothing fits.
  GadgetBlockLayout layout(const GadgetBlock& block, int components, std::optional<unsigned> types_given,
                           const std::string& what) const;

 private:
  void read_header(std::size_t offset, std::size_t bytes);
  void name_format1_blocks();

  InputFile file_;
  int format_ = 2;
  bool swapped_ = false;
  GadgetHeader header_;
  std::vector<GadgetBlock> blocks_;  // without the header
  int position_bytes_ = 4;
};

// "0, 1, 4" for the types of a mask (bit t: type t), for messages.
std::string gadget_type_list(unsigned types);

// Whether the first 4 bytes of a file are a Gadget record length (256 or 8, in either byte order).
bool is_gadget_start(const unsigned char* first4);

// A short description of what a file that is not a Gadget snapshot looks like, from its first
// bytes ("an HDF5 file", ...), or "" when nothing is recognised.
std::string describe_file_start(const unsigned char* bytes, std::size_t n);

}  // namespace splotch
