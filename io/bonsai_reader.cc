#include "io/bonsai_reader.h"

#include <cstring>

#include "errors/user_error.h"
#include "io/input_file.h"

namespace splotch {
namespace {

constexpr std::size_t info_bytes = 280;  // name[256], elementSize, offset, nRank (+ 4 of padding)

struct Dataset {
  std::string name;
  std::uint64_t element = 0;
  std::int64_t offset = 0;
  std::int32_t ranks = 0;
  std::uint64_t count = 0;  // the ranks' elements together
  std::uint64_t data = 0;   // where the elements start
};

template <class T>
T at(const InputFile& f, std::uint64_t offset) {
  T v;
  f.read_at(&v, sizeof v, offset);
  return v;
}

std::vector<Dataset> datasets(const InputFile& f) {
  const std::string& path = f.path();
  if (f.size() < 8 + 16 + 4) throw UserError("'" + path + "' is too short for a Bonsai snapshot");
  const std::int64_t header = at<std::int64_t>(f, 0);
  if (header < 8 || std::uint64_t(header) + 20 > f.size())
    throw UserError("'" + path + "': its header offset " + std::to_string(header) + " lies outside its " +
                    std::to_string(f.size()) + " bytes: not a Bonsai snapshot, or a truncated one");
  char version[16];
  f.read_at(version, 16, std::uint64_t(header));
  if (std::strncmp(version, "V1", 16) != 0)
    throw UserError("'" + path + "': its header is not BonsaiIO's V1 (not a Bonsai snapshot?)");
  const std::int32_t n = at<std::int32_t>(f, std::uint64_t(header) + 16);
  if (n < 0 || std::uint64_t(header) + 20 + std::uint64_t(n) * info_bytes > f.size())
    throw UserError("'" + path + "': " + std::to_string(n) + " datasets do not fit in its header: the file is damaged");
  std::vector<Dataset> out;
  for (std::int32_t k = 0; k < n; ++k) {
    unsigned char info[info_bytes];
    f.read_at(info, info_bytes, std::uint64_t(header) + 20 + std::uint64_t(k) * info_bytes);
    Dataset d;
    d.name = std::string(reinterpret_cast<const char*>(info), strnlen(reinterpret_cast<const char*>(info), 256));
    std::memcpy(&d.element, info + 256, 8);
    std::memcpy(&d.offset, info + 264, 8);
    std::memcpy(&d.ranks, info + 272, 4);
    if (d.element == 0 || d.element > 64 || d.ranks < 1 || d.ranks > (1 << 24) || d.offset < 8 ||
        std::uint64_t(d.offset) + 8 * std::uint64_t(d.ranks) > f.size())
      throw UserError("'" + path + "': the dataset '" + d.name + "' has element size " + std::to_string(d.element) +
                      ", " + std::to_string(d.ranks) + " ranks at byte " + std::to_string(d.offset) +
                      ": the file is damaged");
    std::vector<std::int64_t> per_rank(std::size_t(d.ranks));
    f.read_at(per_rank.data(), per_rank.size() * 8, std::uint64_t(d.offset));
    for (std::int64_t c : per_rank) {
      if (c < 0)
        throw UserError("'" + path + "': the dataset '" + d.name + "' has a rank of " + std::to_string(c) +
                        " elements");
      d.count += std::uint64_t(c);
    }
    d.data = std::uint64_t(d.offset) + 8 * std::uint64_t(d.ranks);
    if (d.count > f.size() || d.data + d.count * d.element > f.size())
      throw UserError("'" + path + "': the dataset '" + d.name + "' of " + std::to_string(d.count) + " elements of " +
                      std::to_string(d.element) + " bytes runs past the file's end: the file is truncated");
    out.push_back(d);
  }
  return out;
}

// The file type of a dataset's prefix ("DM:POS:real4" -> 0), -1 for none known.
int type_of(const std::string& name) {
  if (name.rfind("DM:", 0) == 0) return 0;
  if (name.rfind("Stars:", 0) == 0) return 1;
  return -1;
}

Column column(const std::string& name, const char* label, int component) {
  Column c;
  c.name = name;
  c.type = "float32";
  c.label = label;
  c.component = component;
  return c;
}

ColumnSnapshot read(const std::string& path, const ColumnWanted* wanted, const ProgressCallback& progress) {
  const InputFile f(path);
  const std::vector<Dataset> sets = datasets(f);
  ColumnSnapshot s;
  s.path = path;
  s.description = "Bonsai snapshot (" + std::to_string(sets.size()) + " datasets)";
  s.units.code = "Bonsai";
  s.notes.push_back("BonsaiIO writes only half of the time's double: the time is not known");
  ColumnType types[2];
  types[0].file_type = 0, types[0].name = "dark matter";
  types[1].file_type = 1, types[1].name = "stars";
  std::size_t done = 0;
  for (const Dataset& d : sets) {
    const int t = type_of(d.name);
    if (t < 0) continue;
    ColumnType& ct = types[t];
    const std::string what = d.name.substr(d.name.find(':') + 1);
    if (ct.count == 0) ct.count = std::size_t(d.count);
    if (d.count != ct.count)
      throw UserError("'" + path + "': the dataset '" + d.name + "' has " + std::to_string(d.count) + " elements and " +
                      "others of " + ct.name + " " + std::to_string(ct.count) + ": the file is damaged");
    std::vector<Column> made;
    if (what == "IDType" && d.element == 8) {
      ct.id_name = "IDType";
      ct.all_fields.push_back("IDType");
      if (wanted && (wanted->ids || wanted->all)) {
        std::vector<std::uint64_t> ids(std::size_t(d.count));
        f.read_at(ids.data(), ids.size() * 8, d.data);
        for (std::uint64_t& id : ids) id &= 0x0000FFFFFFFFFFFFULL;  // (the type in the top 16 bits)
        ct.ids = std::move(ids);
      }
      continue;
    }
    std::size_t components = 0;
    bool doubles = false;
    if (what.rfind("POS", 0) == 0 && (d.element == 16 || d.element == 32)) {
      made = {column("position_x", "POS", 0), column("position_y", "POS", 1), column("position_z", "POS", 2),
              column("mass", "MASS", -1)};
      components = 4, doubles = d.element == 32;
    } else if (what.rfind("VEL", 0) == 0 && (d.element == 12 || d.element == 24)) {
      made = {column("velocity_x", "VEL", 0), column("velocity_y", "VEL", 1), column("velocity_z", "VEL", 2)};
      components = 3, doubles = d.element == 24;
    } else if (what.rfind("RHOH", 0) == 0 && (d.element == 8 || d.element == 16)) {
      made = {column("density", "RHO", -1), column("h", "HSML", -1)};
      components = 2, doubles = d.element == 16;
    } else if (d.element == 4) {
      made = {column(what, "", -1)};
      components = 1;
    } else {
      continue;  // (a dataset of another kind: none a render draws)
    }
    bool any = !wanted;
    for (const Column& c : made) {
      ct.all_fields.push_back(c.name);
      if (wanted) any = any || c.label == "POS" || wanted->wants(c.name, c.label, c.component);
    }
    if (wanted && any) {
      const std::size_t n = std::size_t(d.count);
      std::vector<unsigned char> raw(n * std::size_t(d.element));
      f.read_at(raw.data(), raw.size(), d.data);
      for (std::size_t k = 0; k < made.size(); ++k) {
        made[k].values.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
          const unsigned char* e = raw.data() + i * std::size_t(d.element) + k * (doubles ? 8 : 4);
          if (doubles) {
            double v;
            std::memcpy(&v, e, 8);
            made[k].values[i] = float(v);
          } else {
            std::memcpy(&made[k].values[i], e, 4);
          }
        }
      }
    }
    for (Column& c : made) ct.columns.push_back(std::move(c));
    (void)components;
    if (progress) progress(double(++done) / double(sets.size()));
  }
  for (ColumnType& t : types) {
    if (wanted) t.drop_unread();
    s.types.push_back(std::move(t));
  }
  return s;
}

}  // namespace

bool is_bonsai_file(const std::string& path) {
  try {
    const InputFile f(path);
    if (f.size() < 8 + 20) return false;
    const std::int64_t header = at<std::int64_t>(f, 0);
    if (header < 8 || std::uint64_t(header) + 20 > f.size()) return false;
    char version[16];
    f.read_at(version, 16, std::uint64_t(header));
    return std::strncmp(version, "V1", 16) == 0;
  } catch (const UserError&) { return false; }
}

ColumnSnapshot bonsai_outline(const std::string& path) { return read(path, nullptr, {}); }

ColumnSnapshot load_bonsai(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress) {
  return read(path, &wanted, progress);
}

}  // namespace splotch
