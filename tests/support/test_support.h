// Small helpers shared by the test suites: a temporary directory, splats held in plain arrays,
// image comparison, running bin/splotch.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/image.h"
#include "io/particle_array.h"
#include "splotch/render/host_renderer.h"

namespace splotch::testing {

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/splotch_test_XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (!made) throw std::runtime_error("mkdtemp failed");
    path_ = made;
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string path(const std::string& name) const { return path_ + "/" + name; }
  std::string file(const std::string& name) const { return path(name); }
  // Writes `bytes` as they are (binary: "\r\n" stays) and returns the file's path.
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string file = path(name);
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + file);
    return file;
  }

 private:
  std::string path_;
};

inline bool file_exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

// ../shared/data (the real snapshots), or "" when this checkout has none beside it.
inline std::string real_data_dir() {
  for (const char* dir : {"../shared/data", "/work/shared/data"})
    if (testing::file_exists(std::string(dir) + "/README.md")) return dir;
  return "";
}

inline void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Splats as owned arrays; add() takes centre, pixel radius and emission.
struct SplatArrays {
  ParticleArray<float> x, y, r, e0, e1, e2;
  std::vector<std::uint32_t> key;  // draw keys (a_eq_e = FALSE); empty: draw in array order
  void add(float X, float Y, float radius, float red, float green, float blue) {
    x.push_back(X);
    y.push_back(Y);
    r.push_back(radius);
    e0.push_back(red);
    e1.push_back(green);
    e2.push_back(blue);
  }
  SplatView view() const {
    SplatView v;
    v.n = x.size();
    v.x = x.data();
    v.y = y.data();
    v.radius = r.data();
    v.e[0] = e0.data();
    v.e[1] = e1.data();
    v.e[2] = e2.data();
    if (!key.empty()) v.key = key.data();
    return v;
  }
};

// n splats with centres up to 20 pixels beyond a w x h image, radii in [min_radius, max_radius),
// colours in [0, 1): the same for the same arguments on every machine.
inline SplatArrays random_splats(int n, int w, int h, unsigned seed, float max_radius, float min_radius = 0.5f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> ux(-20.0f, float(w) + 20.0f), uy(-20.0f, float(h) + 20.0f);
  std::uniform_real_distribution<float> ur(min_radius, max_radius), ue(0.0f, 1.0f);
  SplatArrays s;
  for (int i = 0; i < n; ++i) s.add(ux(rng), uy(rng), ur(rng), ue(rng), ue(rng), ue(rng));
  return s;
}

inline float max_value(const Image& a) {
  float m = 0;
  for (float v : a.rgb) m = std::max(m, std::fabs(v));
  return m;
}

inline float max_abs_difference(const Image& a, const Image& b) {
  float m = 0;
  for (std::size_t i = 0; i < a.rgb.size(); ++i) m = std::max(m, std::fabs(a.rgb[i] - b.rgb[i]));
  return m;
}

// Two 8-bit pictures of one size: the largest difference of a channel, and the values lit in `a`.
struct PictureDifference {
  int largest = 0;
  std::size_t lit = 0;
};
inline PictureDifference picture_difference(const Image8& a, const Image8& b) {
  PictureDifference d;
  for (std::size_t i = 0; i < a.rgb.size() && i < b.rgb.size(); ++i) {
    d.largest = std::max(d.largest, std::abs(int(a.rgb[i]) - int(b.rgb[i])));
    d.lit += a.rgb[i] > 0;
  }
  return d;
}

// A .npy file's float32 values (the map writer's: a version 1 header, then the values); empty
// when it is not one.
inline std::vector<float> read_npy(const std::string& path) {
  const std::string bytes = read_file(path);
  if (bytes.size() < 10 || bytes.compare(1, 5, "NUMPY") != 0) return {};
  const std::size_t header =
      std::size_t(static_cast<unsigned char>(bytes[8])) | std::size_t(static_cast<unsigned char>(bytes[9])) << 8;
  const std::size_t start = 10 + header;
  if (start > bytes.size()) return {};
  std::vector<float> values((bytes.size() - start) / 4);
  std::memcpy(values.data(), bytes.data() + start, values.size() * 4);
  return values;
}

struct CommandResult {
  int status = -1;
  std::string out, err;
};

// Runs a shell command, capturing its standard output and error.
inline CommandResult run_command(const std::string& command) {
  TempDir dir;
  const std::string out = dir.file("out"), err = dir.file("err");
  const int raw = std::system((command + " >" + out + " 2>" + err).c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace splotch::testing
