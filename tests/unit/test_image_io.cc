// Image conversion, writers and reader: byte layouts of the original Splotch, round trips, and the
// promise that a failed write leaves nothing behind.
#include <doctest/doctest.h>
#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "io/image.h"
#include "io/image_reader.h"
#include "io/image_writer.h"
#include "io/png_encode.h"

namespace {

using splotch::Image;
using splotch::Image8;
using splotch::ImageFormat;
using Bytes = std::vector<std::uint8_t>;
namespace fs = std::filesystem;

// A fresh directory under /tmp, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string name = "/tmp/splotch_test_image_io.XXXXXX";
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path_ = name;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) names.push_back(entry.path().filename());
    return names;
  }

 private:
  fs::path path_;
};

Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  REQUIRE(out);
}

Bytes to_bytes(const std::string& text) { return Bytes(text.begin(), text.end()); }

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The message of the UserError `action` throws; fails the test when it throws nothing.
std::string user_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const splotch::UserError& error) { return error.what(); }
  FAIL("no UserError was thrown");
  return "";
}

void set_pixel(Image8& image, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  std::uint8_t* p = image.pixel(x, y);
  p[0] = r;
  p[1] = g;
  p[2] = b;
}

// Rows chosen to exercise the run-length encoder: a run longer than one packet followed by
// varied pixels, alternating pixels, a gradient, one colour over the whole row (300 = 128 + 128
// + 44) and pseudo-random noise. The width is above 255 so that the header's high byte is used.
Image8 make_test_image() {
  const int width = 300;
  Image8 image(width, 5);
  std::uint32_t state = 12345;
  for (int x = 0; x < width; ++x) {
    if (x < 200)
      set_pixel(image, x, 0, 10, 20, 30);
    else
      set_pixel(image, x, 0, std::uint8_t(x), std::uint8_t(2 * x), std::uint8_t(255 - x));
    if (x % 2 == 0)
      set_pixel(image, x, 1, 255, 0, 128);
    else
      set_pixel(image, x, 1, 0, 255, 127);
    set_pixel(image, x, 2, std::uint8_t(x), std::uint8_t(x / 2), std::uint8_t(x % 7));
    set_pixel(image, x, 3, 1, 2, 3);
    state = state * 1664525u + 1013904223u;
    set_pixel(image, x, 4, std::uint8_t(state >> 24), std::uint8_t(state >> 16), std::uint8_t(state >> 8));
  }
  return image;
}

void check_same(const Image8& actual, const Image8& expected) {
  REQUIRE(actual.width == expected.width);
  REQUIRE(actual.height == expected.height);
  CHECK(actual.rgb == expected.rgb);
}

}  // namespace

TEST_CASE("to_8bit(float)") {
  using splotch::to_8bit;
  const float one_256th = 1.0f / 256.0f;
  CHECK(to_8bit(-1.0f) == 0);
  CHECK(to_8bit(-0.0f) == 0);
  CHECK(to_8bit(0.0f) == 0);
  CHECK(to_8bit(std::nextafter(one_256th, 0.0f)) == 0);
  CHECK(to_8bit(one_256th) == 1);
  CHECK(to_8bit(std::nextafter(2 * one_256th, 0.0f)) == 1);
  CHECK(to_8bit(2 * one_256th) == 2);
  CHECK(to_8bit(0.5f) == 128);
  CHECK(to_8bit(255 * one_256th) == 255);
  CHECK(to_8bit(0.999f) == 255);
  CHECK(to_8bit(1.0f) == 255);
  CHECK(to_8bit(2.0f) == 255);
  CHECK(to_8bit(std::numeric_limits<float>::infinity()) == 255);
  CHECK(to_8bit(-std::numeric_limits<float>::infinity()) == 0);
  CHECK(to_8bit(std::numeric_limits<float>::quiet_NaN()) == 0);
}

TEST_CASE("to_8bit(Image)") {
  Image image(2, 1);
  const float values[6] = {-0.5f, 0.0f, 1.0f / 256.0f, 0.999f, 1.0f, 2.0f};
  std::copy(values, values + 6, image.rgb.begin());
  const Image8 converted = splotch::to_8bit(image);
  CHECK(converted.width == 2);
  CHECK(converted.height == 1);
  CHECK(converted.rgb == Bytes{0, 0, 1, 255, 255, 255});
}

TEST_CASE("write_image/read_image round trip") {
  TempDir dir;
  const Image8 image = make_test_image();
  const struct {
    ImageFormat format;
    const char* name;
  } cases[] = {{ImageFormat::tga, "a.tga"},
               {ImageFormat::tga_rle, "b.tga"},
               {ImageFormat::ppm, "c.ppm"},
               {ImageFormat::png, "d.png"}};
  for (const auto& c : cases) {
    CAPTURE(c.name);
    splotch::write_image(dir.file(c.name), image, c.format);
    check_same(splotch::read_image(dir.file(c.name)), image);
  }
  // Only the four pictures: no temporary file is left over.
  CHECK(dir.entries().size() == 4);
  const Bytes png = read_bytes(dir.file("d.png"));
  CHECK(Bytes(png.begin(), png.begin() + 8) == Bytes{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
}

TEST_CASE("write_image: TGA bytes") {
  TempDir dir;
  Image8 image(2, 2);
  set_pixel(image, 0, 0, 1, 2, 3);
  set_pixel(image, 1, 0, 4, 5, 6);
  set_pixel(image, 0, 1, 7, 8, 9);
  set_pixel(image, 1, 1, 10, 11, 12);
  splotch::write_image(dir.file("x.tga"), image, ImageFormat::tga);
  const Bytes expected = {0, 0,  2,    0, 0, 0, 0, 0, 0, 0, 0, 0, 2,  0,  2,
                          0, 24, 0x20, 3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10};
  CHECK(read_bytes(dir.file("x.tga")) == expected);

  SUBCASE("width and height are little-endian") {
    splotch::write_image(dir.file("big.tga"), make_test_image(), ImageFormat::tga);
    const Bytes bytes = read_bytes(dir.file("big.tga"));
    REQUIRE(bytes.size() == 18 + 300 * 5 * 3);
    CHECK(Bytes(bytes.begin() + 12, bytes.begin() + 16) == Bytes{0x2c, 0x01, 5, 0});
  }
}

TEST_CASE("write_image: run-length TGA bytes") {
  TempDir dir;
  Image8 image(6, 1);  // A A A B C C
  for (int x = 0; x < 3; ++x) set_pixel(image, x, 0, 1, 2, 3);
  set_pixel(image, 3, 0, 4, 5, 6);
  for (int x = 4; x < 6; ++x) set_pixel(image, x, 0, 7, 8, 9);
  splotch::write_image(dir.file("x.tga"), image, ImageFormat::tga_rle);
  const Bytes expected = {0, 0,  10,   0,    0, 0, 0, 0,    0, 0, 0, 0,    6, 0, 1,
                          0, 24, 0x20, 0x82, 3, 2, 1, 0x00, 6, 5, 4, 0x81, 9, 8, 7};
  CHECK(read_bytes(dir.file("x.tga")) == expected);
}

namespace {

// Walks the packets of a run-length TGA written top first: each row must be covered exactly by
// its own packets, runs must be repeat packets, and each packet must decode to the image.
void check_rle_packets(const Bytes& bytes, const Image8& image) {
  std::size_t pos = 18;
  for (int y = 0; y < image.height; ++y) {
    int x = 0;
    while (x < image.width) {
      REQUIRE(pos < bytes.size());
      const std::uint8_t packet = bytes[pos++];
      const int count = (packet & 0x7f) + 1;
      REQUIRE(x + count <= image.width);  // never crosses into the next row
      const bool repeat = (packet & 0x80) != 0;
      if (repeat) CHECK(count >= 2);
      for (int i = 0; i < count; ++i) {
        const std::uint8_t* bgr = &bytes[pos + (repeat ? 0 : 3 * std::size_t(i))];
        const std::uint8_t* rgb = image.pixel(x + i, y);
        CHECK((bgr[0] == rgb[2] && bgr[1] == rgb[1] && bgr[2] == rgb[0]));
        if (!repeat && x + i + 1 < image.width) {
          const std::uint8_t* next = image.pixel(x + i + 1, y);
          const bool run_in_raw_packet = i + 1 < count && std::equal(rgb, rgb + 3, next);
          CHECK_FALSE(run_in_raw_packet);
        }
      }
      pos += repeat ? 3 : 3 * std::size_t(count);
      x += count;
    }
  }
  CHECK(pos == bytes.size());
}

}  // namespace

TEST_CASE("write_image: run-length TGA packets") {
  TempDir dir;
  const Image8 image = make_test_image();
  splotch::write_image(dir.file("rle.tga"), image, ImageFormat::tga_rle);
  splotch::write_image(dir.file("plain.tga"), image, ImageFormat::tga);
  const Bytes rle = read_bytes(dir.file("rle.tga"));
  CHECK(rle[2] == 10);
  check_rle_packets(rle, image);
  CHECK(rle.size() < read_bytes(dir.file("plain.tga")).size());
}

TEST_CASE("write_image: PPM bytes") {
  TempDir dir;
  Image8 image(2, 2);
  set_pixel(image, 0, 0, 1, 2, 3);
  set_pixel(image, 1, 0, 4, 5, 6);
  set_pixel(image, 0, 1, 7, 8, 9);
  set_pixel(image, 1, 1, 10, 11, 12);
  splotch::write_image(dir.file("x.ppm"), image, ImageFormat::ppm);
  const Bytes pixels = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Bytes expected = concat(to_bytes("P6\n2\n2\n255\n"), pixels);
  CHECK(read_bytes(dir.file("x.ppm")) == expected);
}

TEST_CASE("write_image: replaces an existing file") {
  TempDir dir;
  write_bytes(dir.file("x.ppm"), to_bytes("old contents"));
  const Image8 image = make_test_image();
  splotch::write_image(dir.file("x.ppm"), image, ImageFormat::ppm);
  check_same(splotch::read_image(dir.file("x.ppm")), image);
  CHECK(dir.entries().size() == 1);
}

TEST_CASE("write_image: failures leave nothing behind") {
  TempDir dir;
  const Image8 image = make_test_image();

  SUBCASE("missing directory") {
    const std::string path = dir.file("missing/x.tga");
    const std::string message = user_error_of([&] { splotch::write_image(path, image, ImageFormat::tga); });
    CHECK(message == "cannot write image '" + path + "': No such file or directory");
    CHECK(dir.entries().empty());
  }
  SUBCASE("target is a directory: the rename fails after the data was written") {
    const std::string path = dir.file("sub");
    fs::create_directory(path);
    const std::string message = user_error_of([&] { splotch::write_image(path, image, ImageFormat::png); });
    CHECK(message == "cannot write image '" + path + "': Is a directory");
    CHECK(dir.entries() == std::vector<std::string>{"sub"});
    CHECK(fs::is_empty(path));
  }
  SUBCASE("TGA too wide: an existing picture stays as it was") {
    const std::string path = dir.file("x.tga");
    write_bytes(path, to_bytes("previous picture"));
    const Image8 wide(65536, 1);
    const std::string message = user_error_of([&] { splotch::write_image(path, wide, ImageFormat::tga_rle); });
    CHECK(message.find("'" + path + "'") != std::string::npos);
    CHECK(message.find("65535") != std::string::npos);
    CHECK(read_bytes(path) == to_bytes("previous picture"));
    CHECK(dir.entries().size() == 1);
  }
  SUBCASE("empty image") {
    const std::string path = dir.file("x.ppm");
    const std::string message = user_error_of([&] { splotch::write_image(path, Image8(), ImageFormat::ppm); });
    CHECK(message == "cannot write image '" + path + "': the image is empty (0x0 pixels)");
    CHECK(dir.entries().empty());
  }
}

TEST_CASE("read_image: other writers' layouts") {
  TempDir dir;
  Image8 expected(2, 2);
  set_pixel(expected, 0, 0, 1, 2, 3);
  set_pixel(expected, 1, 0, 4, 5, 6);
  set_pixel(expected, 0, 1, 7, 8, 9);
  set_pixel(expected, 1, 1, 10, 11, 12);

  SUBCASE("PPM header with comments and assorted whitespace") {
    const Bytes header = to_bytes("P6 # made by hand\n 2\t2\r\n#  another\n\n255\n");
    write_bytes(dir.file("x.ppm"), concat(header, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    check_same(splotch::read_image(dir.file("x.ppm")), expected);
  }
  SUBCASE("PPM data starting with a whitespace byte") {
    const Bytes data = {'\n', ' ', '\t', 4, 5, 6, 7, 8, 9, 10, 11, 12};
    write_bytes(dir.file("x.ppm"), concat(to_bytes("P6\n2 2\n255\n"), data));
    const Image8 image = splotch::read_image(dir.file("x.ppm"));
    CHECK(image.rgb == data);
  }
  SUBCASE("TGA stored bottom row first, with an id field") {
    const Bytes bytes = {3,    0,   2,   0,   0, 0, 0, 0,  0,  0,  0, 0, 2, 0, 2, 0, 24,
                         0x00, 'a', 'b', 'c', 9, 8, 7, 12, 11, 10, 3, 2, 1, 6, 5, 4};
    write_bytes(dir.file("x.tga"), bytes);
    check_same(splotch::read_image(dir.file("x.tga")), expected);
  }
  SUBCASE("run-length TGA whose packets cross rows") {
    Image8 grey(3, 2);
    std::fill(grey.rgb.begin(), grey.rgb.end(), std::uint8_t(50));
    set_pixel(grey, 2, 1, 1, 2, 3);
    const Bytes bytes = {0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 2, 0, 24, 0x20, 0x84, 50, 50, 50, 0x00, 3, 2, 1};
    write_bytes(dir.file("x.tga"), bytes);
    check_same(splotch::read_image(dir.file("x.tga")), grey);
  }
}

TEST_CASE("read_image: errors name the file and the problem") {
  TempDir dir;
  const Image8 image = make_test_image();
  splotch::write_image(dir.file("plain.tga"), image, ImageFormat::tga);
  splotch::write_image(dir.file("rle.tga"), image, ImageFormat::tga_rle);
  splotch::write_image(dir.file("image.ppm"), image, ImageFormat::ppm);
  splotch::write_image(dir.file("image.png"), image, ImageFormat::png);

  // Writes the first `keep` bytes of `source` to `name` and returns the reader's message.
  const auto read_cut = [&](const std::string& source, std::size_t keep, const std::string& name) {
    Bytes bytes = read_bytes(dir.file(source));
    REQUIRE(keep < bytes.size());
    bytes.resize(keep);
    write_bytes(dir.file(name), bytes);
    return user_error_of([&] { splotch::read_image(dir.file(name)); });
  };
  const auto contains = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  const std::string prefix = "cannot read image '" + dir.file("cut") + "': ";

  SUBCASE("missing file") {
    const std::string path = dir.file("none.tga");
    CHECK(user_error_of([&] { splotch::read_image(path); }) ==
          "cannot read image '" + path + "': No such file or directory");
  }
  SUBCASE("empty file") { CHECK(read_cut("plain.tga", 0, "cut") == prefix + "the file is empty"); }
  SUBCASE("TGA header cut") {
    CHECK(read_cut("plain.tga", 10, "cut.tga") ==
          "cannot read image '" + dir.file("cut.tga") + "': truncated: a TGA header needs 18 bytes, the file has 10");
  }
  SUBCASE("TGA pixels cut") {
    const std::string message = read_cut("plain.tga", 18 + 100, "cut");
    CHECK(message == prefix + "truncated: the uncompressed TGA image needs 4518 bytes, the file has 118");
  }
  SUBCASE("run-length TGA cut") {
    const std::size_t size = read_bytes(dir.file("rle.tga")).size();
    const std::string message = read_cut("rle.tga", size - 2, "cut");
    CHECK(contains(message, prefix + "truncated"));
  }
  SUBCASE("PPM header cut") {
    CHECK(read_cut("image.ppm", 9, "cut") == prefix + "truncated: the PPM header ends before the maximum value");
  }
  SUBCASE("PPM pixels cut") {
    const std::string message = read_cut("image.ppm", 100, "cut");
    CHECK(message == prefix + "truncated: the PPM image needs 4513 bytes, the file has 100");
  }
  SUBCASE("PNG cut") {
    const std::size_t size = read_bytes(dir.file("image.png")).size();
    const std::string message = read_cut("image.png", size / 2, "cut");
    CHECK(contains(message, prefix + "PNG decoding failed"));
  }
  SUBCASE("unsupported TGA type") {
    Bytes bytes(18 + 12, 0);
    bytes[2] = 1;  // colour-mapped
    bytes[12] = 2;
    bytes[14] = 2;
    bytes[16] = 8;
    write_bytes(dir.file("cut"), bytes);
    CHECK(contains(user_error_of([&] { splotch::read_image(dir.file("cut")); }),
                   prefix + "unsupported TGA image type 1"));
  }
  SUBCASE("32-bit TGA") {
    Bytes bytes = read_bytes(dir.file("plain.tga"));
    bytes[16] = 32;
    write_bytes(dir.file("cut"), bytes);
    CHECK(user_error_of([&] { splotch::read_image(dir.file("cut")); }) ==
          prefix + "unsupported TGA pixel depth of 32 bits (only 24 is supported)");
  }
  SUBCASE("16-bit PPM") {
    write_bytes(dir.file("cut"), concat(to_bytes("P6\n1 1\n65535\n"), Bytes(6, 0)));
    CHECK(user_error_of([&] { splotch::read_image(dir.file("cut")); }) ==
          prefix + "unsupported PPM maximum value 65535 (only 255 is supported)");
  }
  SUBCASE("ASCII PPM") {
    write_bytes(dir.file("cut"), to_bytes("P3\n1 1\n255\n0 0 0\n"));
    CHECK(contains(user_error_of([&] { splotch::read_image(dir.file("cut")); }),
                   prefix + "unsupported Netpbm variant P3"));
  }
  SUBCASE("not an image") {
    write_bytes(dir.file("cut"), to_bytes("# a parameter file\nxres=800\n"));
    CHECK(user_error_of([&] { splotch::read_image(dir.file("cut")); }) ==
          prefix + "unrecognised image format (expected TGA, binary PPM, PNG or JPEG)");
  }
}

TEST_CASE("encode_png: pictures of every shape come back pixel for pixel, the same bytes on any number of threads") {
  TempDir dir;
  std::uint32_t seed = 99;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return std::uint8_t(seed >> 24);
  };
  // Heights about the strips' 32 rows, and lines of one pixel.
  for (const auto& [w, h] :
       std::vector<std::pair<int, int>>{{1, 1}, {1, 70}, {70, 1}, {31, 31}, {40, 32}, {40, 33}, {97, 65}}) {
    INFO(w << "x" << h);
    splotch::Image8 image;
    image.width = w;
    image.height = h;
    image.rgb.resize(std::size_t(w) * std::size_t(h) * 3);
    for (std::size_t i = 0; i < image.rgb.size(); ++i) image.rgb[i] = (i / 3) % 5 == 0 ? next() : std::uint8_t(i / 7);
    const std::vector<std::uint8_t> png = splotch::encode_png(image);
    std::ofstream(dir.file("p.png"), std::ios::binary)
        .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
    const splotch::Image8 back = splotch::read_image(dir.file("p.png"));
    CHECK(back.width == w);
    CHECK(back.height == h);
    CHECK(back.rgb == image.rgb);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    CHECK(splotch::encode_png(image) == png);
    omp_set_num_threads(threads);
  }
  splotch::Image8 empty;
  CHECK_THROWS_AS(splotch::encode_png(empty), std::invalid_argument);
}
