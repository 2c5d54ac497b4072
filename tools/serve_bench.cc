// bin/splotch_serve_bench: drives a running `bin/splotch --serve` as the page does, replaying a
// recorded session (tests/bench/serve_session.txt: mouse moves and slider steps as reduced
// pictures, views at rest as full ones), one picture in flight at a time, and prints the latency
// of each kind: from the request sent to its last byte received, with the server's own drawing
// time beside it.
//
//   bin/splotch_serve_bench URL SESSION [ROUNDS]
//
// URL is the one the server printed (http://127.0.0.1:PORT/?token=...). The session is replayed
// ROUNDS times (default 3); the first round warms the server (the reduced share is made then) and
// is left out of the figures when there are more. A session's lines: `orbit dx dy`, `pan dx dy`,
// `zoom f`, `set key value` (each a reduced picture), `full` (a full one), `switch key value` (a
// full picture with the key set: a field chosen, row "switch") and `step key value` (a reduced
// one with it: the time slider dragged, row "step"). Prints one line per kind:
//   quality pictures median_ms p90_ms max_ms drawing_median_ms size particles
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct V {
  double x, y, z;
};
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator*(V a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
V unit(V a) { return a * (1 / std::sqrt(dot(a, a))); }
V rotate(V v, V k, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return v * c + cross(k, v) * s + k * (dot(k, v) * (1 - c));
}

// The view's keys, and the camera moves of the page (splotch/serve/serve_page.cc).
struct View {
  std::map<std::string, std::string> keys;
  V get(const std::string& n) const {
    return {std::stod(keys.at(n + "_x")), std::stod(keys.at(n + "_y")), std::stod(keys.at(n + "_z"))};
  }
  void put(const std::string& n, V v) {
    char text[40];
    for (const auto& [c, value] : {std::pair<const char*, double>{"_x", v.x}, {"_y", v.y}, {"_z", v.z}}) {
      std::snprintf(text, sizeof text, "%.9g", value);
      keys[n + c] = text;
    }
  }
  void orbit(double dx, double dy) {
    const V look = get("lookat"), sky = unit(get("sky"));
    V off = rotate(get("camera") - look, sky, -dx * 0.008);
    const V right = unit(cross(off * -1, sky));
    const V turned = rotate(off, right, -dy * 0.008);
    if (std::abs(dot(unit(turned), sky)) < 0.995) off = turned;
    put("camera", look + off);
  }
  void pan(double dx, double dy) {
    const V cam = get("camera"), look = get("lookat"), dir = look - cam;
    const V right = unit(cross(dir, get("sky"))), up = unit(cross(right, dir));
    const double scale =
        2 * std::sqrt(dot(dir, dir)) * std::tan(std::stod(keys["fov"]) * M_PI / 360) / std::stod(keys["yres"]);
    const V shift = right * (-dx * scale) + up * (dy * scale);
    put("camera", cam + shift);
    put("lookat", look + shift);
  }
  void zoom(double f) {
    const V look = get("lookat");
    put("camera", look + (get("camera") - look) * f);
  }
};

// The page's first keys: those of /info's "keys" (a flat object of strings).
std::map<std::string, std::string> info_keys(const std::string& json) {
  std::map<std::string, std::string> out;
  const std::size_t at = json.find("\"keys\":{");
  if (at == std::string::npos) return out;
  std::size_t p = at + 8;
  while (p < json.size() && json[p] == '"') {
    const std::size_t k_end = json.find('"', p + 1);
    const std::size_t v_start = json.find('"', k_end + 1);
    const std::size_t v_end = json.find('"', v_start + 1);
    out[json.substr(p + 1, k_end - p - 1)] = json.substr(v_start + 1, v_end - v_start - 1);
    p = v_end + 1;
    if (json[p] == ',') ++p;
  }
  return out;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(at);
  return lo + 1 < v.size() ? v[lo] + (at - double(lo)) * (v[lo + 1] - v[lo]) : v[lo];
}

struct Tally {
  std::vector<double> ms, drawing_ms;
  std::map<std::string, std::vector<double>> stages;  // ms, by stage (X-Splotch-Stages)
  std::string size, particles;
};

// The table's rows, one per quality, and the server's stages (medians in ms) on standard error.
void print_tallies(std::map<std::string, Tally>& tally) {
  for (const char* quality : {"full", "reduced", "switch", "step"}) {
    if (tally.count(quality) == 0) continue;
    const Tally& t = tally[quality];
    std::printf("%-8s %8zu %9.1f %9.1f %9.1f %11.1f %10s %12s\n", quality, t.ms.size(), percentile(t.ms, 0.5),
                percentile(t.ms, 0.9), t.ms.empty() ? 0.0 : *std::max_element(t.ms.begin(), t.ms.end()),
                percentile(t.drawing_ms, 0.5), t.size.c_str(), t.particles.c_str());
  }
  // The server's stages, medians in ms, on standard error (the table's rows stay one per quality).
  for (const char* quality : {"full", "reduced", "switch", "step"}) {
    if (tally.count(quality) == 0) continue;
    std::string line = std::string("stages (") + quality + ", ms):";
    for (const auto& [name, ms] : tally[quality].stages) {
      char text[64];
      std::snprintf(text, sizeof text, " %s %.1f", name.c_str(), percentile(ms, 0.5));
      line += text;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: splotch_serve_bench URL SESSION [ROUNDS]\n");
    return 1;
  }
  const std::string url = argv[1];
  const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  const std::size_t scheme = url.find("://"), path = url.find('/', scheme + 3), tok = url.find("token=");
  if (scheme == std::string::npos || path == std::string::npos || tok == std::string::npos) {
    std::fprintf(stderr, "splotch_serve_bench: '%s' is not the URL bin/splotch --serve printed\n", url.c_str());
    return 1;
  }
  const std::string host_port = url.substr(scheme + 3, path - scheme - 3), token = url.substr(tok + 6);
  const std::size_t colon = host_port.rfind(':');
  httplib::Client client(host_port.substr(0, colon), std::stoi(host_port.substr(colon + 1)));
  client.set_read_timeout(600, 0);
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);  // as browsers send
  const auto info = client.Get("/info?token=" + token);
  if (!info || info->status != 200) {
    std::fprintf(stderr, "splotch_serve_bench: no answer from %s\n", url.c_str());
    return 1;
  }
  std::ifstream session(argv[2]);
  if (!session) {
    std::fprintf(stderr, "splotch_serve_bench: cannot read the session '%s'\n", argv[2]);
    return 1;
  }
  std::vector<std::string> ops;
  for (std::string line; std::getline(session, line);)
    if (!line.empty() && line[0] != '#') ops.push_back(line);

  std::map<std::string, Tally> tally;
  const std::map<std::string, std::string> first = info_keys(info->body);
  for (int round = 0; round < rounds; ++round) {
    View view{first};
    for (const std::string& op : ops) {
      std::istringstream in(op);
      std::string what;
      in >> what;
      double a = 0, b = 0;
      std::string key, value;
      if (what == "orbit" && in >> a >> b)
        view.orbit(a, b);
      else if (what == "pan" && in >> a >> b)
        view.pan(a, b);
      else if (what == "zoom" && in >> a)
        view.zoom(a);
      else if ((what == "set" || what == "switch" || what == "step") && in >> key >> value)
        view.keys[key] = value;
      else if (what != "full") {
        std::fprintf(stderr, "splotch_serve_bench: %s: cannot read '%s'\n", argv[2], op.c_str());
        return 1;
      }
      const bool full = what == "full" || what == "switch";
      const std::string quality = what == "switch" || what == "step" ? what : full ? "full" : "reduced";
      httplib::Params params = {{"token", token}, {"client", "bench"}, {"quality", full ? "full" : "reduced"}};
      for (const auto& [k, v] : view.keys) params.emplace(k, v);
      const std::string target = "/view?" + httplib::detail::params_to_query_str(params);
      const auto start = std::chrono::steady_clock::now();
      const auto r = client.Get(target);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (!r || r->status != 200) {
        std::fprintf(stderr, "splotch_serve_bench: %s: %s\n", op.c_str(),
                     r ? (std::to_string(r->status) + " " + r->body).c_str() : "no answer");
        return 1;
      }
      if (round == 0 && rounds > 1) continue;
      Tally& t = tally[quality];
      t.ms.push_back(ms);
      t.drawing_ms.push_back(1000 * std::stod(r->get_header_value("X-Splotch-Seconds")));
      std::istringstream stages(r->get_header_value("X-Splotch-Stages"));
      for (std::string stage; stages >> stage;) {
        const std::size_t eq = stage.find('=');
        if (eq != std::string::npos) t.stages[stage.substr(0, eq)].push_back(1000 * std::stod(stage.substr(eq + 1)));
      }
      t.size = r->get_header_value("X-Splotch-Size");
      t.particles = r->get_header_value("X-Splotch-Particles");
    }
  }
  print_tallies(tally);
  return 0;
}
