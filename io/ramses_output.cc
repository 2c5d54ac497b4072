#include "io/ramses_output.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "errors/user_error.h"

namespace splotch {
namespace {

bool is_directory(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// "info_00010.txt" -> "00010"; "" for other names.
std::string info_number(const std::string& name) {
  if (name.size() != 14 || name.compare(0, 5, "info_") != 0 || name.compare(10, 4, ".txt") != 0) return "";
  const std::string n = name.substr(5, 5);
  for (char c : n)
    if (c < '0' || c > '9') return "";
  return n;
}

// The info file of the directory (the one whose number the directory's name ends in, where several).
std::string find_info(const std::string& directory) {
  std::vector<std::string> found;
  if (DIR* d = ::opendir(directory.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (!info_number(e->d_name).empty()) found.push_back(e->d_name);
    ::closedir(d);
  }
  if (found.empty()) return "";
  std::string dir = directory;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  for (const std::string& f : found)
    if (dir.size() >= 5 && dir.compare(dir.size() - 5, 5, info_number(f)) == 0) return directory + f;
  return directory + found.front();
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A descriptor: "# version: 1" then "ivar, name, kind" lines (new style), or "nvar = N" then
// "variable #  k: name" lines (RAMSES of 2017-2018).
std::vector<RamsesField> read_descriptor(const std::string& path) {
  std::vector<RamsesField> fields;
  for (const std::string& raw : lines_of(path)) {
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("variable #", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) fields.push_back({trim(line.substr(colon + 1)), 'd'});
      continue;
    }
    std::vector<std::string> parts;
    std::stringstream s(line);
    for (std::string part; std::getline(s, part, ',');) parts.push_back(trim(part));
    if (parts.size() >= 2 && !parts[0].empty() && std::isdigit(static_cast<unsigned char>(parts[0][0])))
      fields.push_back({parts[1], parts.size() >= 3 && !parts[2].empty() ? parts[2][0] : 'd'});
  }
  return fields;
}

// The header's "Particle fields" line (pos vel mass iord level family tag tform metal ...) as fields.
std::vector<RamsesField> header_particle_fields(const std::string& line, int ndim) {
  std::vector<RamsesField> out;
  std::stringstream s(line);
  static const char* const axes[] = {"_x", "_y", "_z"};
  for (std::string word; s >> word;) {
    if (word == "pos" || word == "vel") {
      for (int d = 0; d < ndim; ++d)
        out.push_back({std::string(word == "pos" ? "position" : "velocity") + axes[d], 'd'});
    } else if (word == "iord") {
      out.push_back({"identity", 'i'});
    } else if (word == "level") {
      out.push_back({"levelp", 'i'});
    } else if (word == "family" || word == "tag") {
      out.push_back({word, 'b'});
    } else if (word == "tform") {
      out.push_back({"birth_time", 'd'});
    } else if (word == "metal") {
      out.push_back({"metallicity", 'd'});
    } else if (word == "imass") {
      out.push_back({"initial_mass", 'd'});
    } else {
      out.push_back({word, 'd'});
    }
  }
  return out;
}

}  // namespace

std::string RamsesOutput::file_path(const std::string& kind, int cpu) const {
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, ".out%05d", cpu);
  return directory + kind + "_" + number + suffix;
}

// A cosmological run's time is conformal (negative) and its aexp below 1 before the end; RAMSES
// writes aexp = 1 otherwise.
bool RamsesOutput::cosmological() const { return (aexp > 0 && aexp != 1) || time < 0; }

bool is_ramses_output(const std::string& path) {
  if (is_directory(path)) return !find_info(path.back() == '/' ? path : path + "/").empty();
  const std::size_t slash = path.rfind('/');
  const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (!is_file(path)) return false;
  if (!info_number(name).empty()) return true;
  // One of its CPU files (amr_00010.out00003, ...): the output it is of.
  for (const char* kind : {"amr_", "hydro_", "part_", "grav_", "rt_"})
    if (name.rfind(kind, 0) == 0 && name.find(".out") != std::string::npos)
      return !find_info(slash == std::string::npos ? "./" : path.substr(0, slash + 1)).empty();
  return false;
}

std::vector<RamsesField> classic_hydro_fields(int ndim, int nvar) {
  std::vector<RamsesField> f{{"density", 'd'}};
  static const char* const axes[] = {"velocity_x", "velocity_y", "velocity_z"};
  for (int d = 0; d < ndim && d < 3; ++d) f.push_back({axes[d], 'd'});
  f.push_back({"pressure", 'd'});
  for (int k = 0; int(f.size()) < nvar; ++k) {  // (numbered from 0, as RAMSES' descriptors name them)
    char name[32];
    std::snprintf(name, sizeof name, "scalar_%02d", k);
    f.push_back({name, 'd'});
  }
  f.resize(std::size_t(std::max(nvar, 0)), RamsesField{});
  return f;
}

RamsesOutput open_ramses_output(const std::string& path) {
  RamsesOutput o;
  std::string directory = path, info;
  if (is_directory(path)) {
    if (directory.back() != '/') directory += '/';
    info = find_info(directory);
    if (info.empty())
      throw UserError("'" + path + "' is a directory without an info_NNNNN.txt: not a RAMSES output directory " +
                      "(name the output_NNNNN directory itself, or its info file)");
  } else {
    const std::size_t slash = path.rfind('/');
    directory = slash == std::string::npos ? "./" : path.substr(0, slash + 1);
    const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    info = info_number(name).empty() ? find_info(directory) : path;
    if (info.empty() || !is_file(info))
      throw UserError("'" + path + "': no info_NNNNN.txt beside it, so not a RAMSES output (simtype 13 reads an " +
                      "output_NNNNN directory: name it or its info file)");
  }
  o.directory = directory;
  o.info_path = info;
  o.number = info_number(info.substr(info.rfind('/') + 1));
  for (const std::string& raw : lines_of(info)) {
    const std::size_t eq = raw.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(raw.substr(0, eq)), value = trim(raw.substr(eq + 1));
    if (key == "ordering type") {
      o.ordering = value;
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end != value.c_str()) o.info[key] = v;
  }
  auto need = [&](const char* key) {
    const auto it = o.info.find(key);
    if (it == o.info.end())
      throw UserError("'" + info + "' has no line '" + key + " = ...': is it a RAMSES info file?");
    return it->second;
  };
  auto get = [&](const char* key, double fallback) {
    const auto it = o.info.find(key);
    return it == o.info.end() ? fallback : it->second;
  };
  o.ncpu = int(need("ncpu"));
  o.ndim = int(need("ndim"));
  if (o.ncpu < 1 || o.ncpu > 10000000 || o.ndim < 1 || o.ndim > 3)
    throw UserError("'" + info + "': ncpu = " + std::to_string(o.ncpu) + ", ndim = " + std::to_string(o.ndim) +
                    " are not those of a RAMSES output (ncpu from 1, ndim 1 to 3)");
  o.levelmin = int(get("levelmin", 0));
  o.levelmax = int(get("levelmax", 0));
  o.boxlen = get("boxlen", 1.0);
  o.time = get("time", 0.0);
  o.aexp = get("aexp", 1.0);
  o.h0 = get("H0", 0.0);
  o.unit_l = get("unit_l", 0.0);
  o.unit_d = get("unit_d", 0.0);
  o.unit_t = get("unit_t", 0.0);
  if (is_file(directory + "hydro_file_descriptor.txt")) {
    o.hydro_fields = read_descriptor(directory + "hydro_file_descriptor.txt");
    o.hydro_descriptor = !o.hydro_fields.empty();
  }
  const std::string header = directory + "header_" + o.number + ".txt";
  std::string fields_line;
  if (is_file(header)) {
    const std::vector<std::string> lines = lines_of(header);
    bool families = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string line = trim(lines[i]);
      if (line.rfind("#", 0) == 0 && line.find("Family") != std::string::npos) {
        families = true;
        continue;
      }
      if (line == "Particle fields") {
        families = false;
        if (i + 1 < lines.size()) fields_line = lines[i + 1];
        continue;
      }
      if (line.rfind("Total number of ", 0) == 0 && i + 1 < lines.size()) {
        o.family_counts[line.substr(16)] = std::strtoull(trim(lines[i + 1]).c_str(), nullptr, 10);
        continue;
      }
      if (families) {
        std::stringstream s(line);
        std::string name;
        std::uint64_t count = 0;
        if (s >> name >> count) o.family_counts[name] += count;
      }
    }
  }
  if (is_file(directory + "part_file_descriptor.txt")) {
    o.particle_fields = read_descriptor(directory + "part_file_descriptor.txt");
    o.particle_descriptor = !o.particle_fields.empty();
  }
  if (o.particle_fields.empty() && !fields_line.empty())
    o.particle_fields = header_particle_fields(fields_line, o.ndim);
  return o;
}

}  // namespace splotch
