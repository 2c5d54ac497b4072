#include "splotch/serve/view_server.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "errors/user_error.h"
#include "io/image_writer.h"
#include "io/palette.h"
#include "params/number_text.h"
#include "splotch/frame/picture.h"
#include "splotch/frame/pipeline.h"
#include "splotch/serve/field_ranges.h"
#include "splotch/serve/json_text.h"
#include "splotch/serve/map_view.h"
#include "splotch/serve/work_budget.h"
#include "splotch/settings/settings.h"
#include "splotch/settings/starter_parameters.h"
#include "splotch/stages/map_units.h"
#include "splotch/util/stopwatch.h"

namespace splotch {
namespace {

// A header value: one line of printable ASCII.
std::string header_text(const std::string& s) {
  std::string out;
  for (const char c : s) out += (c >= 0x20 && c < 0x7f) ? c : ' ';
  return out.size() > 2000 ? out.substr(0, 2000) + "..." : out;
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", s);
  return text;
}

// The side of a reduced picture.
std::string reduced_side(const std::string& side, double scale) {
  const int full = std::stoi(side);
  return std::to_string(std::max(8, int(full * scale + 0.5)));
}

// The server shows one picture of one snapshot: a .par between two snapshots or of several views
// is refused, saying how to serve it.
void refuse_what_the_server_cannot_show(const Settings& s, const ParamFile& params, bool first) {
  if (s.interpolation.between && first)
    throw UserError(params.origin("fidx") + ": fidx = " + params.peek("fidx") +
                    " lies between two snapshots; the server's first picture is of one: give fidx a whole number "
                    "(the page's time slider draws the times between two snapshots of a series)");
  if (s.views.panorama || s.views.eye_separation_degrees != 0)
    throw UserError(std::string(s.views.panorama ? params.origin("panorama") + ": panorama = TRUE"
                                                 : params.origin("EyeSeparation") + ": EyeSeparation") +
                    " makes several pictures of a frame; the server shows one: leave it out (or 0 / FALSE) to serve "
                    "the snapshot, and render the views with bin/splotch");
  if (s.map.mode != MapMode::none && first)
    throw UserError(params.origin("map") + ": map = " + params.peek("map") +
                    ": the server's first picture is the .par's picture: leave map out to serve the snapshot, and "
                    "choose the map in the page (its map mode), or write the map with bin/splotch");
}

std::string series_list(const std::vector<int>& fidx) {
  std::string out;
  for (int k : fidx) out += (out.empty() ? "" : ",") + std::to_string(k);
  return out;
}

// The palette a map is shown through: type 0's (palette0), else the first offered ("fire" where
// the project's palettes are there).
std::string map_palette_path(const Settings& s, const std::vector<PaletteChoice>& offered) {
  if (!s.types.empty() && !s.types[0].palette_path.empty()) return s.types[0].palette_path;
  for (const PaletteChoice& c : offered)
    if (c.name == "fire") return c.path;
  if (offered.empty()) throw BadRequest("a map is shown through palette0, which this .par does not give: give one");
  return offered.front().path;
}

// The map's facts for the page (a map's picture): what and in what unit, its scale, a pixel's side.
void add_map_headers(std::vector<std::pair<std::string, std::string>>& headers, const MapFile& map,
                     const FigureScale& scale) {
  headers.push_back({"X-Splotch-Map", header_text(map.quantity)});
  headers.push_back({"X-Splotch-Map-Unit", header_text(map.unit)});
  headers.push_back({"X-Splotch-Map-Scale",
                     json_number(scale.lo) + " " + json_number(scale.hi) + " " + (scale.log ? "log" : "linear")});
  headers.push_back({"X-Splotch-Map-Pixel", json_number(map.pixel) + " " + header_text(map.length_unit)});
  // Where a pixel lies: the map's centre (lookat), its x and y axes (its rows grow with y), a
  // pixel's side, in the snapshot's coordinates.
  headers.push_back({"X-Splotch-Map-Frame", map_frame_text(map)});
}

// A .par that gives no brightness and no exposure (a user's first, as a rule) draws most snapshots
// black: its first picture takes exposure = auto, as bin/splotch does for such a .par (issue 36),
// and the factor found is the page's exposure (kept in the first picture's record).
bool first_picture_auto_exposed(ParamFile probe, int ptypes) {
  if (probe.has("exposure") || !probe.get<bool>("a_eq_e", true)) return false;
  for (int t = 0; t < ptypes; ++t)
    if (probe.has("brightness" + std::to_string(t))) return false;
  return true;
}

// The picture's times, renderer, counts, warnings and notes, for the page (X-Splotch-*).
std::vector<std::pair<std::string, std::string>> picture_headers(const RunReport& report, double pixels,
                                                                 const std::vector<std::string>& warnings) {
  std::string stages;
  for (const auto& [name, seconds] : report.stages)
    stages += (stages.empty() ? "" : " ") + name + "=" + seconds_text(seconds);
  std::vector<std::pair<std::string, std::string>> headers = {
      {"X-Splotch-Seconds", seconds_text(report.total_seconds)},
      {"X-Splotch-Stages", stages},
      {"X-Splotch-Renderer", header_text(report.renderer)},
      {"X-Splotch-Particles", std::to_string(report.particles_active)},
      {"X-Splotch-Splat-Pixels", json_number(pixels)},
      {"X-Splotch-Size", std::to_string(report.width) + "x" + std::to_string(report.height)}};
  auto joined = [](const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : " | ") + line;
    return header_text(text);
  };
  if (!warnings.empty()) headers.push_back({"X-Splotch-Warnings", joined(warnings)});
  if (!report.notes.empty()) headers.push_back({"X-Splotch-Notes", joined(report.notes)});
  if (!report.between.empty()) headers.push_back({"X-Splotch-Between", header_text(report.between)});
  return headers;
}

// The page's numbers over the picture (info_json): the length unit a scale bar is in (physical,
// as a map's axes: kpc where the file declares its units), the time and redshift, each type's
// colour field (as the first record names it), and each palette's colours as hex ("#rrggbb"), so
// that a colour bar is drawn in the page as the colour stage maps values.
std::string facts_json(const LoadedSnapshot* loaded, const ParamFile& first, int ptypes,
                       const std::vector<PaletteChoice>& palettes) {
  std::string out;
  if (loaded) {
    const ParticleSet& p = loaded->particles;
    const MapUnits u = map_units(MapMode::column, "MASS", "MASS", p.units, MapUnitOptions{});
    out += "\"length_unit\":" + json_string(u.length_name) + ",\"length_per_code\":" + json_number(u.length) +
           ",\"time\":" + json_number(p.time) +
           ",\"redshift\":" + (p.redshift >= 0 ? json_number(p.redshift) : "null") + ",";
  }
  std::string labels, vectors;
  for (int t = 0; t < ptypes; ++t) {
    const std::string key = "color_label" + std::to_string(t), vector = "color_is_vector" + std::to_string(t);
    labels += std::string(t ? "," : "") + json_string(first.has(key) ? first.peek(key) : "");
    // (a vector colour is drawn as read, without a palette: no colour bar)
    vectors +=
        std::string(t ? "," : "") + (first.has(vector) && parse_bool(first.peek(vector), vector) ? "true" : "false");
  }
  std::string colours;
  for (const PaletteChoice& c : palettes) {
    std::string list;
    try {
      const Palette palette = Palette::read(c.path);
      for (int i = 0; i < palette.size(); ++i) {
        const Rgb e = palette.entry(i);
        char hex[8];
        auto byte = [](float v) { return int(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
        std::snprintf(hex, sizeof hex, "#%02x%02x%02x", byte(e.r), byte(e.g), byte(e.b));
        list += std::string(list.empty() ? "" : ",") + json_string(hex);
      }
    } catch (const std::exception&) { continue; }  // (a palette that does not read is refused when chosen)
    colours += (colours.empty() ? "" : ",") + json_string(c.name) + ":[" + list + "]";
  }
  return out + "\"colour_labels\":[" + labels + "],\"colour_vector\":[" + vectors + "],\"palette_colours\":{" +
         colours + "}";
}

}  // namespace

ViewServer::ViewServer(ParamFile params, ViewServerOptions options)
    : base_(std::move(params)), options_(std::move(options)) {
  ParamFile probe = base_;
  ptypes_ = std::max(1, probe.get<int>("ptypes", 1));
  // A file named ..._NNN among others of its series: served as their stem and its number, so that
  // a browser's fidx names the others (and the record renders the same file).
  if (!options_.arrays) series_ = served_series(base_);
  if (!series_.stem.empty()) {
    base_.set("infile", series_.stem, "the server: the stem of a series of snapshots (fidx)");
    base_.set("fidx", std::to_string(series_.first), "the server: the file served, of its series");
  }
}

double ViewServer::work_budget() const {
  return std::max(options_.work_budget, options_.first_view_factor * first_pixels_);
}

ParamFile ViewServer::view_params(const ViewJob& job) const {
  ParamFile params = base_;
  params.leave_out_of_record("server");  // the record renders the picture: not the server again
  for (const auto& [key, value] : job.keys) params.set(key, value, "the browser");
  // A time between two snapshots of the series (the time slider dragged): drawn by the .par's
  // interpolation, else the linear one, over the series' step.
  // (browser_keys let a fidx that is no snapshot of the series through only between two of them)
  const auto fidx = std::find_if(job.keys.begin(), job.keys.end(), [](const auto& kv) { return kv.first == "fidx"; });
  if (fidx != job.keys.end() && series_.step > 0) {
    const double number = std::strtod(fidx->second.c_str(), nullptr);
    if (number != std::floor(number) ||
        std::find(series_.fidx.begin(), series_.fidx.end(), int(number)) == series_.fidx.end()) {
      ParamFile probe = params;
      if (probe.get<int>("interpolation_mode", 0) == 0)
        params.set("interpolation_mode", "1", "the server: a time between two snapshots of the series");
      // (the series' step whatever the .par says: the snapshots between are those it serves)
      params.set("snapshot_spacing", std::to_string(series_.step), "the server: the series' step");
    }
  }
  if (!started_ && first_picture_auto_exposed(params, ptypes_))
    params.set("exposure", "auto", "the server: the .par gives no brightness and no exposure");
  if (job.reduced) {
    // The full picture's sides (the browser's, or the .par's), reduced.
    ParamFile probe = params;
    const int xres = probe.get<int>("xres", 800);
    const int yres = probe.get<int>("yres", xres);
    params.set("xres", reduced_side(std::to_string(xres), options_.reduced_scale), "the browser (reduced)");
    params.set("yres", reduced_side(std::to_string(yres), options_.reduced_scale), "the browser (reduced)");
  }
  if (job.frame >= 0 && !job.outfile.empty())
    params.set("outfile", job.outfile, "the server: the movie's name (never another's)");
  return params;
}

ViewServer::Drawn ViewServer::draw_frame(const ViewJob& job, ParamFile& params, Console& console) {
  FrameOptions frame;
  frame.warn_unused = false;
  // A browser's picture no longer wanted stops drawing too (and is dropped before its encoding); a
  // movie's frame is written, as a scene's frame of that number is, so it is drawn whole.
  if (job.frame < 0) frame.stop = job.cancelled.get();
  frame.frames = 1000;  // renderer = auto: the GPU's start pays over the pictures of a session
  frame.keep_pictures = job.frame < 0;
  frame.map_figures = false;  // (the page's map is drawn by map_view, without the figure's panel)
  frame.in_scene = job.frame >= 0;
  frame.number = std::max(job.frame, 0);
  frame.arrays = options_.arrays;
  // (The .par's own picture is the user's to ask for: it sets a floor to the budget instead.)
  const DrawLimits limits{job.cancelled.get(), started_ ? work_budget() : HUGE_VAL};
  FrameRun run(params, console, session_, frame);
  const Settings& s = run.plan().settings;
  refuse_what_the_server_cannot_show(s, params, !started_);
  if (!job.wanted()) throw ViewCancelled();
  // A reduced map is smaller, of every particle: a map of a share would be a share of the mass.
  const bool map = s.map.mode != MapMode::none;
  run.load(held_.source(run.plan(), console, job.reduced && !map ? options_.reduced_share : 1.0, limits,
                        session_.gpu_copies()));
  Drawn drawn{run.draw(), {}, {}, {}, {}, {}, {}, {}};
  if (!map && !s.interpolation.between && !job.reduced && job.frame < 0 && has_particle_types(s.input.format)) {
    drawn.ranged_path = s.input.path;
    for (std::size_t t = 0; t < s.input.typed.types.size(); ++t) {
      const RenderTypeRequest& r = s.input.typed.types[t];
      if (!r.vector_colour) drawn.fields_read.push_back({int(t), r.colour.label, true, r.colour.factor});
      drawn.fields_read.push_back({int(t), r.intensity.label, false, r.intensity.factor});
    }
  }
  // The encoding is the picture's write (a movie's frame, written, has it in its stage write).
  Stopwatch encoding;
  for (KeptPicture& picture : run.take_pictures()) {
    if (!job.wanted()) throw ViewCancelled();  // (a large picture's encoding takes a while)
    drawn.bytes =
        encode_image(to_8bit(picture.image), job.reduced ? ImageFormat::jpeg : ImageFormat::png, options_.jpeg_quality);
    drawn.ranges = picture.ranges;
    if (!job.reduced) {
      drawn.record = used_par_text(params, drawn.ranges);
      if (options_.arrays) drawn.record = record_of_arrays(std::move(drawn.record));
    }
  }
  for (KeptMap& kept : run.take_maps()) {
    if (!job.wanted()) throw ViewCancelled();
    const std::string path = map_palette_path(s, palettes_);
    auto palette = map_palettes_.find(path);  // (read once, not at every view)
    if (palette == map_palettes_.end()) palette = map_palettes_.emplace(path, Palette::read(path)).first;
    const MapView shown = map_view(kept.record, palette->second, s.map.log, s.map.min, s.map.max);
    drawn.bytes = encode_image(shown.image, job.reduced ? ImageFormat::jpeg : ImageFormat::png, options_.jpeg_quality);
    drawn.map_scale = shown.scale;
    drawn.map = std::move(kept.record);
    if (!job.reduced) {
      drawn.record = used_par_text(params, drawn.ranges);
      if (options_.arrays) drawn.record = record_of_arrays(std::move(drawn.record));
    }
  }
  const double encoded = encoding.seconds();
  add_seconds(drawn.report.stages, "write", encoded);
  drawn.report.total_seconds += encoded;
  return drawn;
}

ViewResult ViewServer::draw(const ViewJob& job) {
  if (!job.wanted()) throw ViewCancelled();
  omp_set_dynamic(0);  // as main sets it, on this thread of the queue's
  ParamFile params = view_params(job);
  Console console(Console::Holding{});
  Drawn drawn;
  try {
    drawn = draw_frame(job, params, console);
  } catch (const UserError& e) {
    if (!started_) throw;
    return {400, "text/plain", std::string("splotch: error: ") + e.what() + "\n", {}, nullptr};
  } catch (const BadRequest& e) { return {400, "text/plain", std::string("splotch: ") + e.what() + "\n", {}, nullptr}; }
  const RunReport& report = drawn.report;
  if (job.frame >= 0) return {200, "text/plain", report.image_path, {}, nullptr};
  ViewResult out{
      200, job.reduced ? "image/jpeg" : "image/png", std::string(drawn.bytes.begin(), drawn.bytes.end()), {}, nullptr};
  const double pixels = held_.splat_pixels();
  out.headers = picture_headers(report, pixels, console.held_warnings());
  if (drawn.map) add_map_headers(out.headers, *drawn.map, drawn.map_scale);
  // The snapshot drawn (of a series: the page's numbers say its time; between two, the time between).
  if (const ParticleSet* drawn_particles = held_.drawn()) {
    out.headers.push_back({"X-Splotch-Time", json_number(drawn_particles->time)});
    // (physical lengths per code length change with the scale factor along a cosmological series)
    const MapUnits u = map_units(MapMode::column, "MASS", "MASS", drawn_particles->units, MapUnitOptions{});
    out.headers.push_back({"X-Splotch-Length", json_number(u.length) + " " + u.length_name});
    if (drawn_particles->redshift >= 0)
      out.headers.push_back({"X-Splotch-Redshift", json_number(drawn_particles->redshift)});
  }
  // A movie's frame costs what this picture did but the snapshot's read and the plan (the first
  // picture's, with the wait for the search for the GPU).
  double seconds = report.total_seconds;
  for (const auto& [name, stage_seconds] : report.stages)
    if (name == "read" || name == "plan") seconds -= stage_seconds;
  const PictureCost cost{std::max(seconds, 0.0), double(out.body.size()), report.width, report.height};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) remember_first_picture(drawn, pixels, cost);
    if (!job.reduced) remember_record(job.client, drawn, cost);
  }
  note_field_ranges(drawn);
  return out;
}

void ViewServer::remember_first_picture(const Drawn& drawn, double pixels, const PictureCost& cost) {
  const RunReport& report = drawn.report;
  // renderer = auto chose for the first picture, for a session of many: later pictures (and
  // their records, which bin/splotch renders again) are drawn by the renderer it chose.
  if (report.renderer.rfind("cuda", 0) == 0) base_.set("renderer", "cuda", "the server: renderer = auto chose it");
  // A .par larger than the browser's limit keeps its own size.
  options_.limits.max_side = std::max({options_.limits.max_side, report.width, report.height});
  // The first picture's camera placed from the data (the .par has none) is every later view's, but
  // for the keys a view gives: a view that moves the camera alone keeps lookat. As the record
  // writes it (number_text), so that a later record renders the same picture.
  if (const std::optional<PlacedCamera>& placed = report.placed_camera) {
    auto keep = [&](const std::string& name, Vec3 v) {
      const double axes[] = {v.x, v.y, v.z};
      for (int a = 0; a < 3; ++a) {
        const std::string key = name + "_" + "xyz"[a];
        if (!base_.has(key)) base_.set(key, number_text(axes[a]), "the first picture (placed from the data)");
      }
    };
    keep("camera", placed->position);
    if (placed->lookat_placed) keep("lookat", placed->lookat);
    if (placed->sky_placed) keep("sky", placed->sky);
  }
  // The palettes offered: the .par's own (as its record resolved them) and the directory's.
  const ParamFile first = ParamFile::parse(drawn.record, "the first picture's record");
  std::vector<std::string> named;
  for (int t = 0; t < ptypes_; ++t)
    if (first.has("palette" + std::to_string(t))) named.push_back(first.peek("palette" + std::to_string(t)));
  palettes_ = palette_choices(options_.palette_directory, named);
  fields_ = served_fields(first, ptypes_, options_.arrays);
  for (const std::string& k : browser_key_names(ptypes_))
    if (first.has(k)) first_values_[k] = first.peek(k);
  first_facts_ = facts_json(held_.loaded(), first, ptypes_, palettes_);
  first_record_ = drawn.record;
  first_ranges_ = drawn.ranges;
  first_pixels_ = pixels;
  first_cost_ = cost;
  started_ = true;
}

void ViewServer::note_field_ranges(const Drawn& drawn) {
  const LoadedSnapshot* loaded = held_.loaded();
  if (!loaded || drawn.fields_read.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ranged_path_ != drawn.ranged_path) field_ranges_.clear(), ranged_path_ = drawn.ranged_path;
  }
  for (const Drawn::FieldRead& f : drawn.fields_read) {
    if (f.label.empty() || std::size_t(f.type) >= fields_.names.size()) continue;
    const std::vector<std::string>& listed = fields_.names[std::size_t(f.type)];
    if (std::find(listed.begin(), listed.end(), f.label) == listed.end()) continue;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (field_ranges_.count({f.type, f.label})) continue;
    }
    if (const auto range = raw_range(*loaded, f.type, f.colour)) {
      // (the values as read are times the .par's factor; the list's in the field's unit, of this
      // snapshot's scale factor)
      const double to_unit = field_unit(f.label, loaded->particles.units).per_code / f.factor;
      std::lock_guard<std::mutex> lock(mutex_);
      field_ranges_[{f.type, f.label}] = {range->first * to_unit, range->second * to_unit};
    }
  }
}

void ViewServer::remember_record(const std::string& client, const Drawn& drawn, const PictureCost& cost) {
  ranges_[client] = drawn.ranges;
  // The last full map of a few browsers only: one is megabytes (64 MB at 4096 x 4096).
  map_order_.erase(std::remove(map_order_.begin(), map_order_.end(), client), map_order_.end());
  if (drawn.map) {
    maps_[client] = *drawn.map;
    map_order_.push_back(client);
    while (map_order_.size() > 4) {
      maps_.erase(map_order_.front());
      map_order_.pop_front();
    }
  } else {
    maps_.erase(client);
  }
  costs_[client] = cost;
  if (!records_.count(client)) record_order_.push_back(client);
  records_[client] = drawn.record;
  while (records_.size() > options_.max_records) {
    records_.erase(record_order_.front());
    ranges_.erase(record_order_.front());
    costs_.erase(record_order_.front());
    record_order_.pop_front();
  }
}

std::optional<MapFile> ViewServer::last_map(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = maps_.find(client);
  if (it == maps_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> ViewServer::used_par(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = records_.find(client);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

MoviePlan ViewServer::plan_movie(const std::string& client, int frames, const KeyValues& keys) const {
  ParamFile params = base_;
  for (const auto& [key, value] : keys) params.set(key, value, "the browser");
  const int xres = params.get<int>("xres", 800), yres = params.get<int>("yres", xres);
  const std::string outfile = params.has("outfile") ? params.peek("outfile") : "";
  const bool pictype_given = params.has("pictype");
  const int pictype = params.get<int>("pictype", 0);
  const std::string name = unused_movie_name(outfile, pictype, pictype_given);
  const std::filesystem::path dir = std::filesystem::absolute(name).parent_path();
  std::error_code error;
  const double free =
      options_.free_bytes ? options_.free_bytes(dir.string()) : double(std::filesystem::space(dir, error).available);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto own = costs_.find(client);
  return splotch::plan_movie(frames, xres, yres, own != costs_.end() ? own->second : first_cost_, name, pictype,
                             pictype_given, error ? HUGE_VAL : free);  // (unknown: the write says)
}

std::string ViewServer::info_json(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The client's last full picture's ranges (the first picture's before it has one, or once its
  // record went to make room for other browsers').
  const auto own = ranges_.find(client);
  const NormalizedRanges& ranges = own != ranges_.end() ? own->second : first_ranges_;
  const ParamFile first = ParamFile::parse(first_record_, "the first picture's record");
  std::string keys;
  for (const std::string& k : browser_key_names(ptypes_)) {
    if (!first.has(k)) continue;
    std::string value = canonical_value(k, first.peek(k));
    if (k.compare(0, 7, "palette") == 0)
      for (const PaletteChoice& p : palettes_)
        if (p.path == value) value = p.name;
    keys += (keys.empty() ? "" : ",") + json_string(k) + ":" + json_string(value);
  }
  std::string palettes;
  for (const PaletteChoice& p : palettes_) palettes += (palettes.empty() ? "" : ",") + json_string(p.name);
  std::string types;
  for (int t = 0; t < ptypes_; ++t) {
    auto range = [&](const std::vector<TypeRanges>& r, bool colour) {
      if (std::size_t(t) >= r.size()) return std::string("null");
      const ValueRange& v = colour ? r[t].colour : r[t].intensity;
      return v.empty() ? std::string("null") : "[" + json_number(v.min) + "," + json_number(v.max) + "]";
    };
    std::string fields, units, field_ranges;
    if (std::size_t(t) < fields_.names.size())
      for (std::size_t k = 0; k < fields_.names[std::size_t(t)].size(); ++k) {
        const std::string& f = fields_.names[std::size_t(t)][k];
        fields += (fields.empty() ? "" : ",") + json_string(f);
        units += (units.empty() ? "" : ",") + json_string(fields_.units[std::size_t(t)][k]);
        const auto known = field_ranges_.find({t, f});
        if (known != field_ranges_.end())
          field_ranges += (field_ranges.empty() ? "" : ",") + json_string(f) + ":[" + json_number(known->second.first) +
                          "," + json_number(known->second.second) + "]";
      }
    types += std::string(t ? "," : "") + "{\"fields\":[" + fields + "],\"field_units\":[" + units +
             "],\"field_ranges\":{" + field_ranges + "},\"colour_data\":" + range(ranges.data, true) +
             ",\"intensity_data\":" + range(ranges.data, false) + ",\"colour_used\":" + range(ranges.used, true) +
             ",\"intensity_used\":" + range(ranges.used, false) + "}";
  }
  // What the page's title names: the snapshot (the caller's name for arrays in memory).
  const std::string snapshot = options_.arrays       ? options_.arrays->path
                               : first.has("infile") ? first.peek("infile")
                                                     : "";
  return "{\"ptypes\":" + std::to_string(ptypes_) + ",\"snapshot\":" + json_string(snapshot) +
         ",\"fields_note\":" + json_string(fields_.note) + ",\"series\":[" + series_list(series_.fidx) +
         "],\"series_step\":" + std::to_string(series_.step) + ",\"fidx\":" + std::to_string(series_.first) +
         (first_facts_.empty() ? "" : "," + first_facts_) + ",\"types\":[" + types + "],\"palettes\":[" + palettes +
         "],\"keys\":{" + keys + "},\"max_side\":" + std::to_string(options_.limits.max_side) + "}";
}

}  // namespace splotch
