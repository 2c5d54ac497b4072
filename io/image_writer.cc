#include "io/image_writer.h"

#include <stb/stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "errors/user_error.h"
#include "io/interrupt_cleanup.h"
#include "io/png_encode.h"

namespace splotch {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw UserError("cannot write image '" + path + "': " + reason);
}

// errno can be 0 when a library call fails without a system call behind it.
std::string describe_errno(int error) { return error != 0 ? std::strerror(error) : "write failed"; }

// Where encoded bytes go: a file (PendingFile) or memory (the server's pictures).
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(const void* data, std::size_t size) = 0;
  void write(const std::vector<std::uint8_t>& bytes) { write(bytes.data(), bytes.size()); }
};

class MemorySink : public ByteSink {
 public:
  using ByteSink::write;
  void write(const void* data, std::size_t size) override {
    const auto* b = static_cast<const std::uint8_t*>(data);
    bytes.insert(bytes.end(), b, b + size);
  }
  std::vector<std::uint8_t> bytes;
};

// A file that appears under its final name only when complete: bytes go to a temporary sibling
// (same directory, so that the rename is atomic), which commit() renames over the target.
// Destruction without a successful commit() removes the temporary file, and so does SIGINT or
// SIGTERM meanwhile (io/interrupt_cleanup.h).
class PendingFile : public ByteSink {
 public:
  using ByteSink::write;
  explicit PendingFile(const std::string& path)
      : path_(path),
        temp_path_(path + ".tmp." + std::to_string(::getpid())),
        interrupted_("writing " + path + "; no picture written", temp_path_) {
    file_ = std::fopen(temp_path_.c_str(), "wb");
    if (file_ == nullptr) fail(path_, describe_errno(errno));
    // A large buffer turns the row-by-row writes into few system calls.
    buffer_.resize(std::size_t(1) << 20);
    std::setvbuf(file_, buffer_.data(), _IOFBF, buffer_.size());
  }

  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  ~PendingFile() {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) std::remove(temp_path_.c_str());
  }

  void write(const void* data, std::size_t size) override {
    errno = 0;
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) fail(path_, describe_errno(errno));
  }

  // No fsync: a failed or killed run never exposes a partial picture, which is the promise;
  // surviving a power loss as well would cost seconds per frame of hundreds of megabytes.
  void commit() {
    std::FILE* file = file_;
    file_ = nullptr;  // fclose releases the stream even when it fails
    errno = 0;
    if (std::fclose(file) != 0) fail(path_, describe_errno(errno));
    if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) fail(path_, describe_errno(errno));
    committed_ = true;
    interrupted_.end();
  }

 private:
  std::string path_, temp_path_;
  InterruptNote interrupted_;  // made before the file, ended after it (a SIGINT or SIGTERM removes it)
  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;  // must outlive file_, which uses it as its stream buffer
  bool committed_ = false;
};

// ---- TGA -------------------------------------------------------------------------------------

constexpr int kTgaMaxSide = 65535;          // width and height are 16-bit header fields
constexpr int kTgaMaxPacket = 128;          // a packet header holds the pixel count minus one in 7 bits
constexpr std::uint8_t kTgaTopLeft = 0x20;  // descriptor bit 5: row 0 of the file is the top

void put_u16_le(std::vector<std::uint8_t>& bytes, int value) {
  bytes.push_back(std::uint8_t(value & 0xff));
  bytes.push_back(std::uint8_t((value >> 8) & 0xff));
}

std::vector<std::uint8_t> tga_header(const Image8& image, std::uint8_t image_type) {
  std::vector<std::uint8_t> header = {0, 0, image_type};  // no id field, no colour map
  header.insert(header.end(), 5 + 4, 0);                  // colour map spec, x/y origin
  put_u16_le(header, image.width);
  put_u16_le(header, image.height);
  header.push_back(24);
  header.push_back(kTgaTopLeft);
  return header;
}

void put_bgr(std::vector<std::uint8_t>& bytes, const std::uint8_t* rgb) {
  bytes.push_back(rgb[2]);
  bytes.push_back(rgb[1]);
  bytes.push_back(rgb[0]);
}

void write_tga(ByteSink& out, const Image8& image) {
  out.write(tga_header(image, 2));
  // Turned to BGR by all threads and written in pieces of a few MB: row by row on one thread, a
  // 2048^2 picture took 20 to 40 ms on the GPU machine, a tenth of a 10^8-particle run.
  const std::size_t piece = std::size_t(4) << 20, pixels = image.rgb.size() / 3;
  ParticleArray<std::uint8_t> bgr(std::min(image.rgb.size(), piece));
  const std::uint8_t* rgb = image.rgb.data();
  std::uint8_t* to = bgr.data();
  for (std::size_t first = 0; first < pixels; first += piece / 3) {
    const long count = long(std::min(piece / 3, pixels - first));
    const std::uint8_t* from = rgb + 3 * first;
#pragma omp parallel for schedule(static)
    for (long p = 0; p < count; ++p) {
      to[3 * p] = from[3 * p + 2];
      to[3 * p + 1] = from[3 * p + 1];
      to[3 * p + 2] = from[3 * p];
    }
    out.write(to, 3 * std::size_t(count));
  }
}

bool same_pixel(const std::uint8_t* row, int a, int b) { return std::memcmp(row + 3 * a, row + 3 * b, 3) == 0; }

// Number of pixels from `start` equal to the pixel at `start`, at most one packet's worth.
int repeat_length(const std::uint8_t* row, int start, int width) {
  int n = 1;
  while (n < kTgaMaxPacket && start + n < width && same_pixel(row, start, start + n)) ++n;
  return n;
}

// Number of pixels from `start` for one raw packet: it stops where a run of two or more begins,
// so that the run can become a (smaller) repeat packet.
int raw_length(const std::uint8_t* row, int start, int width) {
  int n = 1;
  while (n < kTgaMaxPacket && start + n < width &&
         !(start + n + 1 < width && same_pixel(row, start + n, start + n + 1)))
    ++n;
  return n;
}

// Packets never cross rows, as the TGA specification asks and as the original wrote them.
void encode_rle_row(const std::uint8_t* row, int width, std::vector<std::uint8_t>& bytes) {
  for (int x = 0; x < width;) {
    const int repeat = repeat_length(row, x, width);
    if (repeat >= 2) {
      bytes.push_back(std::uint8_t(0x80 | (repeat - 1)));
      put_bgr(bytes, row + 3 * x);
      x += repeat;
      continue;
    }
    const int raw = raw_length(row, x, width);
    bytes.push_back(std::uint8_t(raw - 1));
    for (int i = 0; i < raw; ++i) put_bgr(bytes, row + 3 * (x + i));
    x += raw;
  }
}

void write_tga_rle(ByteSink& out, const Image8& image) {
  out.write(tga_header(image, 10));
  std::vector<std::uint8_t> row;
  row.reserve(std::size_t(image.width) * 3 + std::size_t(image.width) / kTgaMaxPacket + 1);
  for (int y = 0; y < image.height; ++y) {
    row.clear();
    encode_rle_row(image.pixel(0, y), image.width, row);
    out.write(row);
  }
}

// ---- PPM and PNG -----------------------------------------------------------------------------

void write_ppm(ByteSink& out, const Image8& image) {
  const std::string header = "P6\n" + std::to_string(image.width) + "\n" + std::to_string(image.height) + "\n255\n";
  out.write(header.data(), header.size());
  out.write(image.rgb);  // rows are stored top first, R G B, exactly as P6 wants them
}

// stb_image_write is C: an exception must not unwind through it, so the callback parks it here.
struct StbSink {
  ByteSink* out;
  std::exception_ptr error;
};

void stb_write_callback(void* context, void* data, int size) {
  auto* sink = static_cast<StbSink*>(context);
  if (sink->error) return;
  try {
    sink->out->write(data, std::size_t(size));
  } catch (...) { sink->error = std::current_exception(); }
}

void write_png(ByteSink& out, const Image8& image) { out.write(encode_png(image)); }

void write_jpeg(ByteSink& out, const Image8& image, const std::string& path, int quality) {
  StbSink sink{&out, nullptr};
  const int ok =
      stbi_write_jpg_to_func(stb_write_callback, &sink, image.width, image.height, 3, image.rgb.data(), quality);
  if (sink.error) std::rethrow_exception(sink.error);
  if (!ok) fail(path, "JPEG encoding failed (out of memory?)");
}

// ---- checks before anything touches the disk -------------------------------------------------

}  // namespace

std::string image_size_problem(ImageFormat format, int width, int height) {
  const std::string size = std::to_string(width) + " x " + std::to_string(height) + " pixels";
  const bool tga = format == ImageFormat::tga || format == ImageFormat::tga_rle;
  if (tga && (width > kTgaMaxSide || height > kTgaMaxSide))
    return "TGA images hold at most " + std::to_string(kTgaMaxSide) + " pixels a side, and this one is " + size +
           " (name it .png or .ppm)";
  // stb_image_write's JPEG encoder indexes the pixels with an int.
  if (format == ImageFormat::jpeg && 3.0 * double(width) * double(height) > double(INT_MAX) / 2)
    return "JPEG images are written up to 2^30 bytes of pixels (about 18900 x 18900), and this one is " + size +
           " (name it .png or .ppm)";
  return "";
}

namespace {

void check_image(const std::string& path, const Image8& image, ImageFormat format) {
  if (image.width < 0 || image.height < 0 ||
      image.rgb.size() != std::size_t(image.width) * std::size_t(image.height) * 3)
    throw std::invalid_argument("write_image: pixel buffer does not match the image size");
  if (image.width == 0 || image.height == 0)
    fail(path, "the image is empty (" + std::to_string(image.width) + "x" + std::to_string(image.height) + " pixels)");
  const std::string problem = image_size_problem(format, image.width, image.height);
  if (!problem.empty()) fail(path, problem);
}

void encode(ByteSink& out, const Image8& image, ImageFormat format, const std::string& path, int jpeg_quality) {
  switch (format) {
    case ImageFormat::tga: return write_tga(out, image);
    case ImageFormat::tga_rle: return write_tga_rle(out, image);
    case ImageFormat::ppm: return write_ppm(out, image);
    case ImageFormat::png: return write_png(out, image);
    case ImageFormat::jpeg: return write_jpeg(out, image, path, jpeg_quality);
  }
  // No default label above, so that the compiler flags a format added to the enum but not here.
  throw std::invalid_argument("write_image: unknown ImageFormat value");
}

}  // namespace

void write_image(const std::string& path, const Image8& image, ImageFormat format, int jpeg_quality) {
  check_image(path, image, format);
  PendingFile out(path);
  encode(out, image, format, path, jpeg_quality);
  out.commit();
}

std::vector<std::uint8_t> encode_image(const Image8& image, ImageFormat format, int jpeg_quality) {
  const std::string what = "(in memory)";
  check_image(what, image, format);
  MemorySink out;
  encode(out, image, format, what, jpeg_quality);
  return std::move(out.bytes);
}

}  // namespace splotch
