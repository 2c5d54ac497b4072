// Settings: parameter files (built as text, named "t.par") turned into the stages' options.
// Checks the documented defaults of docs/design.md section 3, the output name of section 4, and that
// every invalid value is rejected with a message naming the key and, where the key was given,
// the file and line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "errors/user_error.h"
#include "params/param_file.h"
#include "splotch/settings/settings.h"
#include "tests/support/test_support.h"

using splotch::ImageFormat;
using splotch::output_name;
using splotch::OutputName;
using splotch::ParamFile;
using splotch::RawOptions;
using splotch::read_settings;
using splotch::read_snapshot_request;
using splotch::RendererChoice;
using splotch::Settings;
using splotch::SortOrder;
using splotch::UserError;

using splotch::testing::TempDir;

namespace {

// The text of a parameter file, one key per line, so that each key's line number is known.
class ParText {
 public:
  // A minimal raw-table file: everything else takes its default.
  explicit ParText(const std::string& outfile) {
    lines_ = {{"simtype", "0"},
              {"infile", "particles.bin"},
              {"num_blocks", "4"},
              {"x", "1"},
              {"y", "2"},
              {"z", "3"},
              {"palette0", "testdata/palettes/grey.pal"},
              {"camera_x", "0"},
              {"camera_y", "-10"},
              {"camera_z", "0"},
              {"lookat_x", "0"},
              {"lookat_y", "0"},
              {"lookat_z", "0"},
              {"outfile", outfile}};
  }
  // Replaces the value of `key` on its line, or appends a line.
  ParText& set(const std::string& key, const std::string& value) {
    for (auto& kv : lines_)
      if (kv.first == key) {
        kv.second = value;
        return *this;
      }
    lines_.emplace_back(key, value);
    return *this;
  }
  ParText& remove(const std::string& key) {
    for (auto it = lines_.begin(); it != lines_.end(); ++it)
      if (it->first == key) {
        lines_.erase(it);
        break;
      }
    return *this;
  }
  // "t.par:LINE: key", as messages about the key begin.
  std::string where(const std::string& key) const {
    for (std::size_t i = 0; i < lines_.size(); ++i)
      if (lines_[i].first == key) return "t.par:" + std::to_string(i + 1) + ": " + key;
    throw std::logic_error("no key " + key);
  }
  ParamFile params() const {
    std::string text;
    for (const auto& kv : lines_) text += kv.first + " = " + kv.second + "\n";
    return ParamFile::parse(text, "t.par");
  }

 private:
  std::vector<std::pair<std::string, std::string>> lines_;
};

Settings settings_of(const ParText& text, int frame = 0, bool gpu_available = false) {
  ParamFile p = text.params();
  splotch::SettingsFor context;
  context.frame = frame;
  context.gpu_available = gpu_available;
  return read_settings(p, context);
}

}  // namespace

TEST_CASE("read_settings defaults of a minimal raw parameter file") {
  const TempDir dir;
  ParText text(dir.path("demo"));
  ParamFile p = text.params();
  const Settings s = read_settings(p);

  SUBCASE("input") {
    CHECK(s.input.format == splotch::SnapshotFormat::raw_table);
    CHECK(s.input.path == "particles.bin");
    CHECK(s.input.ptypes == 1);
    CHECK(s.input.periodic == true);
    const RawOptions& raw = s.input.raw;
    CHECK(raw.layout == RawOptions::Layout::table);
    CHECK(raw.num_fields == 4);
    CHECK(raw.x == 0);
    CHECK(raw.y == 1);
    CHECK(raw.z == 2);
    CHECK(raw.hsml == -1);
    CHECK(raw.intensity == -1);
    CHECK(raw.colour[0] == -1);
    CHECK(raw.vector_colour == false);
    CHECK(raw.swap_endian == true);
    CHECK(raw.smooth_factor == 1.0f);
  }
  SUBCASE("type 0") {
    REQUIRE(s.types.size() == 1);
    CHECK(s.types[0].vector_colour == false);
    CHECK(s.types[0].palette_path == "testdata/palettes/grey.pal");
    CHECK(s.types[0].brightness == 1.0f);
    CHECK(s.types[0].smooth_factor == 1.0f);
    CHECK(s.types[0].normalization.color_log == false);
    CHECK(s.types[0].normalization.color_asinh == false);
    CHECK(s.types[0].normalization.intensity_log == false);
    CHECK_FALSE(s.types[0].normalization.color_min.has_value());
    CHECK_FALSE(s.types[0].normalization.intensity_max.has_value());
  }
  SUBCASE("camera") {
    CHECK(s.camera.fov_degrees == 45.0);
    CHECK(s.camera.xres == 800);
    CHECK(s.camera.yres == 800);
    CHECK(s.camera.sky.x == 0.0);
    CHECK(s.camera.sky.y == 0.0);
    CHECK(s.camera.sky.z == 1.0);
    CHECK(s.camera.position.y == -10.0);
    CHECK(s.camera.center.x == 0.0);
    CHECK(s.camera.center.y == -10.0);
    CHECK(s.camera.center.z == 0.0);
    CHECK(s.camera.perspective == true);
    CHECK(s.camera.zmin == 0.0);
    CHECK(s.camera.zmax == 1e23);
  }
  SUBCASE("render and output") {
    CHECK(s.render.a_eq_e == true);
    CHECK(s.render.gray_absorption == 0.2f);
    CHECK(s.minrad_pix == 1.0f);
    CHECK(s.sort == SortOrder::depth);  // sort_type's default; it matters only for a_eq_e = FALSE
    CHECK(s.renderer == RendererChoice::host);
    CHECK(s.output.path == dir.path("demo0000.tga"));
    CHECK(s.output.format == ImageFormat::tga);
    CHECK(s.output.colour_bar == false);
    CHECK(s.output.gamma == 1.0);
    CHECK(s.output.contrast == 1.0);
    CHECK(s.output.brightness == 0.0);
    CHECK(s.warnings.empty());
  }
  SUBCASE("every given key was read") { CHECK(p.unused_keys().empty()); }
}

// The demo's .par, to change.
struct GivenValues {
  const TempDir dir;
  ParText text{dir.path("demo")};
};

TEST_CASE_FIXTURE(GivenValues, "read_settings given values: the camera, the input, colours") {
  SUBCASE("yres follows xres") {
    const Settings s = settings_of(text.set("xres", "300"));
    CHECK(s.camera.xres == 300);
    CHECK(s.camera.yres == 300);
    CHECK(settings_of(text.set("yres", "200")).camera.yres == 200);
  }
  SUBCASE("center given") {
    const Settings s = settings_of(text.set("center_x", "1").set("center_y", "-5").set("center_z", "2"));
    CHECK(s.camera.center.x == 1.0);
    CHECK(s.camera.center.y == -5.0);
    CHECK(s.camera.center.z == 2.0);
    CHECK(s.camera.position.y == -10.0);
  }
  SUBCASE("sort by depth unless sort_type says otherwise") {
    CHECK(settings_of(text.set("a_eq_e", "FALSE")).sort == SortOrder::depth);
    CHECK(settings_of(text.set("sort_type", "4")).sort == SortOrder::radius_descending);
    CHECK(settings_of(text.set("sort_type", "0")).sort == SortOrder::none);
  }
  SUBCASE("raw columns, simtype 1, swap_endian, smooth_factor") {
    const Settings s = settings_of(text.set("simtype", "1")
                                       .set("num_blocks", "6")
                                       .set("r", "4")
                                       .set("I", "6")
                                       .set("C1", "5")
                                       .set("swap_endian", "FALSE")
                                       .set("smooth_factor", "2.5"));
    CHECK(s.input.raw.layout == RawOptions::Layout::blocks);
    CHECK(s.input.raw.num_fields == 6);
    CHECK(s.input.raw.hsml == 3);
    CHECK(s.input.raw.intensity == 5);
    CHECK(s.input.raw.colour[0] == 4);
    CHECK(s.input.raw.swap_endian == false);
    CHECK(s.input.raw.smooth_factor == 2.5f);
  }
  SUBCASE("a column of 0 means absent, as in the original") {
    CHECK(settings_of(text.set("r", "0")).input.raw.hsml == -1);
  }
  SUBCASE("vector colours need no palette and read C2 and C3") {
    const Settings s = settings_of(
        text.remove("palette0").set("color_is_vector0", "TRUE").set("C1", "2").set("C2", "3").set("C3", "4"));
    CHECK(s.types[0].vector_colour == true);
    CHECK(s.types[0].palette_path.empty());
    CHECK(s.input.raw.vector_colour == true);
    CHECK(s.input.raw.colour[0] == 1);
    CHECK(s.input.raw.colour[1] == 2);
    CHECK(s.input.raw.colour[2] == 3);
  }
}

TEST_CASE_FIXTURE(GivenValues, "read_settings given values: the renderer, the output") {
  SUBCASE("renderer") {
    CHECK(settings_of(text, 0, true).renderer == RendererChoice::cuda);  // auto with a GPU
    CHECK(settings_of(text.set("renderer", "host"), 0, true).renderer == RendererChoice::host);
    CHECK(settings_of(text.set("renderer", "cuda"), 0, true).renderer == RendererChoice::cuda);
    CHECK(settings_of(text.set("renderer", "auto"), 0, false).renderer == RendererChoice::host);
    const Settings gpu = settings_of(text.set("renderer", "cuda")
                                         .set("gpu_chunk_particles", "5000")
                                         .set("tile_boundary_width", "24")
                                         .set("tile_x-side", "48"),
                                     0, true);
    CHECK(gpu.cuda.chunk_particles == 5000);
    CHECK(gpu.cuda.boundary == 24);
    CHECK(gpu.cuda.tile_x == 48);
    CHECK(gpu.cuda.tile_y == 32);
    CHECK(gpu.cuda.algorithm == splotch::CudaAlgorithm::btile);
    CHECK(settings_of(text.set("cuda_algorithm", "fragment"), 0, true).cuda.algorithm ==
          splotch::CudaAlgorithm::fragment);
    CHECK(!gpu.cuda.narrow_to_fit);  // tile_boundary_width given
    CHECK(settings_of(text.remove("tile_boundary_width"), 0, true).cuda.narrow_to_fit);
    // btile_writes' other values are gone: said, with what to do, and the picture drawn.
    const Settings gone = settings_of(text.set("btile_writes", "three_step"), 0, true);
    REQUIRE(gone.warnings.size() == 1);
    CHECK(gone.warnings[0].find(text.where("btile_writes") + " = three_step is no longer offered") == 0);
    CHECK(gone.warnings[0].find("leave the key out") != std::string::npos);
    CHECK(settings_of(text.set("btile_writes", "atomics"), 0, true).warnings.empty());
    text.remove("btile_writes");
    CHECK(gpu.cuda.large_on_gpu);  // cuda_large_splats = gpu by default
    CHECK(!settings_of(text.set("cuda_large_splats", "host"), 0, true).cuda.large_on_gpu);
    CHECK_THROWS_WITH(settings_of(text.set("cuda_large_splats", "cpu"), 0, true),
                      doctest::Contains("cuda_large_splats = 'cpu' is not one of gpu, host"));
  }
  SUBCASE("output options") {
    const Settings s = settings_of(
        text.set("colorbar", "yes").set("pic_gamma", "2.2").set("pic_contrast", "1.5").set("pic_brightness", "0.25"));
    CHECK(s.output.colour_bar == true);
    CHECK(s.output.gamma == 2.2);
    CHECK(s.output.contrast == 1.5);
    CHECK(s.output.brightness == 0.25);
  }
  SUBCASE("pic_brighness (the original's misspelling) is read as pic_brightness") {
    ParamFile p = text.set("pic_brighness", "0.3").params();
    const Settings s = read_settings(p);
    CHECK(s.output.brightness == 0.3);
    CHECK(p.unused_keys().empty());
  }
  SUBCASE("pic_brightness wins over the misspelling when both are given") {
    CHECK(settings_of(text.set("pic_brighness", "0.3").set("pic_brightness", "0.7")).output.brightness == 0.7);
  }
  SUBCASE("the frame number names the image") { CHECK(settings_of(text, 12).output.path == dir.path("demo0012.tga")); }
  SUBCASE("outfile with an image extension") {
    const Settings s = settings_of(text.set("outfile", dir.path("x.png")));
    CHECK(s.output.path == dir.path("x.png"));
    CHECK(s.output.format == ImageFormat::png);
    CHECK(s.warnings.empty());
  }
  SUBCASE("a pictype that contradicts the file name is a warning naming pictype") {
    const Settings s = settings_of(text.set("outfile", dir.path("x.png")).set("pictype", "0"));
    CHECK(s.output.format == ImageFormat::png);
    REQUIRE(s.warnings.size() == 1);
    CHECK(s.warnings[0].find(text.where("pictype")) != std::string::npos);
    CHECK(s.warnings[0].find(".png") != std::string::npos);
  }
  SUBCASE("pictype 4 without extension") {
    CHECK(settings_of(text.set("pictype", "4")).output.path == dir.path("demo0000.png"));
  }
}

TEST_CASE("read_snapshot_request") {
  const TempDir dir;
  SUBCASE("reads only the input keys") {
    ParamFile p = ParamFile::parse("simtype = 1\ninfile = /abs/p.bin\nnum_blocks = 3\nx=1\ny=2\nz=3\n", "t.par");
    const splotch::SnapshotRequest in = read_snapshot_request(p);
    CHECK(in.format == splotch::SnapshotFormat::raw_blocks);
    CHECK(in.path == "/abs/p.bin");
    CHECK(in.raw.layout == RawOptions::Layout::blocks);
    CHECK(in.raw.num_fields == 3);
    CHECK(p.unused_keys().empty());
  }
  SUBCASE("a relative infile found beside the parameter file") {
    std::ofstream(dir.path("beside.bin")) << "x";
    ParamFile p =
        ParamFile::parse("simtype = 0\ninfile = beside.bin\nnum_blocks = 3\nx=1\ny=2\nz=3\n", dir.path("t.par"));
    CHECK(read_snapshot_request(p).path == dir.path("beside.bin"));
  }
  SUBCASE("a missing simtype or infile") {
    ParamFile p = ParamFile::parse("infile = p.bin\n", "t.par");
    CHECK_THROWS_WITH_AS(read_snapshot_request(p), doctest::Contains("t.par: required parameter 'simtype'"), UserError);
    ParamFile q = ParamFile::parse("simtype = 0\nnum_blocks = 3\nx=1\ny=2\nz=3\n", "t.par");
    CHECK_THROWS_WITH_AS(read_snapshot_request(q), doctest::Contains("'infile'"), UserError);
  }
}

TEST_CASE("output_name") {
  auto check_name = [](const OutputName& n, const std::string& path, ImageFormat format) {
    CHECK(n.path == path);
    CHECK(n.format == format);
    CHECK(n.warning.empty());
  };
  SUBCASE("no image extension: frame number and the pictype's extension appended") {
    check_name(output_name("demo", 0, false, 0), "demo0000.tga", ImageFormat::tga);
    check_name(output_name("demo", 0, true, 0), "demo0000.tga", ImageFormat::tga);
    check_name(output_name("demo", 2, true, 0), "demo0000.ppm", ImageFormat::ppm);
    check_name(output_name("demo", 3, true, 0), "demo0000.tga", ImageFormat::tga_rle);
    check_name(output_name("demo", 4, true, 0), "demo0000.png", ImageFormat::png);
    check_name(output_name("demo", 0, false, 12), "demo0012.tga", ImageFormat::tga);
    check_name(output_name("demo", 4, true, 12345), "demo12345.png", ImageFormat::png);
    check_name(output_name("out.d/demo", 0, false, 3), "out.d/demo0003.tga", ImageFormat::tga);
    check_name(output_name("demo.dat", 0, false, 0), "demo.dat0000.tga", ImageFormat::tga);
    check_name(output_name("x.jpg", 0, false, 0), "x.jpg", ImageFormat::jpeg);
    check_name(output_name("x.jpeg", 0, false, 3, true), "x0003.jpeg", ImageFormat::jpeg);
    CHECK(output_name("x.bmp", 0, false, 0)
              .warning.rfind("outfile = x.bmp ends in .bmp, which is no image type written here", 0) == 0);
  }
  SUBCASE("an image extension: used as given, and it chooses the format") {
    check_name(output_name("x.png", 0, false, 0), "x.png", ImageFormat::png);
    check_name(output_name("x.png", 4, true, 0), "x.png", ImageFormat::png);
    check_name(output_name("x.tga", 0, false, 0), "x.tga", ImageFormat::tga);
    check_name(output_name("x.tga", 3, true, 0), "x.tga", ImageFormat::tga_rle);
    check_name(output_name("x.ppm", 0, false, 0), "x.ppm", ImageFormat::ppm);
    check_name(output_name("x.ppm", 2, true, 0), "x.ppm", ImageFormat::ppm);
    check_name(output_name("dir/X.PNG", 0, false, 0), "dir/X.PNG", ImageFormat::png);
  }
  SUBCASE("an explicit pictype that contradicts the extension: a warning") {
    OutputName n = output_name("x.png", 0, true, 0);
    CHECK(n.path == "x.png");
    CHECK(n.format == ImageFormat::png);
    CHECK(n.warning.find("pictype = 0") != std::string::npos);
    CHECK(n.warning.find(".png") != std::string::npos);
    n = output_name("x.tga", 4, true, 0);
    CHECK(n.format == ImageFormat::tga);
    CHECK(n.warning.find("pictype = 4") != std::string::npos);
    n = output_name("x.ppm", 3, true, 0);
    CHECK(n.format == ImageFormat::ppm);
    CHECK_FALSE(n.warning.empty());
  }
  SUBCASE("pictype 1 (ASCII PPM) and unknown pictypes are rejected") {
    CHECK_THROWS_WITH_AS(output_name("demo", 1, true, 0), doctest::Contains("pictype = 1"), UserError);
    CHECK_THROWS_WITH_AS(output_name("demo", 7, true, 0), doctest::Contains("pictype = 7"), UserError);
    CHECK_THROWS_WITH_AS(output_name("demo", -1, true, 0), doctest::Contains("pictype = -1"), UserError);
  }
}

// The demo's .par, and what read_settings says of it once changed.
struct ErrorCases {
  const TempDir dir;
  ParText text{dir.path("demo")};
  // The message of the UserError that read_settings throws for `t` (empty if none).
  static std::string error_of(const ParText& t, bool gpu_available = false) {
    try {
      settings_of(t, 0, gpu_available);
    } catch (const UserError& e) { return e.what(); }
    return "";
  }
  static void contains(const std::string& message, const std::string& part) {
    INFO("message: ", message);
    INFO("expected to contain: ", part);
    CHECK(message.find(part) != std::string::npos);
  }
  // Sets key = value and checks the message begins with "t.par:LINE: key = <shown>".
  void rejects(const std::string& key, const std::string& value, const std::string& shown) {
    text.set(key, value);
    contains(error_of(text), text.where(key) + " = " + shown);
  }
};

TEST_CASE_FIXTURE(ErrorCases, "read_settings errors: the camera, the palettes, the order") {
  SUBCASE("xres and yres must be positive") {
    rejects("xres", "0", "0");
    rejects("xres", "-4", "-4");
    text.set("xres", "100");
    rejects("yres", "0", "0");
    rejects("yres", "-1", "-1");
  }
  SUBCASE("fov must lie strictly between 0 and 180") {
    for (const std::string fov : {"0", "180", "-5", "200"}) {
      CAPTURE(fov);
      rejects("fov", fov, fov);
    }
  }
  SUBCASE("camera == lookat") {
    const std::string m = error_of(text.set("camera_y", "0"));
    contains(m, "camera_x/y/z");
    contains(m, "lookat_x/y/z");
    contains(m, "(0, 0, 0)");
  }
  SUBCASE("sky parallel to the view direction") {
    const std::string m = error_of(text.set("sky_y", "3").set("sky_z", "0"));
    contains(m, "sky_x/y/z");
    contains(m, "parallel");
  }
  SUBCASE("sky zero") {
    const std::string m = error_of(text.set("sky_z", "0"));
    contains(m, "sky_x/y/z");
    contains(m, "zero");
  }
  SUBCASE("missing palette0 for scalar colours") {
    const std::string m = error_of(text.remove("palette0"));
    contains(m, "t.par");
    contains(m, "palette0");
  }
  SUBCASE("sort_type out of range") {
    rejects("sort_type", "7", "7");
    rejects("sort_type", "-1", "-1");
  }
}

TEST_CASE_FIXTURE(ErrorCases, "read_settings errors: the input, the renderer, the output, values and ranges") {
  SUBCASE("simtype 9") { rejects("simtype", "9", "9"); }
  SUBCASE("num_blocks 0") { rejects("num_blocks", "0", "0"); }
  SUBCASE("column x missing or 0") {
    const std::string m = error_of(text.remove("x"));
    contains(m, "t.par");
    contains(m, "'x'");
    text.set("x", "1");  // back in place (appended)
    CHECK(error_of(text) == "");
    rejects("x", "0", "0");
  }
  SUBCASE("column C1 beyond num_blocks") {
    text.set("C1", "5");
    const std::string m = error_of(text);
    contains(m, text.where("C1") + " = 5");
    contains(m, "num_blocks = 4");
  }
  SUBCASE("column C3 beyond num_blocks with vector colours") {
    text.set("color_is_vector0", "TRUE").set("C2", "2");
    rejects("C3", "9", "9");
  }
  SUBCASE("renderer = cuda without a GPU") { rejects("renderer", "cuda", "cuda"); }
  SUBCASE("GPU keys out of range") {
    text.set("renderer", "cuda");
    text.set("gpu_chunk_particles", "-1");
    contains(error_of(text, true), text.where("gpu_chunk_particles") + " = -1");
    text.set("gpu_chunk_particles", "0").set("tile_boundary_width", "129");
    contains(error_of(text, true), text.where("tile_boundary_width") + " = 129");
    text.set("tile_boundary_width", "8").set("cuda_algorithm", "magic");
    contains(error_of(text, true), text.where("cuda_algorithm") + " = 'magic'");
  }
  SUBCASE("renderer = bogus") {
    text.set("renderer", "bogus");
    contains(error_of(text, true), text.where("renderer") + " = 'bogus'");
  }
  SUBCASE("pictype 1 and 7") {
    rejects("pictype", "1", "1");
    rejects("pictype", "7", "7");
    // rejected even when the file name decides the format
    text.set("outfile", dir.path("x.png"));
    contains(error_of(text), text.where("pictype") + " = 7");
  }
  SUBCASE("an outfile in a directory that does not exist") {
    const std::string missing = dir.path("no_such_dir");
    text.set("outfile", missing + "/x.png");
    const std::string m = error_of(text);
    contains(m, missing);
    contains(m, "does not exist");
    contains(m, text.where("outfile"));
  }
  SUBCASE("values of the wrong type name file, line, key and value") {
    rejects("xres", "wide", "'wide'");
    text.remove("xres");
    rejects("a_eq_e", "maybe", "'maybe'");
    text.remove("a_eq_e");
    rejects("camera_z", "1,5", "'1,5'");
  }
  SUBCASE("other ranges: each message names file, line and key") {
    const std::pair<const char*, const char*> bad[] = {{"minrad_pix", "-1"},   {"gray_absorption", "-0.1"},
                                                       {"smooth_factor", "0"}, {"smooth_factor0", "-2"},
                                                       {"ptypes", "0"},        {"zmax", "0"},
                                                       {"xres", "70000"},      {"outfile", ""}};
    for (const auto& [key, value] : bad) {
      const std::string key_text = key;
      CAPTURE(key_text);
      ParText t(dir.path("demo"));
      t.set(key, value);
      contains(error_of(t), t.where(key));
    }
    ParText t(dir.path("demo"));
    t.set("color_min0", "2").set("color_max0", "1");
    contains(error_of(t), t.where("color_min0"));
  }
  SUBCASE("a second type needs its own palette") {
    text.set("ptypes", "2");
    contains(error_of(text), "palette1");
    text.set("palette1", "testdata/palettes/fire.pal");
    CHECK(error_of(text) == "");
  }
  SUBCASE("an override on the command line is named as such") {
    ParamFile p = text.params();
    p.set_from_command_line("fov=0");
    CHECK_THROWS_WITH_AS(read_settings(p), doctest::Contains("command line: fov = 0"), UserError);
  }
  SUBCASE("control: the unmodified file reads") { CHECK(error_of(text) == ""); }
}

TEST_CASE("read_settings: the original's labels and masks (XXXX, *_present = 0, a mask of the types to skip)") {
  const std::string data = splotch::testing::real_data_dir();
  if (data.empty()) {
    MESSAGE("label and mask settings skipped: ../shared/data is not beside this checkout");
    return;
  }
  const std::string head = "simtype = 2\ninfile = " + data +
                           "/gadgetreader_test_g2_snap\nptypes = 2\nptype0 = 0\n"
                           "ptype1 = 4\nsize_fix1 = 5\n";
  auto input = [&](const std::string& keys) {
    ParamFile p = ParamFile::parse(head + keys, "t.par");
    return read_snapshot_request(p);
  };
  const auto none = input(
      "size_fix0 = 0\nsize_present0 = 0\ncolor_label0 = XXXX\nintensity_label0 = XXXX\n"
      "color_label1 = XXXX\nintensity_label1 = XXXX\n");
  CHECK(none.typed.types[0].size.label == "HSML");
  CHECK(!none.typed.types[0].size.present);  // 0: from the block's size
  for (const auto& t : none.typed.types) {
    CHECK(t.colour.label.empty());
    CHECK(t.intensity.label.empty());
  }
  REQUIRE(none.notes.size() == 1);  // where each type's smoothing lengths come from, and nothing else
  CHECK(none.notes[0].rfind("smoothing lengths: ptype0 = 0", 0) == 0);
  // A mask without the bit of the type read: the original's "types to skip"; ours works it out.
  const auto skip = input("color_label1 = AGE\ncolor_present1 = 1\nintensity_label1 = MASS\nintensity_present1 = 17\n");
  CHECK(!skip.typed.types[1].colour.present);
  REQUIRE(skip.typed.types[1].intensity.present);
  CHECK(*skip.typed.types[1].intensity.present == 17u);
  REQUIRE(skip.notes.size() == 2);  // and the smoothing lengths' line
  CHECK(skip.notes[0] ==
        "t.par:8: color_present1 = 1 does not hold particle type 4, whose values it reads: the types "
        "the block holds were worked out from its size");
  // A smoothing length named XXXX with size_fix0 = 0 has nowhere to come from.
  ParamFile p = ParamFile::parse(head + "size_fix0 = 0\nsize_label0 = XXXX\n", "t.par");
  p.begin_gathering();
  read_snapshot_request(p);
  std::string message;
  try {
    p.end_gathering();
  } catch (const UserError& e) { message = e.what(); }
  CHECK(message ==
        "t.par:8: size_label0 = XXXX names no field, but size_fix0 = 0 takes the smoothing lengths from "
        "one: name the field (HSML), or give size_fix0 > 0 or size_estimate0 = knn");
  // Outside a gathering a rejected value throws at once.
  ParamFile q = ParamFile::parse(head + "size_fix0 = 0\nsize_label0 = XXXX\n", "t.par");
  CHECK_THROWS_WITH_AS(read_snapshot_request(q), doctest::Contains("size_label0 = XXXX names no field"), UserError);
}

TEST_CASE("snapshot formats: the original's simtype numbers, both ways") {
  using splotch::SnapshotFormat;
  const int numbers[] = {-1, 0, 1, 2, 3, 6, 7, 8, 10, 11, 13, 14, 15, 16, 20};
  for (int n : numbers) {
    const auto f = splotch::format_of_simtype(n);
    REQUIRE(f.has_value());
    CHECK(splotch::simtype_number(*f) == n);
  }
  CHECK(splotch::format_of_simtype(2) == SnapshotFormat::gadget);
  CHECK(splotch::format_of_simtype(11) == SnapshotFormat::tipsy);
  CHECK(splotch::format_of_simtype(5) == SnapshotFormat::raw_blocks);  // (the original's MPI reader of blocks)
  CHECK(splotch::format_of_simtype(13) == SnapshotFormat::ramses);
  CHECK(splotch::format_of_simtype(15) == SnapshotFormat::ascii);
  CHECK(splotch::format_of_simtype(16) == SnapshotFormat::fits);
  CHECK(splotch::format_of_simtype(20) == SnapshotFormat::phantom);
  CHECK_FALSE(splotch::format_of_simtype(9));
  CHECK(splotch::format_of_simtype(3) == SnapshotFormat::enzo);
  CHECK_FALSE(splotch::format_of_simtype(12).has_value());
}
