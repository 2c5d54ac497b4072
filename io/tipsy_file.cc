#include "io/tipsy_file.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/field_names.h"
#include "io/first_error.h"
#include "io/gadget_file.h"

namespace splotch {
namespace {

// The records, as Tipsy's own tipsydefs.h lays them out (pos and vel: 3 values).
const std::vector<const char*> record_layout[tipsy_types] = {
    {"mass", "pos", "vel", "rho", "temp", "hsmooth", "metals", "phi"},
    {"mass", "pos", "vel", "eps", "phi"},
    {"mass", "pos", "vel", "metals", "tform", "eps", "phi"},
};

// Names other codes give the record fields, as Gadget block labels (io/field_names.h turns HDF5
// dataset names into these first) or, where Gadget has none, in lower case.
struct Alias {
  const char* name;
  const char* field;
};
const Alias aliases[] = {
    {"MASS", "mass"},    {"POS", "pos"},           {"VEL", "vel"},       {"RHO", "rho"},
    {"HSML", "hsmooth"}, {"Z", "metals"},          {"POT", "phi"},       {"AGE", "tform"},
    {"TEMP", "temp"},    {"temperatures", "temp"}, {"softening", "eps"}, {"softenings", "eps"},
};

// Header bytes: double time, then int nbodies, ndim, nsph, ndark, nstar.
constexpr std::size_t header_fields_bytes = 28;

bool same_name(const std::string& a, const char* b) { return lower_case(a) == lower_case(b); }

int value_bytes_of(const std::string& field, int position_bytes, int velocity_bytes) {
  return field == "pos" ? position_bytes : field == "vel" ? velocity_bytes : 4;
}

std::size_t record_bytes_of(int type, int position_bytes, int velocity_bytes) {
  std::size_t bytes = 0;
  for (const char* name : record_layout[type]) {
    const bool vector = std::strcmp(name, "pos") == 0 || std::strcmp(name, "vel") == 0;
    bytes += std::size_t(vector ? 3 : 1) * std::size_t(value_bytes_of(name, position_bytes, velocity_bytes));
  }
  return bytes;
}

TipsyHeader parse_header(const unsigned char* b, bool swap) {
  TipsyHeader h;
  h.time = load<double>(b, swap);
  h.nbodies = load<std::uint32_t>(b + 8, swap);
  h.ndim = load<std::uint32_t>(b + 12, swap);
  for (int t = 0; t < tipsy_types; ++t) h.count[std::size_t(t)] = load<std::uint32_t>(b + 16 + 4 * t, swap);
  return h;
}

bool counts_add_up(const TipsyHeader& h) { return std::uint64_t(h.count[0]) + h.count[1] + h.count[2] == h.nbodies; }

// The counts as written (ints: a negative one shows as such) for messages.
std::string describe(const TipsyHeader& h) {
  auto i = [](std::uint32_t v) { return std::to_string(std::int32_t(v)); };
  return "nbodies " + i(h.nbodies) + ", ndim " + i(h.ndim) + ", " + i(h.count[0]) + " gas + " + i(h.count[1]) +
         " dark + " + i(h.count[2]) + " star";
}

}  // namespace

const char* tipsy_type_name(int type) {
  static const char* const names[tipsy_types] = {"gas", "dark", "star"};
  return type >= 0 && type < tipsy_types ? names[type] : "unknown";
}

std::string tipsy_field_name(const std::string& label) {
  for (const auto& fields : record_layout)
    for (const char* name : fields)
      if (same_name(label, name)) return name;
  const std::string block = gadget_block_label(label);
  for (const Alias& a : aliases)
    if (same_name(block, a.name)) return a.field;
  return "";
}

void TipsyRecords::read(std::size_t first, std::size_t count, const std::vector<TipsyColumn>& columns,
                        std::vector<unsigned char>& buffer) const {
  buffer.resize(count * record_bytes);
  file->read_at(buffer.data(), buffer.size(), start + first * record_bytes);
  for (const TipsyColumn& c : columns) {
    const unsigned char* in = buffer.data() + c.offset;
    float* out = c.out + first;
    if (c.value_bytes == 4) {
      for (std::size_t i = 0; i < count; ++i) out[i] = load<float>(in + i * record_bytes, swap) * c.factor;
    } else {
      for (std::size_t i = 0; i < count; ++i)
        out[i] = float(load<double>(in + i * record_bytes, swap) * double(c.factor));
    }
  }
}

std::size_t TipsyRecords::records_per_piece() const {
  constexpr std::size_t piece_bytes = std::size_t(1) << 20;
  return std::max<std::size_t>(1, piece_bytes / std::max<std::size_t>(1, record_bytes));
}

TipsyFile::TipsyFile(const std::string& path, std::optional<bool> swap_endian) : file_(path) { detect(swap_endian); }

bool TipsyFile::fits(const TipsyHeader& h, std::size_t header_bytes, int position_bytes, int velocity_bytes) const {
  if (!counts_add_up(h)) return false;
  std::uint64_t bytes = header_bytes;
  for (int t = 0; t < tipsy_types; ++t)
    bytes += std::uint64_t(h.count[std::size_t(t)]) * record_bytes_of(t, position_bytes, velocity_bytes);
  return bytes == file_.size();
}

void TipsyFile::detect(std::optional<bool> swap_endian) {
  const std::size_t size = file_.size();
  auto fail = [&](const std::string& why) { throw UserError("Tipsy file '" + path() + "': " + why); };
  unsigned char start[32] = {0};
  const std::size_t start_bytes = std::min(size, sizeof start);
  file_.read_at(start, start_bytes, 0);
  const std::string looks = describe_file_start(start, start_bytes);
  if (looks.rfind("an HDF5", 0) == 0) fail("is not a Tipsy snapshot: it looks like " + looks);
  if (size < header_fields_bytes)
    fail("too short for a Tipsy header (" + std::to_string(size) + " bytes, where the header alone is 28 or 32)" +
         (looks.empty() ? std::string() : "; it looks like " + looks));

  // XDR (big-endian) first: the usual kind.
  const bool swap_if_big = !host_is_big_endian;
  std::vector<bool> orders = {swap_if_big, !swap_if_big};
  if (swap_endian) orders = {*swap_endian, !*swap_endian};  // a first guess only: the file decides
  const int precisions[3][2] = {{4, 4}, {8, 4}, {8, 8}};
  std::optional<TipsyHeader> wrong_ndim;
  for (bool swap : orders) {
    const TipsyHeader h = parse_header(start, swap);
    for (std::size_t header_bytes : {std::size_t(32), header_fields_bytes})
      for (const auto& p : precisions) {
        if (!fits(h, header_bytes, p[0], p[1])) continue;
        if (h.ndim != 3) {
          wrong_ndim = h;
          continue;
        }
        header_ = h;
        swapped_ = swap;
        header_bytes_ = header_bytes;
        set_layout(p[0], p[1]);
        return;
      }
  }

  auto order_name = [&](bool swap) {
    return swap == swap_if_big ? std::string("big-endian") : std::string("little-endian");
  };
  if (wrong_ndim)
    fail("the header says ndim = " + std::to_string(std::int32_t(wrong_ndim->ndim)) +
         "; only three-dimensional Tipsy snapshots (ndim = 3) can be read");
  if (is_gadget_start(start))
    fail(
        "is not a Tipsy snapshot: it starts like a Gadget snapshot (a record length of 256 or 8 in its first 4 "
        "bytes; read those with simtype 2)");
  for (bool swap : orders) {
    const TipsyHeader h = parse_header(start, swap);
    if (!counts_add_up(h) || h.ndim != 3) continue;
    std::uint64_t records = 0;
    for (int t = 0; t < tipsy_types; ++t) records += std::uint64_t(h.count[std::size_t(t)]) * record_bytes_of(t, 4, 4);
    fail("the header's counts (" + std::to_string(h.count[0]) + " gas, " + std::to_string(h.count[1]) + " dark, " +
         std::to_string(h.count[2]) + " star; " + order_name(swap) + ") need a file of " +
         std::to_string(32 + records) + " bytes (" + std::to_string(28 + records) +
         " with a 28-byte header), but it is " + std::to_string(size) + " bytes: truncated, or not a Tipsy snapshot");
  }
  fail("does not look like a Tipsy snapshot: its header reads " + describe(parse_header(start, swap_if_big)) +
       " big-endian (" + describe(parse_header(start, !swap_if_big)) +
       " little-endian), where nbodies is the sum and ndim 3" +
       (looks.empty() ? std::string() : "; it looks like " + looks));
}

void TipsyFile::set_layout(int position_bytes, int velocity_bytes) {
  position_bytes_ = position_bytes;
  velocity_bytes_ = velocity_bytes;
  for (int t = 0; t < tipsy_types; ++t) {
    std::vector<TipsyField>& fields = fields_[std::size_t(t)];
    fields.clear();
    std::size_t offset = 0;
    for (const char* name : record_layout[t]) {
      TipsyField f;
      f.name = name;
      f.components = f.name == "pos" || f.name == "vel" ? 3 : 1;
      f.value_bytes = value_bytes_of(f.name, position_bytes, velocity_bytes);
      f.offset = offset;
      offset += std::size_t(f.components) * std::size_t(f.value_bytes);
      fields.push_back(f);
    }
  }
}

bool TipsyFile::big_endian() const { return swapped_ == !host_is_big_endian; }

std::uint64_t TipsyFile::first_index(int type) const {
  std::uint64_t first = 0;
  for (int t = 0; t < type; ++t) first += count(t);
  return first;
}

std::string TipsyFile::field_names(int type) const {
  std::string s;
  for (const TipsyField& f : fields(type)) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

const TipsyField* TipsyFile::field(int type, const std::string& label) const {
  const std::string name = tipsy_field_name(label);
  for (const TipsyField& f : fields(type))
    if (f.name == name) return &f;
  return nullptr;
}

std::size_t TipsyFile::record_bytes(int type) const { return record_bytes_of(type, position_bytes_, velocity_bytes_); }

TipsyRecords TipsyFile::records(int type) const {
  std::size_t start = header_bytes_;
  for (int t = 0; t < type; ++t) start += std::size_t(count(t)) * record_bytes(t);
  return {&file_, start, record_bytes(type), swapped_};
}

ParticleArray<float> TipsyFile::read_field(int type, const std::string& label, int component) const {
  if (type < 0 || type >= tipsy_types)
    throw std::invalid_argument("TipsyFile::read_field: type " + std::to_string(type));
  const TipsyField* f = field(type, label);
  if (!f)
    throw UserError("Tipsy file '" + path() + "' has no field '" + label + "' for its " + tipsy_type_name(type) +
                    " particles; " + tipsy_type_name(type) + " records hold " + field_names(type));
  if (component < 0 || component >= f->components)
    throw std::invalid_argument("TipsyFile::read_field: component " + std::to_string(component) + " of " + f->name);
  const std::size_t n = std::size_t(count(type));
  ParticleArray<float> values(n);
  const TipsyRecords r = records(type);
  const std::vector<TipsyColumn> columns = {
      {f->offset + std::size_t(component) * std::size_t(f->value_bytes), f->value_bytes, values.data(), 1.0f}};
  const std::size_t piece = r.records_per_piece();
  const long pieces = long((n + piece - 1) / piece);
  FirstError error;
#pragma omp parallel
  {
    std::vector<unsigned char> buffer;
#pragma omp for schedule(dynamic, 1)
    for (long k = 0; k < pieces; ++k)
      error.run([&] {
        const std::size_t first = std::size_t(k) * piece;
        r.read(first, std::min(piece, n - first), columns, buffer);
      });
  }
  error.rethrow_if_any();
  return values;
}

bool is_tipsy_file(const std::string& path) {
  try {
    TipsyFile f(path);
    return true;
  } catch (const UserError&) { return false; }
}

}  // namespace splotch
