// Values that used to be accepted silently: a negative brightness, an infinite camera coordinate,
// minrad_pix wider than the image, smoothing lengths far beyond the particles' extent; and the
// picture's name: .jpg writes JPEG (jpeg_quality), a name ending like another image type warns.
#include <doctest/doctest.h>

#include <string>

#include "io/byte_order.h"
#include "io/image_reader.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

struct Demo {
  TempDir dir;
  Demo() { REQUIRE(run_command("bin/make_demo --n 5000 --out " + dir.path("demo.bin")).status == 0); }
  CommandResult run(const std::string& args) const {
    return run_command("bin/splotch testdata/demo.par infile=" + dir.path("demo.bin") + " xres=120 " + args);
  }
};

}  // namespace

TEST_CASE("bad values: brightness below 0, an infinite coordinate, minrad_pix beyond the image, all named at once") {
  Demo d;
  const CommandResult r =
      d.run("brightness0=-1 camera_x=inf lookat_z=-inf minrad_pix=1e9 outfile=" + d.dir.path("x.png"));
  CHECK(r.status == 1);
  INFO(r.err);
  CHECK(r.err.rfind("splotch: error: 4 problems with the parameters of testdata/demo.par:\n", 0) == 0);
  CHECK(r.err.find("command line: brightness0 = -1 must be a finite number from 0 (0 hides the type)") !=
        std::string::npos);
  CHECK(r.err.find("command line: camera_x = inf must be a finite number") != std::string::npos);
  CHECK(r.err.find("command line: lookat_z = -inf must be a finite number") != std::string::npos);
  CHECK(r.err.find("command line: minrad_pix = 1e9 is wider than the image (120 pixels)") != std::string::npos);
  CHECK(!file_exists(d.dir.path("x.png")));
  CHECK(d.run("brightness0=0 minrad_pix=120 outfile=" + d.dir.path("ok.png")).status == 0);  // the edges are allowed
}

TEST_CASE("bad values: smoothing lengths far beyond the particles' extent are a warning with their source") {
  TempDir dir;
  // Three particles within 10 units, one with a smoothing length of 1e30 (raw table, big-endian).
  std::vector<float> words = {0, 0, 0, 1, 1, 1, 10, 0, 0, 1, 1, 1, 0, 10, 0, 1e30f, 1, 1};
  swap_bytes_4(words.data(), words.size());
  write_file(dir.path("p.bin"), std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  const std::string par = dir.write("p.par", "simtype = 0\ninfile = " + dir.path("p.bin") +
                                                 "\nnum_blocks = 6\nx = 1\ny = 2\nz = 3\nr = 4\nI = 5\nC1 = 6\n"
                                                 "palette0 = testdata/palettes/fire.pal\nxres = 32\noutfile = " +
                                                 dir.path("p.png") + "\n");
  const CommandResult r = run_command("bin/splotch " + par);
  CHECK(r.status == 0);
  CHECK(r.err.find("1 of 3 particles of '" + dir.path("p.bin") +
                   "' have smoothing lengths over 10 times the extent of "
                   "all the particles, the largest 1e+30 (the particles span 10): each covers the whole picture") !=
        std::string::npos);
}

TEST_CASE("output names: .jpg and .jpeg write JPEG at jpeg_quality; another image type's name is a warning") {
  Demo d;
  for (const char* name : {"x.jpg", "y.JPEG"}) {
    INFO(name);
    const CommandResult r = d.run(std::string("outfile=") + d.dir.path(name));
    CHECK(r.status == 0);
    CHECK(read_file(d.dir.path(name)).rfind("\xff\xd8\xff", 0) == 0);  // a JPEG's start of image
    const Image8 jpeg = read_image(d.dir.path(name));
    CHECK(jpeg.width == 120);
  }
  // Against the PNG of the same picture: close at quality 95, and a smaller file at quality 10.
  CHECK(d.run("outfile=" + d.dir.path("ref.png")).status == 0);
  CHECK(d.run("jpeg_quality=95 outfile=" + d.dir.path("q95.jpg")).status == 0);
  CHECK(d.run("jpeg_quality=10 outfile=" + d.dir.path("q10.jpg")).status == 0);
  const Image8 ref = read_image(d.dir.path("ref.png")), q95 = read_image(d.dir.path("q95.jpg"));
  double error = 0;
  for (std::size_t i = 0; i < ref.rgb.size(); ++i) error += std::abs(int(ref.rgb[i]) - int(q95.rgb[i]));
  CHECK(error / double(ref.rgb.size()) < 3.0);  // mean absolute difference in 8-bit levels
  CHECK(read_file(d.dir.path("q10.jpg")).size() < read_file(d.dir.path("q95.jpg")).size());
  CHECK(d.run("jpeg_quality=0 outfile=" + d.dir.path("q0.jpg")).err.find("jpeg_quality = 0 must be from 1 to 100") !=
        std::string::npos);
  const CommandResult gif = d.run("outfile=" + d.dir.path("x.gif"));
  CHECK(gif.status == 0);
  CHECK(gif.err.find("command line: outfile = " + d.dir.path("x.gif") +
                     " ends in .gif, which is no image type "
                     "written here: the picture goes to " +
                     d.dir.path("x.gif") +
                     "0000.tga; name it .png, .jpg, .tga "
                     "or .ppm to choose the type") != std::string::npos);
  CHECK(file_exists(d.dir.path("x.gif0000.tga")));
  // A name with a number after its dot (a snapshot number) is no image type's: no warning.
  CHECK(d.run("outfile=" + d.dir.path("run.045")).err.find("no image type") == std::string::npos);
}
