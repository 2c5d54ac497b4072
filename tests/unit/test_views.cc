// A frame's several views and the dome lens, from particles at known places: the stereo pair's
// parallax, the panorama's six faces, the fisheye's zenith and horizon (splotch/frame/frame_views.h,
// splotch/stages/dome_projection.h). Runs bin/splotch on small raw tables.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "io/byte_order.h"
#include "io/image_reader.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

using Record = std::array<float, 6>;  // x y z hsml I C1

const double pi = 3.14159265358979323846;

// Renders `records` (a raw table) with `keys` and returns bin/splotch's result.
CommandResult render(const TempDir& dir, const std::vector<Record>& records, const std::string& keys) {
  std::vector<float> words;
  for (const Record& r : records) words.insert(words.end(), r.begin(), r.end());
  swap_bytes_4(words.data(), words.size());  // big-endian, the original's default
  write_file(dir.file("p.bin"), std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  const CommandResult r = run_command("bin/splotch --quiet " +
                                      dir.write("p.par", "simtype = 0\ninfile = " + dir.file("p.bin") +
                                                             "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\n"
                                                             "C1 = 6\npalette0 = testdata/palettes/fire.pal\n" +
                                                             keys));
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r;
}

// The lit pixels of a picture: how many, and the centroid of their brightness (in the renderers'
// pixel coordinates: pixel x's centre is at x, the image's centre at xres / 2).
struct Blob {
  std::size_t lit = 0;
  double x = 0, y = 0, farthest = 0;  // farthest: of a lit pixel from the centroid
};

Blob blob_of(const std::string& path) {
  const Image8 image = read_image(path);
  Blob b;
  double sum = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      const double v = double(p[0]) + p[1] + p[2];
      if (v == 0) continue;
      ++b.lit;
      sum += v;
      b.x += v * x;
      b.y += v * y;
    }
  if (sum > 0) b.x /= sum, b.y /= sum;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      if (p[0] + p[1] + p[2] > 0) b.farthest = std::max(b.farthest, std::hypot(x - b.x, y - b.y));
    }
  return b;
}

}  // namespace

TEST_CASE("stereo: EyeSeparation gives right_ and left_ pictures, with the parallax of a particle's depth") {
  TempDir dir;
  const std::string camera =
      "camera_x = 0\ncamera_y = -100\ncamera_z = 0\nlookat_x = 0\nlookat_y = 0\nlookat_z = 0\nxres = 200\n"
      "fov = 45\nbrightness0 = 0.5\n";
  // A particle at lookat (depth 100) and one halfway (depth 50), rendered apart, in mono and stereo.
  for (const float y : {0.0f, -50.0f}) {
    INFO("particle at depth " << 100 + y);
    const std::vector<Record> one = {{0, y, 0, 0.5f, 1, 1}};
    render(dir, one, camera + "outfile = " + dir.file("mono.png") + "\n");
    const CommandResult pair = render(dir, one, camera + "EyeSeparation = 2\noutfile = " + dir.file("eye.png") + "\n");
    CHECK(!file_exists(dir.file("eye.png")));
    const Blob mono = blob_of(dir.file("mono.png")), right = blob_of(dir.file("right_eye.png")),
               left = blob_of(dir.file("left_eye.png"));
    REQUIRE(mono.lit > 0);
    // The eyes 2 degrees apart as seen from lookat: d = 2 pi/180 * 100 and the camera frame's x
    // axis is +x. A particle at depth z lies at X = 100 + (100 / tan 22.5) (-/+ d/2) (1/z - 1/100)
    // in the right and left pictures: no parallax at lookat, crossed parallax nearer.
    const double d = 2 * pi / 180 * 100, per_depth = 100 / std::tan(22.5 * pi / 180);
    const double expected = per_depth * d * (1 / (100.0 + y) - 1 / 100.0);
    CHECK(left.x - right.x == doctest::Approx(expected).epsilon(0.02).scale(1));
    CHECK(0.5 * (left.x + right.x) == doctest::Approx(mono.x).epsilon(0.01));
    CHECK(left.y == doctest::Approx(mono.y).epsilon(0.01));
    CHECK(right.y == doctest::Approx(mono.y).epsilon(0.01));
  }
  // The nearer particle's parallax: about 8.4 pixels, not 0: the check above can fail.
  CHECK(blob_of(dir.file("left_eye.png")).x - blob_of(dir.file("right_eye.png")).x > 8);
}

TEST_CASE("panorama: six faces of fov 90 show each of six particles on the axes once, at the face's centre") {
  TempDir dir;
  // Particles on +x, +y, -x, -y, +z, -z (the faces' order), each larger than the one before.
  const float axes[6][3] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::vector<Record> particles;
  for (int k = 0; k < 6; ++k)
    particles.push_back({10 * axes[k][0], 10 * axes[k][1], 10 * axes[k][2], 0.1f * float(k + 2), 1, 1});
  const CommandResult r = render(dir, particles,
                                 "camera_x = 0\ncamera_y = 0\ncamera_z = 0\npanorama = TRUE\nxres = 64\n"
                                 "brightness0 = 0.5\noutfile = " +
                                     dir.file("cube.png") + "\n");
  std::size_t previous = 0;
  for (int f = 1; f <= 6; ++f) {
    INFO("face " << f);
    const Blob b = blob_of(dir.file(std::to_string(f) + "_cube.png"));
    CHECK(b.lit > previous);  // the face's own particle, by its size
    previous = b.lit;
    CHECK(b.x == doctest::Approx(32).epsilon(0.005));
    CHECK(b.y == doctest::Approx(32).epsilon(0.005));
    // One blob: every lit pixel within the particle's footprint, 0.75 r with r = 2 h 32 / 10.
    CHECK(b.farthest < 0.75 * 2 * 0.1 * (f + 1) * 32 / 10 + 2);
  }
  CHECK(!file_exists(dir.file("7_cube.png")));
  // The panorama's record asks for the same six faces.
  CHECK(read_file(dir.file("1_cube.png.used.par")).find("panorama = TRUE") != std::string::npos);
}

TEST_CASE("dome: the view direction at the centre, the horizon on the rim, nothing behind; aperture configurable") {
  TempDir dir;
  const std::string dome =
      "camera_x = 0\ncamera_y = 0\ncamera_z = 0\nlookat_x = 0\nlookat_y = 0\nlookat_z = 1\n"
      "sky_x = 0\nsky_y = 1\nsky_z = 0\ndome = TRUE\nxres = 100\nbrightness0 = 0.5\n";
  auto at_angle = [](double degrees) {  // a particle 10 away at `degrees` from the zenith, towards +x
    return Record{float(10 * std::sin(degrees * pi / 180)), 0, float(10 * std::cos(degrees * pi / 180)), 0.2f, 1, 1};
  };
  // The camera frame's x axis: sky x z' with z' = -view = (0, 0, -1), so +x of the world is -x
  // of the picture.
  render(dir, {at_angle(0)}, dome + "outfile = " + dir.file("zenith.png") + "\n");
  const Blob zenith = blob_of(dir.file("zenith.png"));
  CHECK(zenith.lit > 0);
  CHECK(zenith.x == doctest::Approx(50).epsilon(0.002));
  CHECK(zenith.y == doctest::Approx(50).epsilon(0.002));
  render(dir, {at_angle(45)}, dome + "outfile = " + dir.file("45.png") + "\n");
  const Blob half = blob_of(dir.file("45.png"));
  CHECK(std::abs(half.x - 50) == doctest::Approx(25).epsilon(0.02));  // 45 of 90 degrees: half the radius
  CHECK(half.y == doctest::Approx(50).epsilon(0.002));
  render(dir, {at_angle(90)}, dome + "outfile = " + dir.file("horizon.png") + "\n");
  const Blob horizon = blob_of(dir.file("horizon.png"));
  CHECK(horizon.lit > 0);
  CHECK(std::abs(horizon.x - 50) > 45);  // on the rim (half its splat is cut off by the disc)
  CHECK(std::abs(horizon.x - 50) < 50);
  CHECK(horizon.y == doctest::Approx(50).epsilon(0.01));
  // Behind the horizon nothing is drawn; with an aperture of 360 degrees it is, 120 of 180 out.
  render(dir, {at_angle(120)}, dome + "outfile = " + dir.file("behind.png") + "\n");
  CHECK(blob_of(dir.file("behind.png")).lit == 0);
  render(dir, {at_angle(120)}, dome + "dome_aperture = 360\noutfile = " + dir.file("sky.png") + "\n");
  const Blob sky = blob_of(dir.file("sky.png"));
  CHECK(std::abs(sky.x - 50) == doctest::Approx(50.0 * 120 / 180).epsilon(0.02));
  // The corners are black: a particle that fills the view lights the disc only.
  render(dir, {Record{0, 0, 1, 50, 1, 1}}, dome + "exposure = auto\noutfile = " + dir.file("full.png") + "\n");
  const Image8 full = read_image(dir.file("full.png"));
  CHECK(full.pixel(0, 0)[0] + full.pixel(0, 0)[1] + full.pixel(0, 0)[2] == 0);
  CHECK(full.pixel(99, 99)[0] + full.pixel(99, 99)[1] + full.pixel(99, 99)[2] == 0);
  CHECK(full.pixel(50, 2)[0] + full.pixel(50, 2)[1] + full.pixel(50, 2)[2] > 0);
}

TEST_CASE("views and dome: conflicting or impossible keys are errors naming them") {
  TempDir dir;
  auto fails = [&](const std::string& keys, const std::string& text) {
    const CommandResult r = run_command("bin/splotch testdata/demo.par infile=" + dir.file("none.bin") +
                                        " outfile=" + dir.file("x.png") + " " + keys);
    INFO(keys);
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(text) != std::string::npos);
  };
  fails("EyeSeparation=-1", "EyeSeparation = -1 must be an angle from 0");
  fails("EyeSeparation=2 panorama=TRUE", "panorama = TRUE with EyeSeparation");
  fails("dome=TRUE yres=300", "give yres = xres");
  fails("dome=TRUE dome_aperture=0", "dome_aperture = 0 must be an angle above 0");
  fails("dome=TRUE panorama=TRUE", "dome = TRUE and panorama = TRUE");
  fails("dome=TRUE projection=FALSE", "projection = FALSE");
  fails("panorama=TRUE yres=300", "six square faces of a cube");
  fails("panorama=TRUE projection=FALSE", "draws perspective faces");
}

TEST_CASE("views and dome on the GPU: the same pictures as the host's" * doctest::skip(testing::no_gpu())) {
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 20000 --out " + dir.file("demo.bin")).status == 0);
  const std::string base = "bin/splotch --quiet testdata/demo.par infile=" + dir.file("demo.bin") + " xres=160 ";
  struct Views {
    const char* name;
    std::string keys;
    std::vector<std::string> files;
  };
  const Views cases[] = {
      {"stereo", "EyeSeparation=3", {"right_", "left_"}},
      {"panorama", "panorama=TRUE camera_x=50 camera_y=50 camera_z=50", {"1_", "2_", "3_", "4_", "5_", "6_"}},
      {"dome", "dome=TRUE camera_x=50 camera_y=50 camera_z=30 lookat_z=60 sky_y=1 sky_z=0", {""}},
  };
  for (const Views& c : cases) {
    INFO(c.name);
    for (const char* renderer : {"host", "cuda"}) {
      const CommandResult r =
          run_command(base + c.keys + " renderer=" + renderer + " outfile=" + dir.file(std::string(renderer) + ".png"));
      INFO(r.err);
      REQUIRE(r.status == 0);
    }
    for (const std::string& prefix : c.files) {
      const Image8 host = read_image(dir.file(prefix + "host.png")), gpu = read_image(dir.file(prefix + "cuda.png"));
      REQUIRE(host.rgb.size() == gpu.rgb.size());
      const testing::PictureDifference d = testing::picture_difference(host, gpu);
      CHECK(d.largest <= 2);
      CHECK(d.lit > 0);
    }
  }
}
