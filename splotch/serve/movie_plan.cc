#include "splotch/serve/movie_plan.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "splotch/serve/json_text.h"
#include "splotch/settings/settings.h"

namespace splotch {
namespace {

std::string frame_path(const std::string& outfile, int pictype, bool pictype_given, int frame) {
  return output_name(outfile, pictype, pictype_given, frame, true).path;
}

// Whether the directory of `outfile`'s frames holds a frame of that name (any number).
bool has_frames(const std::string& outfile, int pictype, bool pictype_given) {
  const std::string first = frame_path(outfile, pictype, pictype_given, 0);
  const std::size_t number = first.rfind("0000");
  const std::filesystem::path prefix(first.substr(0, number));
  const std::string stem = prefix.filename().string(), suffix = first.substr(number + 4);
  const std::filesystem::path dir = prefix.has_parent_path() ? prefix.parent_path() : ".";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < stem.size() + 4 + suffix.size() || name.compare(0, stem.size(), stem) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string digits = name.substr(stem.size(), name.size() - stem.size() - suffix.size());
    if (std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) return true;
  }
  return false;
}

// name_k_ before the image extension (or at the end of a name without one).
std::string numbered(const std::string& outfile, int k) {
  const std::filesystem::path p(outfile);
  std::string ext = p.extension().string();
  std::string lower = ext;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower != ".png" && lower != ".jpg" && lower != ".jpeg" && lower != ".tga" && lower != ".ppm") ext.clear();
  return outfile.substr(0, outfile.size() - ext.size()) + "_" + std::to_string(k) + "_" + ext;
}

}  // namespace

std::string unused_movie_name(const std::string& outfile, int pictype, bool pictype_given) {
  std::string name = outfile;
  for (int k = 2; has_frames(name, pictype, pictype_given); ++k) name = numbered(outfile, k);
  return name;
}

MoviePlan plan_movie(int frames, int width, int height, const PictureCost& last, const std::string& outfile,
                     int pictype, bool pictype_given, double free_bytes) {
  MoviePlan plan;
  plan.frames = frames;
  plan.width = width;
  plan.height = height;
  const double scale =
      last.width > 0 && last.height > 0 ? double(width) * height / (double(last.width) * last.height) : 1;
  plan.seconds = frames * last.seconds * scale;
  plan.bytes = frames * last.bytes * scale;
  plan.free_bytes = free_bytes;
  plan.outfile = outfile;
  plan.first_file = frame_path(outfile, pictype, pictype_given, 0);
  plan.last_file = frame_path(outfile, pictype, pictype_given, std::max(frames - 1, 0));
  return plan;
}

std::string movie_plan_json(const MoviePlan& p) {
  return "{\"frames\":" + std::to_string(p.frames) + ",\"width\":" + std::to_string(p.width) +
         ",\"height\":" + std::to_string(p.height) + ",\"seconds\":" + json_number(p.seconds) +
         ",\"bytes\":" + json_number(p.bytes) + ",\"free_bytes\":" + json_number(p.free_bytes) +
         ",\"fits\":" + (p.fits() ? "true" : "false") + ",\"first_file\":" + json_string(p.first_file) +
         ",\"last_file\":" + json_string(p.last_file) + "}";
}

}  // namespace splotch
