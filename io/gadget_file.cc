#include "io/gadget_file.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "errors/user_error.h"
#include "io/byte_order.h"

namespace splotch {
namespace {

// A label as text: trailing blanks dropped, bytes that are not printable (a corrupted file) as '?'
// so that messages stay readable.
std::string trimmed(const char* text, std::size_t n) {
  std::string s(text, n);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  for (char& c : s)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::uint64_t count_of(const GadgetHeader& h, unsigned types) {
  std::uint64_t n = 0;
  for (int t = 0; t < gadget_types; ++t)
    if (types & (1u << t)) n += h.npart[std::size_t(t)];
  return n;
}

unsigned populated_types(const GadgetHeader& h) {
  unsigned m = 0;
  for (int t = 0; t < gadget_types; ++t)
    if (h.npart[std::size_t(t)] > 0) m |= 1u << t;
  return m;
}

}  // namespace

std::string gadget_type_list(unsigned types) {
  std::string s;
  for (int t = 0; t < gadget_types; ++t)
    if (types & (1u << t)) s += (s.empty() ? "" : ", ") + std::to_string(t);
  return s.empty() ? "none" : s;
}

bool is_gadget_start(const unsigned char* first4) {
  const std::uint32_t m = load<std::uint32_t>(first4, false), swapped = byte_swapped(m);
  return m == 256 || m == 8 || swapped == 256 || swapped == 8;
}

std::uint64_t GadgetHeader::count() const { return count_of(*this, 0x3f); }

std::size_t GadgetBlockLayout::offset_of(const GadgetHeader& h, int t, int components) const {
  return std::size_t(count_of(h, types & ((1u << t) - 1))) * std::size_t(components) * std::size_t(value_bytes);
}

std::string describe_file_start(const unsigned char* b, std::size_t n) {
  static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (n >= 8 && std::memcmp(b, hdf5, 8) == 0) return "an HDF5 file (read those with simtype 8, or 7)";
  if (n >= 28) {
    // Tipsy: double time, then int nbodies, ndim (3), nsph, ndark, nstar, in either byte order.
    for (bool swap : {false, true}) {
      const auto nbodies = load<std::uint32_t>(b + 8, swap), ndim = load<std::uint32_t>(b + 12, swap);
      const std::uint64_t parts = std::uint64_t(load<std::uint32_t>(b + 16, swap)) + load<std::uint32_t>(b + 20, swap) +
                                  load<std::uint32_t>(b + 24, swap);
      if (ndim == 3 && nbodies > 0 && parts == nbodies) return "a Tipsy file (read those with simtype 11)";
    }
  }
  if (n > 0 && std::all_of(b, b + n, [](unsigned char c) { return std::isprint(c) || std::isspace(c); }))
    return "a text file";
  return "";
}

GadgetFile::GadgetFile(const std::string& path, std::optional<bool> swap_endian) : file_(path) {
  const std::size_t size = file_.size();
  auto fail = [&](const std::string& why) { throw UserError("Gadget file '" + path + "': " + why); };
  auto read_u32 = [&](std::size_t offset) {
    unsigned char b[4];
    file_.read_at(b, 4, offset);
    return load<std::uint32_t>(b, swapped_);
  };
  if (size < 4) fail("too short to be a Gadget snapshot (" + std::to_string(size) + " bytes)");

  unsigned char start[64] = {0};
  const std::size_t start_bytes = std::min<std::size_t>(size, sizeof start);
  file_.read_at(start, start_bytes, 0);
  const std::uint32_t first = load<std::uint32_t>(start, false), first_swapped = byte_swapped(first);
  // The given byte order is only the first guess, as in the original, whose reader flips the
  // order itself when the first record length is not 8: the markers decide.
  const bool guess = swap_endian.value_or(false);
  const std::uint32_t guessed = guess ? first_swapped : first, other = guess ? first : first_swapped;
  if (guessed == 256 || guessed == 8) {
    swapped_ = guess;
    format_ = guessed == 8 ? 2 : 1;
  } else if (other == 256 || other == 8) {
    swapped_ = !guess;
    format_ = other == 8 ? 2 : 1;
  } else {
    const std::string looks = describe_file_start(start, start_bytes);
    fail("does not start like a Gadget snapshot (its first record length is " + std::to_string(first) +
         ", where format 1 has 256 and format 2 has 8, in either byte order)" +
         (looks.empty() ? std::string() : "; it looks like " + looks));
  }

  std::size_t pos = 0;
  bool have_header = false;
  while (pos < size) {
    std::string label;
    if (format_ == 2) {
      if (size - pos < 16)
        fail("truncated: " + std::to_string(size - pos) + " bytes at byte " + std::to_string(pos) +
             " where a block label record should be");
      unsigned char rec[16];
      file_.read_at(rec, 16, pos);
      const auto open = load<std::uint32_t>(rec, swapped_), close = load<std::uint32_t>(rec + 12, swapped_);
      if (open != 8 || close != 8)
        fail("corrupted: the block label record at byte " + std::to_string(pos) + " has lengths " +
             std::to_string(open) + " and " + std::to_string(close) + " instead of 8 and 8");
      label = trimmed(reinterpret_cast<const char*>(rec + 4), 4);
      pos += 16;
    }
    if (size - pos < 8) fail("truncated: the file ends at byte " + std::to_string(size) + " inside a record");
    const std::size_t bytes = read_u32(pos);
    if (bytes > size - pos - 8)
      fail("truncated or corrupted: the record at byte " + std::to_string(pos) +
           (label.empty() ? "" : " (" + label + ")") + " says " + std::to_string(bytes) + " bytes but only " +
           std::to_string(size - pos - 8) + " follow");
    const std::size_t end = read_u32(pos + 4 + bytes);
    if (end != bytes)
      fail("corrupted: the record at byte " + std::to_string(pos) + (label.empty() ? "" : " (" + label + ")") +
           " starts with length " + std::to_string(bytes) + " but ends with " + std::to_string(end));
    if (!have_header) {
      if (bytes != 256) fail("the header record is " + std::to_string(bytes) + " bytes, not 256");
      read_header(pos + 4, bytes);
      have_header = true;
    } else {
      blocks_.push_back({label, pos + 4, bytes});
    }
    pos += bytes + 8;
  }
  if (!have_header) fail("holds no header");
  if (format_ == 1) name_format1_blocks();

  position_bytes_ = header_.flag_double ? 8 : 4;
  if (const GadgetBlock* p = find("POS")) {
    const std::uint64_t n = header_.count();
    if (n > 0 && p->bytes == n * 3 * 8)
      position_bytes_ = 8;
    else if (n > 0 && p->bytes == n * 3 * 4)
      position_bytes_ = 4;
    else if (n > 0)
      fail("the POS block is " + std::to_string(p->bytes) + " bytes, which is neither 4- nor 8-byte x, y, z for the " +
           std::to_string(n) + " particles of the header");
  }
}

void GadgetFile::read_header(std::size_t offset, std::size_t bytes) {
  unsigned char h[256];
  file_.read_at(h, bytes, offset);
  GadgetHeader& g = header_;
  for (int t = 0; t < gadget_types; ++t) {
    g.npart[std::size_t(t)] = load<std::uint32_t>(h + 4 * t, swapped_);
    g.mass[std::size_t(t)] = load<double>(h + 24 + 8 * t, swapped_);
    g.npart_total[std::size_t(t)] = load<std::uint32_t>(h + 96 + 4 * t, swapped_);
    g.npart_total_high[std::size_t(t)] = load<std::uint32_t>(h + 168 + 4 * t, swapped_);
  }
  g.time = load<double>(h + 72, swapped_);
  g.redshift = load<double>(h + 80, swapped_);
  g.flag_sfr = load<std::int32_t>(h + 88, swapped_);
  g.flag_feedback = load<std::int32_t>(h + 92, swapped_);
  g.flag_cooling = load<std::int32_t>(h + 120, swapped_);
  g.num_files = load<std::int32_t>(h + 124, swapped_);
  g.box_size = load<double>(h + 128, swapped_);
  g.omega0 = load<double>(h + 136, swapped_);
  g.omega_lambda = load<double>(h + 144, swapped_);
  g.hubble = load<double>(h + 152, swapped_);
  g.flag_stellarage = load<std::int32_t>(h + 160, swapped_);
  g.flag_metals = load<std::int32_t>(h + 164, swapped_);
  g.flag_entropy = load<std::int32_t>(h + 192, swapped_);
  g.flag_double = load<std::int32_t>(h + 196, swapped_);
  for (int t = 0; t < gadget_types; ++t)
    if (g.npart[std::size_t(t)] > (1u << 31))
      throw UserError("Gadget file '" + path() + "': the header's particle count of type " + std::to_string(t) + ", " +
                      std::to_string(g.npart[std::size_t(t)]) + ", is implausible (wrong byte order? corrupted?)");
}

// Format 1 has no labels: the blocks of the standard order get their names, the rest a number.
void GadgetFile::name_format1_blocks() {
  std::vector<std::string> names = {"POS", "VEL", "ID"};
  bool masses = false;
  for (int t = 0; t < gadget_types; ++t)
    if (header_.npart[std::size_t(t)] > 0 && header_.mass[std::size_t(t)] == 0) masses = true;
  if (masses) names.push_back("MASS");
  if (header_.npart[0] > 0)
    for (const char* gas : {"U", "RHO", "HSML"}) names.push_back(gas);
  // The Millennium run's snapshots (the original's simtype 4): dark matter alone, masses in the
  // table, and after the IDs three blocks of one float per particle, HSML, DENS and VELDISP.
  const std::uint64_t n = header_.count();
  if (!masses && header_.npart[0] == 0 && n > 0 && blocks_.size() == names.size() + 3 &&
      std::all_of(blocks_.end() - 3, blocks_.end(), [&](const GadgetBlock& b) { return b.bytes == 4 * n; }))
    for (const char* millennium : {"HSML", "RHO", "VELDISP"}) names.push_back(millennium);
  for (std::size_t k = 0; k < blocks_.size(); ++k)
    blocks_[k].label = k < names.size() ? names[k] : "BLOCK" + std::to_string(k + 1);
}

const GadgetBlock* GadgetFile::find(const std::string& label) const {
  const std::string want = upper(label);
  for (const GadgetBlock& b : blocks_)
    if (upper(b.label) == want) return &b;
  return nullptr;
}

std::string GadgetFile::labels() const {
  std::string s;
  for (const GadgetBlock& b : blocks_) s += (s.empty() ? "" : ", ") + b.label;
  return s.empty() ? "none" : s;
}

GadgetBlockLayout GadgetFile::layout(const GadgetBlock& block, int components, std::optional<unsigned> types_given,
                                     const std::string& what) const {
  const unsigned present = populated_types(header_);
  const int precisions[2] = {position_bytes_, 12 - position_bytes_};
  auto fits = [&](unsigned types, int value_bytes) {
    return count_of(header_, types) * std::uint64_t(components) * std::uint64_t(value_bytes) == block.bytes;
  };
  if (types_given) {
    const unsigned types = *types_given & present;
    for (int vb : precisions)
      if (fits(types, vb)) return {types, vb};
    throw UserError("Gadget file '" + path() + "': block " + block.label + " (" + what + ") is " +
                    std::to_string(block.bytes) + " bytes, which is not " + std::to_string(components) +
                    " value(s) of 4 or 8 bytes for each of the " + std::to_string(count_of(header_, types)) +
                    " particles of types " + gadget_type_list(types) + " that the mask says it holds");
  }
  unsigned no_mass_table = 0;
  for (int t = 0; t < gadget_types; ++t)
    if (header_.mass[std::size_t(t)] == 0) no_mass_table |= 1u << t;
  const unsigned candidates[] = {present, 1u, no_mass_table & present, 1u << 4, 1u | (1u << 4)};
  for (int vb : precisions)
    for (unsigned c : candidates) {
      const unsigned types = c & present;
      if (types != 0 && fits(types, vb)) return {types, vb};
    }
  throw UserError("Gadget file '" + path() + "': cannot tell which particle types block " + block.label + " (" + what +
                  ") holds: its " + std::to_string(block.bytes) + " bytes fit none of all types, gas, the types " +
                  "without a mass-table entry, stars, gas and stars; give the mask of types (bit t for type t) " +
                  "with the *_present key of that quantity");
}

}  // namespace splotch
