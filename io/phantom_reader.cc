#include "io/phantom_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "errors/user_error.h"
#include "io/fortran_records.h"
#include "io/input_file.h"
#include "io/phantom_untagged.h"

namespace splotch {
namespace {

// The check integers in the first record (int1, r1, int2, iversion, int3): Phantom's and sphNG's
// since format version 1, and sphNG's before it (whose iversion is 690706, read as version 0).
constexpr std::int32_t check1 = 60769, check2 = 60878, check3 = 690706, old_check2 = 780806;
// The header's and the arrays' data types, in the dump's order: int, int1, int2, int4, int8, real,
// real4, real8.
constexpr int data_types = 8;
const char* const type_names[data_types] = {"int", "int8", "int16", "int32", "int64", "real", "float32", "float64"};

void label_of(const std::string& name, bool sinks, std::string& label, int& component) {
  label.clear();
  component = -1;
  const char* const axes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (name == axes[d]) label = "POS", component = d;
    if (name == std::string("v") + axes[d]) label = "VEL", component = d;
  }
  if (name == "h") label = "HSML";
  if (name == "u") label = "U";
  if (name == "density" || name == "rho") label = "RHO";
  if (name == "m" || (!sinks && name == "mass")) label = "MASS";  // (sphNG's particles have m, as sinks do)
}

// A header value as an integer in [lo, hi] (a damaged dump's may be anything, NaN too).
std::int64_t whole(double v, std::int64_t lo, std::int64_t hi) {
  if (!(v >= double(lo))) return lo;
  if (!(v <= double(hi))) return hi;
  return std::int64_t(v);
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  std::size_t a = 0;
  while (a < s.size() && s[a] == ' ') ++a;
  return s.substr(a);
}

// The binary dump: header, then per block the arrays' lengths and the arrays, tag before each
// (tagged dumps) or in the format's fixed order (untagged: sphNG's, and Phantom's before 2014).
PhantomDump read_binary(const std::string& path, const ColumnWanted& wanted, bool values) {
  FortranRecords f(path);
  PhantomDump d;
  d.path = path;
  const std::vector<unsigned char> first = f.bytes(0, "the check integers");
  if (first.size() != 20 && first.size() != 24)
    throw UserError("'" + path + "' is not a Phantom or sphNG dump: its first record holds " +
                    std::to_string(first.size()) + " bytes, not the check integers' 20 or 24");
  auto int_at = [&](std::size_t at) {
    std::int32_t v;
    std::memcpy(&v, first.data() + at, 4);
    if (f.swapped()) v = std::int32_t(byte_swapped(std::uint32_t(v)));
    return v;
  };
  const std::size_t real_bytes = first.size() - 16;
  const std::int32_t int2 = int_at(4 + real_bytes);
  if ((int_at(0) != check1 && int_at(0) != check3) || (int2 != check2 && int2 != old_check2) ||
      int_at(12 + real_bytes) != check3)
    throw UserError("'" + path + "': its first record's check integers are not Phantom's or sphNG's (" +
                    std::to_string(int_at(0)) + ", " + std::to_string(int2) + "): not a dump of either code");
  const std::int32_t iversion = int_at(8 + real_bytes);
  const std::vector<unsigned char> ident = f.bytes(1, "fileident");
  d.fileident = trim(std::string(ident.begin(), ident.end()));
  DumpDialect dialect;
  dialect.phantom = d.fileident.find("Phantom") != std::string::npos;
  dialect.small = !d.fileident.empty() && d.fileident[0] == 'S';
  d.sphng = !dialect.phantom;
  // Tagged when the fileident says so (its second letter T); the records' sizes decide where a
  // writer's fileident and its records disagree (a tag is 16 bytes, no value is).
  bool tagged = d.fileident.size() > 1 && (d.fileident[1] == 'T' || d.fileident[1] == 't');
  bool tagging_known = false;
  const std::size_t sizes[data_types] = {4, 1, 2, 4, 8, real_bytes, 4, 8};
  std::size_t r = 2;
  for (int k = 0; k < data_types; ++k) {
    const std::int32_t n = f.value<std::int32_t>(r++, "a header count");
    if (n < 0 || n > 100000) throw UserError("'" + path + "': a header count of " + std::to_string(n) + " values");
    if (n == 0) continue;
    if (!tagging_known) {
      const std::size_t bytes = f.size(r, "the header");
      if (bytes == 16 * std::size_t(n))
        tagged = true;
      else if (bytes % std::size_t(n) == 0 && bytes / std::size_t(n) <= 8)
        tagged = false;
      tagging_known = true;
    }
    std::vector<std::string> tag_list;
    if (tagged) {
      const std::vector<unsigned char> tags = f.bytes(r++, "the header's tags");
      if (tags.size() != 16 * std::size_t(n))
        throw UserError("'" + path + "': " + std::to_string(n) + " header tags in " + std::to_string(tags.size()) +
                        " bytes, not 16 each: the dump is damaged");
      for (std::int32_t j = 0; j < n; ++j)
        tag_list.push_back(trim(std::string(tags.begin() + 16 * j, tags.begin() + 16 * (j + 1))));
    } else {
      for (std::int32_t j = 0; j < n; ++j) tag_list.push_back(untagged_header_tag(dialect, DumpKind(k), j, n));
    }
    std::vector<double> v;
    const std::size_t bytes = f.size(r, "header values");
    const std::size_t each = k == 0 && bytes == 8 * std::size_t(n) ? 8 : sizes[k];  // (a default int of 8 bytes)
    if (k >= 5)
      v = f.reals(r, std::size_t(n), "header values");
    else {
      const std::vector<std::int64_t> i =
          each == 2 ? std::vector<std::int64_t>() : f.integers(r, std::size_t(n), "header values");
      if (each == 2) {
        const std::vector<unsigned char> b = f.bytes(r, "header values");
        for (std::size_t j = 0; j + 1 < b.size(); j += 2) {
          std::int16_t s;
          std::memcpy(&s, b.data() + j, 2);
          if (f.swapped()) s = std::int16_t(__builtin_bswap16(std::uint16_t(s)));
          v.push_back(s);
        }
      }
      v.insert(v.end(), i.begin(), i.end());
    }
    ++r;
    // A tag written several times in one kind's record (npartoftype, massoftype) gives several
    // values; written again in a later kind's (npartoftype as int, then as int8), the later kind's
    // values replace the earlier (the 8-byte counts hold what 4 bytes may not).
    std::vector<std::string> seen_here;
    for (std::int32_t j = 0; j < n; ++j) {
      const std::string& tag = tag_list[std::size_t(j)];
      if (tag.empty()) continue;  // (an untagged value of no known meaning)
      auto it = std::find_if(d.header.begin(), d.header.end(), [&](const auto& e) { return e.first == tag; });
      if (it == d.header.end()) it = d.header.insert(d.header.end(), {tag, {}});
      if (std::find(seen_here.begin(), seen_here.end(), tag) == seen_here.end()) {
        it->second.clear();
        seen_here.push_back(tag);
      }
      if (std::size_t(j) < v.size()) it->second.push_back(v[std::size_t(j)]);
    }
  }
  if (iversion != check3) d.header.push_back({"iversion", {double(iversion)}});
  const std::vector<double>* nblocks_value = d.value("nblocks");
  const int nblocks = nblocks_value && !nblocks_value->empty() ? int(whole((*nblocks_value)[0], 0, 1 << 20)) : 1;
  const std::int32_t number = f.value<std::int32_t>(r++, "the number of array lengths");
  if (nblocks < 1 || number < nblocks || number % nblocks != 0 || number / nblocks > 16)
    throw UserError("'" + path + "': " + std::to_string(number) + " array lengths for " + std::to_string(nblocks) +
                    " blocks: the dump is damaged");
  const int lengths = number / nblocks;
  d.kind = std::string("binary, ") + (tagged ? "" : "untagged, ") + std::to_string(8 * real_bytes) + "-bit reals, " +
           std::to_string(nblocks) + " block" + (nblocks == 1 ? "" : "s") +
           (d.fileident.rfind("S", 0) == 0 ? ", a small dump" : ", a full dump");
  for (int b = 0; b < nblocks; ++b) {
    std::vector<std::int64_t> length(static_cast<std::size_t>(lengths));
    std::vector<std::vector<std::int32_t>> nums(static_cast<std::size_t>(lengths));
    for (int j = 0; j < lengths; ++j) {
      const std::vector<unsigned char> head = f.bytes(r++, "an array length");
      if (head.size() != 8 + 4 * data_types)
        throw UserError("'" + path + "': an array length's record of " + std::to_string(head.size()) +
                        " bytes, not 40: the dump is damaged");
      std::int64_t n;
      std::memcpy(&n, head.data(), 8);
      if (f.swapped()) n = std::int64_t(byte_swapped(std::uint64_t(n)));
      length[std::size_t(j)] = n;
      for (int k = 0; k < data_types; ++k) {
        std::int32_t c;
        std::memcpy(&c, head.data() + 8 + 4 * k, 4);
        if (f.swapped()) c = std::int32_t(byte_swapped(std::uint32_t(c)));
        if (c < 0 || c > 1000) throw UserError("'" + path + "': " + std::to_string(c) + " arrays of one kind");
        nums[std::size_t(j)].push_back(c);
      }
      if (n < 0 || n > (std::int64_t(1) << 40))
        throw UserError("'" + path + "': an array length of " + std::to_string(n));
    }
    // (each particle takes bytes in the file: a count beyond its size is damage, not particles)
    if (std::uint64_t(length[0]) > f.file_size() || (lengths > 1 && std::uint64_t(length[1]) > f.file_size()))
      throw UserError("'" + path + "' says " + std::to_string(length[0]) + " particles in a file of " +
                      std::to_string(f.file_size()) + " bytes: the dump is damaged");
    if (length[0] > 0) d.particles += std::size_t(length[0]);
    // Phantom's second array block holds the sinks; sphNG's its point masses' list (the point
    // masses themselves are particles of iphase 1 to 9).
    if (lengths > 1 && b == 0 && length[1] > 0) (dialect.phantom ? d.sinks : d.point_masses) = std::size_t(length[1]);
    for (int j = 0; j < lengths; ++j)
      for (int k = 0; k < data_types; ++k)
        for (std::int32_t i = 0; i < nums[std::size_t(j)][std::size_t(k)]; ++i) {
          std::string tag;
          if (tagged) {
            const std::vector<unsigned char> tag_bytes = f.bytes(r++, "an array's tag");
            tag = trim(std::string(tag_bytes.begin(), tag_bytes.end()));
          } else {
            tag = untagged_array_name(dialect, j, DumpKind(k), i, nums[std::size_t(j)][std::size_t(k)]);
          }
          const std::size_t at = r++;
          // The particles' arrays: the first block's, and those of a later block of their length
          // (the magnetic field, radiation); the sinks' in Phantom's second block.
          const bool sinks = j == 1 && dialect.phantom;
          if (j > 0 && !sinks && (j == 1 || length[std::size_t(j)] != length[0])) continue;
          std::vector<PhantomArray>& list = sinks ? d.sink_arrays : d.arrays;
          auto it = std::find_if(list.begin(), list.end(), [&](const PhantomArray& a) { return a.name == tag; });
          if (it == list.end()) {
            list.push_back({tag, k == 5 ? (real_bytes == 8 ? "float64" : "float32") : type_names[k], {}});
            it = list.end() - 1;
          }
          const std::size_t n = std::size_t(length[std::size_t(j)]);
          if (!values) continue;
          if (tag == "iorig" && !sinks) {
            if (wanted.ids || wanted.all) {
              const std::vector<std::int64_t> ids = f.integers(at, n, "iorig");
              d.iorig.insert(d.iorig.end(), ids.begin(), ids.end());
            }
            continue;
          }
          if (!phantom_array_wanted(tag, sinks, wanted)) continue;
          if (k >= 5) {
            const std::vector<double> v = f.reals(at, n, tag.c_str());
            it->values.insert(it->values.end(), v.begin(), v.end());
          } else if (k == 2) {
            const std::vector<unsigned char> bytes = f.bytes(at, tag.c_str());
            if (bytes.size() != 2 * n) throw UserError("'" + path + "': the array " + tag + " is not of its length");
            for (std::size_t q = 0; q < n; ++q) {
              std::int16_t s;
              std::memcpy(&s, bytes.data() + 2 * q, 2);
              if (f.swapped()) s = std::int16_t(__builtin_bswap16(std::uint16_t(s)));
              it->values.push_back(s);
            }
          } else {
            const std::vector<std::int64_t> v = f.integers(at, n, tag.c_str());
            it->values.insert(it->values.end(), v.begin(), v.end());
          }
        }
  }
  // (the last record found, so that a dump cut short within an array not read is said to be)
  if (r > 0) f.size(r - 1, "the last array");
  return d;
}

double header_value(const PhantomDump& d, const std::string& tag, double fallback, std::size_t k = 0) {
  const std::vector<double>* v = d.value(tag);
  return v && v->size() > k ? (*v)[k] : fallback;
}

}  // namespace

std::string phantom_type_name(int t, int idust) {
  if (t == phantom_sink_type) return "sinks";
  if (t >= idust && idust > 1) return t == idust ? "dust" : "dust (type " + std::to_string(t) + ")";
  switch (t) {
    case 1: return "gas";
    case 2: return "empty";
    case 3: return "boundary";
    case 4: return "stars";
    case 5: return "dark matter";
    case 6: return "bulge";
    default: return "type " + std::to_string(t);
  }
}

namespace {

Column named(const std::string& name, const std::string& type, bool sinks) {
  Column c;
  c.name = name;
  c.type = type;
  label_of(name, sinks, c.label, c.component);
  return c;
}

// The dump as columns per type: the particles by their type (iphase or itype, else the one type
// npartoftype counts), with mass and density derived; the sinks as type 0.
ColumnSnapshot assemble(PhantomDump& d, const ColumnWanted& wanted, bool values) {
  ColumnSnapshot s;
  s.path = d.path;
  const std::string version = std::to_string(whole(header_value(d, "majorv", 0), 0, 1 << 20)) + "." +
                              std::to_string(whole(header_value(d, "minorv", 0), 0, 1 << 20)) + "." +
                              std::to_string(whole(header_value(d, "microv", 0), 0, 1 << 20));
  const std::string code = d.sphng ? "sphNG" : "Phantom";
  s.description = code + " dump (" + d.kind + ", " + std::to_string(d.particles) + " particles, " +
                  std::to_string(d.sphng ? d.point_masses : d.sinks) +
                  (d.sphng        ? (d.point_masses == 1 ? " point mass)" : " point masses)")
                   : d.sinks == 1 ? " sink)"
                                  : " sinks)");
  s.time = header_value(d, "time", header_value(d, "gt", 0));
  const double udist = header_value(d, "udist", 0), umass = header_value(d, "umass", 0),
               utime = header_value(d, "utime", 0);
  s.units.code = "Phantom";
  s.units.source = "the dump's header (udist, umass, utime)";
  if (udist > 0 && umass > 0) {
    s.units.length_cm = udist;
    s.units.mass_g = umass;
    if (utime > 0) s.units.velocity_cm_s = udist / utime;
  }
  s.units.kernel = d.sphng ? "cubic spline (support 2h)" : "cubic spline (Phantom's default: support 2h)";
  s.header.emplace_back("fileident", d.fileident);
  if (header_value(d, "majorv", 0) > 0) s.header.emplace_back("Phantom version", version);
  for (const char* tag :
       {"iversion", "nparttot", "n1", "n2", "ntypes", "nptmass", "nblocks", "hfact", "gamma", "ieos", "time", "gt",
        "pmassinitial", "udist", "umass", "utime", "idust", "ndustlarge", "ndustsmall"}) {
    const std::vector<double>* v = d.value(tag);
    if (!v || v->empty()) continue;
    char text[40];
    std::snprintf(text, sizeof text, "%.10g", (*v)[0]);
    s.header.emplace_back(tag, text);
  }
  s.notes.push_back("h is " + code + "'s smoothing length: the kernel reaches to 2h (a map takes that support)");
  if (d.kind.find("untagged") != std::string::npos)
    s.notes.push_back("an untagged dump: its arrays are named by their place in " + code +
                      "'s format (as SPLASH names them); an array of no known place is named by it, e.g. real4_3");
  const int idust = d.sphng ? 7 : int(whole(header_value(d, "idust", 7), 0, phantom_max_type + 1));
  const double hfact = header_value(d, "hfact", 1.2);
  // (sphNG's small dumps hold the gas particles' mass in the header only)
  std::vector<double> sphng_mass;
  if (d.sphng && header_value(d, "pmassinitial", 0) > 0) sphng_mass = {header_value(d, "pmassinitial", 0)};
  const std::vector<double>* massoftype = d.sphng ? &sphng_mass : d.value("massoftype");
  const std::vector<double>* npartoftype = d.value("npartoftype");
  // Each particle's type.
  const std::size_t n = d.particles;
  if (values)
    for (const char* axis : {"x", "y", "z"}) {
      const auto it =
          std::find_if(d.arrays.begin(), d.arrays.end(), [&](const PhantomArray& a) { return a.name == axis; });
      if (n > 0 && (it == d.arrays.end() || it->values.size() != n))
        throw UserError("'" + d.path + "' holds no array " + axis + " of its " + std::to_string(n) +
                        " particles: the dump is damaged or not Phantom's");
    }
  std::vector<int> type(n, 1);
  const PhantomArray* iphase = nullptr;
  for (const PhantomArray& a : d.arrays)
    if (a.name == "iphase" || a.name == "itype") iphase = &a;
  int only = 1;  // without iphase: the one type npartoftype counts
  if (npartoftype)
    for (std::size_t t = 0; t < npartoftype->size(); ++t)
      if ((*npartoftype)[t] > 0) {
        only = int(t) + 1;
        break;
      }
  const PhantomArray* h = nullptr;
  for (const PhantomArray& a : d.arrays)
    if (a.name == "h") h = &a;
  std::size_t accreted = 0, dead = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int t = only;
    if (d.sphng && iphase && iphase->values.size() == n) {
      // sphNG's iphase: 0 gas, 1 to 9 point masses (sinks), 10 stars, 11 on dust, below 0 dead
      const double p = iphase->values[i];
      t = p == 0 ? 1 : p >= 1 && p <= 9 ? phantom_sink_type : p == 10 ? 4 : p >= 11 ? 7 : -1;
      if (t < 0) {
        type[i] = -1, ++dead;
        continue;
      }
    } else if (iphase && iphase->values.size() == n) {
      t = int(whole(std::abs(iphase->values[i]), 0, phantom_max_type + 1));
    }
    if (h && h->values.size() == n && !(h->values[i] > 0)) t = -1, ++accreted;  // accreted (h < 0)
    if (t > phantom_max_type) t = -1;
    type[i] = t;
  }
  if (accreted) s.notes.push_back(std::to_string(accreted) + " particles accreted onto sinks (h <= 0) are left out");
  if (dead) s.notes.push_back(std::to_string(dead) + " dead or accreted particles (iphase < 0) are left out");
  std::vector<int> present;
  if (d.sphng) present = {phantom_sink_type, 1};
  if (npartoftype && !d.sphng)
    for (std::size_t t = 0; t < npartoftype->size(); ++t) present.push_back(int(t) + 1);
  if (present.empty()) present.push_back(1);
  for (std::size_t i = 0; i < n && values; ++i)
    if (type[i] >= 0 && std::find(present.begin(), present.end(), type[i]) == present.end()) present.push_back(type[i]);
  std::sort(present.begin(), present.end());
  ColumnType sinks_type;  // (sphNG's point masses are particles: they are taken as a type below)
  sinks_type.file_type = phantom_sink_type;
  sinks_type.name = phantom_type_name(phantom_sink_type, idust);
  sinks_type.count = d.sinks;
  for (PhantomArray& a : d.sink_arrays) {
    Column c = named(a.name == "m" ? "m" : a.name, a.type, true);
    sinks_type.all_fields.push_back(a.name);
    if (!values) {
      sinks_type.columns.push_back(std::move(c));
      continue;
    }
    if (a.values.size() != d.sinks) continue;
    c.values.assign(a.values.begin(), a.values.end());
    sinks_type.columns.push_back(std::move(c));
  }
  if (!d.sphng) s.types.push_back(std::move(sinks_type));
  const auto has_array = [&](const char* label) {
    return std::any_of(d.arrays.begin(), d.arrays.end(), [&](const PhantomArray& a) {
      std::string l;
      int c;
      label_of(a.name, false, l, c);
      return l == label;
    });
  };
  for (int t : present) {
    ColumnType ct;
    ct.file_type = t;
    ct.name = phantom_type_name(t, idust);
    std::vector<std::size_t> members;
    if (values) {
      for (std::size_t i = 0; i < n; ++i)
        if (type[i] == t) members.push_back(i);
      ct.count = members.size();
    } else if (d.sphng) {
      ct.count = t == phantom_sink_type ? d.point_masses : t == 1 && n >= d.point_masses ? n - d.point_masses : 0;
    } else {
      ct.count = npartoftype && std::size_t(t - 1) < npartoftype->size()
                     ? std::size_t(whole((*npartoftype)[std::size_t(t - 1)], 0, std::int64_t(1) << 40))
                     : (t == 1 ? n : 0);
    }
    if (!wanted.wants_type(t) && values) {
      s.types.push_back(std::move(ct));
      continue;
    }
    const double mass = massoftype && std::size_t(t - 1) < massoftype->size() ? (*massoftype)[std::size_t(t - 1)] : 0;
    for (PhantomArray& a : d.arrays) {
      if (a.name == "iphase" || a.name == "itype") continue;
      ct.all_fields.push_back(a.name);
      Column c = named(a.name, a.type, false);
      if (values) {
        if (a.values.size() != n) continue;
        c.values.resize(members.size());
        for (std::size_t k = 0; k < members.size(); ++k) c.values[k] = float(a.values[members[k]]);
      }
      ct.columns.push_back(std::move(c));
    }
    if (mass > 0 && !has_array("MASS")) {  // mass and density from the header's massoftype and hfact
      Column m = named("mass", "float64", false), rho = named("density", "float64", false);
      ct.all_fields.push_back("mass");
      if (!has_array("RHO")) ct.all_fields.push_back("density");
      if (values) {
        m.values.assign(members.size(), float(mass));
        if (h && h->values.size() == n && !has_array("RHO") && (wanted.all || wanted.wants("density", "RHO", -1))) {
          rho.values.resize(members.size());
          for (std::size_t k = 0; k < members.size(); ++k)
            rho.values[k] = float(mass * std::pow(hfact / h->values[members[k]], 3));
        }
      }
      ct.columns.push_back(std::move(m));
      if ((!values && !has_array("RHO")) || !rho.values.empty()) ct.columns.push_back(std::move(rho));
    }
    if (!d.iorig.empty() || (!values && std::any_of(d.arrays.begin(), d.arrays.end(),
                                                    [](const PhantomArray& a) { return a.name == "iorig"; }))) {
      ct.id_name = "iorig";
      for (std::size_t i : members)
        if (i < d.iorig.size()) ct.ids.push_back(std::uint64_t(d.iorig[i]));
    }
    s.types.push_back(std::move(ct));
  }
  for (PhantomArray& a : d.arrays) std::vector<double>().swap(a.values);
  return s;
}

bool binary_start(const std::string& path) {
  try {
    InputFile f(path);
    if (f.size() < 32) return false;
    unsigned char b[32];
    f.read_at(b, 32, 0);
    for (bool swap : {false, true}) {
      const std::uint32_t marker = load<std::uint32_t>(b, swap);
      if (marker != 20 && marker != 24) continue;
      const std::int32_t first = load<std::int32_t>(b + 4, swap);
      if ((first == check1 || first == check3) && load<std::int32_t>(b + 4 + marker - 4, swap) == check3) return true;
    }
  } catch (const UserError&) {}
  return false;
}

PhantomDump read_dump(const std::string& path, const ColumnWanted& wanted, bool values) {
  if (binary_start(path)) return read_binary(path, wanted, values);
  if (is_phantom_hdf5(path)) return read_phantom_hdf5(path, wanted, values);
  throw UserError("'" + path +
                  "' is not a Phantom or sphNG dump (binary, tagged or not, of any format version) nor a "
                  "Phantom HDF5 dump");
}

}  // namespace

const std::vector<double>* PhantomDump::value(const std::string& tag) const {
  for (const auto& [t, v] : header)
    if (t == tag) return &v;
  return nullptr;
}

bool phantom_array_wanted(const std::string& name, bool sinks, const ColumnWanted& wanted) {
  if (wanted.all) return true;
  if (name == "x" || name == "y" || name == "z" || name == "h" || name == "iphase" || name == "itype") return true;
  std::string label;
  int component;
  label_of(name, sinks, label, component);
  return wanted.wants(name, label, component);
}

bool is_phantom_dump(const std::string& path) { return binary_start(path) || is_phantom_hdf5(path); }

ColumnSnapshot phantom_outline(const std::string& path) {
  ColumnWanted none;
  PhantomDump d = read_dump(path, none, false);
  return assemble(d, none, false);
}

ColumnSnapshot load_phantom(const std::string& path, const ColumnWanted& wanted, const ProgressCallback& progress) {
  PhantomDump d = read_dump(path, wanted, true);
  if (progress) progress(1.0);
  return assemble(d, wanted, true);
}

}  // namespace splotch
