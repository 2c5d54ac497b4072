// bin/splotch_path: writes a scene file (camera, lookat and sky per frame) for a common camera
// move, to give bin/splotch as scene_file. See splotch/scene/camera_path.h for the moves.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/scene/camera_path.h"

namespace {

using namespace splotch;

const char* const usage =
    "usage: bin/splotch_path MOVE key=value ... [out=scene.txt]   (the scene file goes to stdout without out=)\n"
    "  orbit  camera=X,Y,Z lookat=X,Y,Z [sky=0,0,1] frames=N [turns=1]\n"
    "         the camera circles lookat about the sky axis; a whole turn loops without a jump\n"
    "  fly    camera=\"X,Y,Z X,Y,Z ...\" lookat=\"X,Y,Z [...]\" [sky=0,0,1] frames=N [interpolation=catmull_rom]\n"
    "         camera (and lookat: one point, or as many as camera) through the points at an even speed;\n"
    "         interpolation = catmull_rom (smooth) or linear\n"
    "  zoom   camera=X,Y,Z lookat=X,Y,Z [sky=0,0,1] frames=N factor=F\n"
    "         the camera moves towards lookat to F times its distance, by equal ratios\n"
    "Then: bin/splotch scene.par scene_file=scene.txt\n";

std::vector<Vec3> points(const std::string& key, const std::string& text) {
  std::string spaced = text;
  for (char& c : spaced)
    if (c == ';') c = ' ';
  std::istringstream in(spaced);
  std::vector<Vec3> out;
  for (std::string word; in >> word;) {
    std::vector<double> v;
    std::istringstream parts(word);
    for (std::string part; std::getline(parts, part, ',');) v.push_back(parse_real(part, key));
    if (v.size() != 3) throw UserError(key + " = '" + word + "' is not a point X,Y,Z");
    out.push_back({v[0], v[1], v[2]});
  }
  if (out.empty()) throw UserError(key + " is empty; a point X,Y,Z is needed");
  return out;
}

int run(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(usage, args.empty() ? stderr : stdout);
    return args.empty() ? 1 : 0;
  }
  const std::string move = args[0];
  std::map<std::string, std::string> keys;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::size_t eq = args[i].find('=');
    if (eq == std::string::npos) throw UserError("'" + args[i] + "' is not key=value");
    keys[args[i].substr(0, eq)] = args[i].substr(eq + 1);
  }
  auto take = [&](const std::string& key, const std::string& fallback = "") {
    auto it = keys.find(key);
    if (it == keys.end()) {
      if (fallback.empty()) throw UserError(move + " needs " + key + "=...");
      return fallback;
    }
    const std::string v = it->second;
    keys.erase(it);
    return v;
  };
  const std::string out_path = take("out", "-");
  const int frames = int(parse_integer(take("frames"), "frames"));
  const Vec3 sky = points("sky", take("sky", "0,0,1"))[0];
  std::vector<CameraKey> path;
  if (move == "orbit" || move == "zoom") {
    CameraKey start{points("camera", take("camera"))[0], points("lookat", take("lookat"))[0], sky};
    path = move == "orbit" ? orbit_path(start, frames, parse_real(take("turns", "1"), "turns"))
                           : zoom_path(start, frames, parse_real(take("factor"), "factor"));
  } else if (move == "fly") {
    const std::string how = take("interpolation", "catmull_rom");
    if (how != "catmull_rom" && how != "linear")
      throw UserError("interpolation = " + how + " is not catmull_rom or linear");
    path = fly_path(points("camera", take("camera")), points("lookat", take("lookat")), sky, frames,
                    how == "linear" ? PathInterpolation::linear : PathInterpolation::catmull_rom);
  } else {
    throw UserError("'" + move + "' is not a move: orbit, fly or zoom (bin/splotch_path --help)");
  }
  if (!keys.empty())
    throw UserError("'" + keys.begin()->first + "' is not a key of " + move + " (bin/splotch_path --help)");
  const std::string text = scene_text(path);
  if (out_path == "-") {
    std::fputs(text.c_str(), stdout);
  } else {
    std::ofstream f(out_path);
    f << text;
    if (!f) throw UserError("cannot write '" + out_path + "'");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const splotch::UserError& e) {
    std::fprintf(stderr, "splotch_path: error: %s\n", e.what());
    return 1;
  }
}
