#include "io/image_reader.h"

#include <stb/stb_image.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "errors/user_error.h"

namespace splotch {
namespace {

using Bytes = std::vector<std::uint8_t>;

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw UserError("cannot read image '" + path + "': " + problem);
}

std::string truncated(std::size_t expected, std::size_t present, const char* what) {
  return "truncated: " + std::string(what) + " needs " + std::to_string(expected) + " bytes, the file has " +
         std::to_string(present);
}

// ---- the whole file in memory ----------------------------------------------------------------

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

Bytes read_file(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) fail(path, std::strerror(errno));
  // Sized from the file so that one read suffices; the extra byte lets that read see the end.
  // Growth below covers files that change size or report none (pipes).
  struct stat info {};
  const bool sized = ::fstat(::fileno(file.get()), &info) == 0 && S_ISREG(info.st_mode);
  Bytes bytes(sized ? std::size_t(info.st_size) + 1 : std::size_t(1) << 16);
  std::size_t used = 0;
  for (;;) {
    if (used == bytes.size()) bytes.resize(bytes.size() * 2);
    errno = 0;
    used += std::fread(bytes.data() + used, 1, bytes.size() - used, file.get());
    // A directory opens fine and fails here, with EISDIR.
    if (std::ferror(file.get())) fail(path, errno != 0 ? std::strerror(errno) : "read failed");
    if (std::feof(file.get())) break;
  }
  bytes.resize(used);
  return bytes;
}

// ---- TGA -------------------------------------------------------------------------------------

constexpr std::size_t kTgaHeaderSize = 18;
constexpr std::uint8_t kTgaTopFirst = 0x20;     // descriptor bit 5: file row 0 is the top row
constexpr std::uint8_t kTgaRightToLeft = 0x10;  // descriptor bit 4: columns stored right first

struct TgaHeader {
  int id_length, colour_map_type, image_type;
  int colour_map_length, colour_map_entry_bits;
  int width, height, bits_per_pixel, descriptor;
};

int u16_le(const std::uint8_t* bytes) { return bytes[0] | (bytes[1] << 8); }

TgaHeader parse_tga_header(const std::string& path, const Bytes& bytes) {
  if (bytes.size() < kTgaHeaderSize) fail(path, truncated(kTgaHeaderSize, bytes.size(), "a TGA header"));
  const std::uint8_t* h = bytes.data();
  return TgaHeader{h[0], h[1], h[2], u16_le(h + 5), h[7], u16_le(h + 12), u16_le(h + 14), h[16], h[17]};
}

void check_tga_supported(const std::string& path, const TgaHeader& header) {
  if (header.image_type != 2 && header.image_type != 10)
    fail(path, "unsupported TGA image type " + std::to_string(header.image_type) +
                   " (only true colour, types 2 and 10, is supported)");
  if (header.colour_map_type > 1) fail(path, "invalid TGA colour map type " + std::to_string(header.colour_map_type));
  if (header.bits_per_pixel != 24)
    fail(path,
         "unsupported TGA pixel depth of " + std::to_string(header.bits_per_pixel) + " bits (only 24 is supported)");
  if (header.width == 0 || header.height == 0)
    fail(path, "the TGA header gives an empty image (" + std::to_string(header.width) + "x" +
                   std::to_string(header.height) + " pixels)");
}

// True-colour files may still carry a colour map, which is then only skipped.
std::size_t tga_pixel_offset(const TgaHeader& header) {
  if (header.colour_map_type != 1) return kTgaHeaderSize + std::size_t(header.id_length);
  const std::size_t entry_bytes = std::size_t(header.colour_map_entry_bits + 7) / 8;
  return kTgaHeaderSize + std::size_t(header.id_length) + std::size_t(header.colour_map_length) * entry_bytes;
}

// Decodes run-length packets into `size` bytes of B G R in file order. Packets may cross rows:
// the specification forbids it, but some writers do it and the meaning is unambiguous.
Bytes decode_tga_rle(const std::string& path, const Bytes& bytes, std::size_t offset, std::size_t size) {
  // A 4-byte repeat packet yields at most 128 pixels (384 bytes): refuse to allocate for a
  // header whose size the data cannot possibly fill (a truncated or corrupt file).
  constexpr std::size_t kMaxExpansion = 128 * 3 / 4;
  if (size / kMaxExpansion > bytes.size() - offset)
    fail(path, "truncated: the run-length data is far too short for the image size");
  Bytes pixels(size);
  std::size_t in = offset, out = 0;
  while (out < size) {
    if (in >= bytes.size()) fail(path, "truncated: the run-length data ends inside the image");
    const std::uint8_t packet = bytes[in++];
    const std::size_t count = std::size_t(packet & 0x7f) + 1;
    if (out + 3 * count > size) fail(path, "corrupt run-length data: a packet runs past the end of the image");
    const bool repeat = (packet & 0x80) != 0;
    const std::size_t data_bytes = repeat ? 3 : 3 * count;
    if (bytes.size() - in < data_bytes) fail(path, "truncated: the run-length data ends inside a packet");
    for (std::size_t i = 0; i < count; ++i) std::memcpy(&pixels[out + 3 * i], &bytes[in + (repeat ? 0 : 3 * i)], 3);
    in += data_bytes;
    out += 3 * count;
  }
  return pixels;
}

Image8 tga_to_image(const std::uint8_t* bgr, const TgaHeader& header) {
  Image8 image(header.width, header.height);
  const bool top_first = (header.descriptor & kTgaTopFirst) != 0;
  const bool right_to_left = (header.descriptor & kTgaRightToLeft) != 0;
  for (int row = 0; row < header.height; ++row) {
    const int y = top_first ? row : header.height - 1 - row;
    const std::uint8_t* src = bgr + std::size_t(row) * std::size_t(header.width) * 3;
    for (int column = 0; column < header.width; ++column, src += 3) {
      std::uint8_t* dst = image.pixel(right_to_left ? header.width - 1 - column : column, y);
      dst[0] = src[2];
      dst[1] = src[1];
      dst[2] = src[0];
    }
  }
  return image;
}

Image8 decode_tga(const std::string& path, const Bytes& bytes) {
  const TgaHeader header = parse_tga_header(path, bytes);
  check_tga_supported(path, header);
  const std::size_t offset = tga_pixel_offset(header);
  if (offset > bytes.size()) fail(path, truncated(offset, bytes.size(), "the TGA header block"));
  const std::size_t size = std::size_t(header.width) * std::size_t(header.height) * 3;
  if (header.image_type == 10) return tga_to_image(decode_tga_rle(path, bytes, offset, size).data(), header);
  if (bytes.size() - offset < size) fail(path, truncated(offset + size, bytes.size(), "the uncompressed TGA image"));
  return tga_to_image(bytes.data() + offset, header);
}

// ---- PPM -------------------------------------------------------------------------------------

// Netpbm's whitespace: blank, tab, CR, LF, vertical tab, form feed.
bool is_ppm_space(std::uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Comments run from '#' to the end of the line and may appear wherever whitespace may.
std::size_t skip_ppm_space(const Bytes& bytes, std::size_t pos) {
  while (pos < bytes.size()) {
    if (is_ppm_space(bytes[pos])) {
      ++pos;
    } else if (bytes[pos] == '#') {
      while (pos < bytes.size() && bytes[pos] != '\n' && bytes[pos] != '\r') ++pos;
    } else {
      break;
    }
  }
  return pos;
}

int read_ppm_number(const std::string& path, const Bytes& bytes, std::size_t& pos, const char* what) {
  pos = skip_ppm_space(bytes, pos);
  if (pos >= bytes.size()) fail(path, std::string("truncated: the PPM header ends before the ") + what);
  if (!std::isdigit(bytes[pos]))
    fail(path, std::string("malformed PPM header: expected the ") + what + ", found '" + char(bytes[pos]) + "'");
  long long value = 0;
  for (; pos < bytes.size() && std::isdigit(bytes[pos]); ++pos) {
    value = value * 10 + (bytes[pos] - '0');
    if (value > INT_MAX) fail(path, std::string("the PPM ") + what + " is too large");
  }
  return int(value);
}

Image8 decode_ppm(const std::string& path, const Bytes& bytes) {
  std::size_t pos = 2;  // after "P6"
  const int width = read_ppm_number(path, bytes, pos, "width");
  const int height = read_ppm_number(path, bytes, pos, "height");
  const int maxval = read_ppm_number(path, bytes, pos, "maximum value");
  // Exactly one whitespace byte separates the header from the data, which may start with any
  // byte value, so no further skipping here.
  if (pos >= bytes.size()) fail(path, "truncated: the PPM header ends after the maximum value");
  if (!is_ppm_space(bytes[pos])) fail(path, "malformed PPM header: no whitespace after the maximum value");
  ++pos;
  if (width == 0 || height == 0)
    fail(path,
         "the PPM header gives an empty image (" + std::to_string(width) + "x" + std::to_string(height) + " pixels)");
  if (maxval != 255) fail(path, "unsupported PPM maximum value " + std::to_string(maxval) + " (only 255 is supported)");
  const std::size_t size = std::size_t(width) * std::size_t(height) * 3;
  if (bytes.size() - pos < size) fail(path, truncated(pos + size, bytes.size(), "the PPM image"));
  Image8 image(width, height);
  std::memcpy(image.rgb.data(), bytes.data() + pos, size);
  return image;
}

// ---- PNG -------------------------------------------------------------------------------------

struct StbFree {
  void operator()(stbi_uc* pixels) const { stbi_image_free(pixels); }
};

// PNG and JPEG: stb_image decodes either (`what` names the format in messages).
Image8 decode_stb(const std::string& path, const Bytes& bytes, const std::string& what) {
  if (bytes.size() > std::size_t(INT_MAX)) fail(path, "the " + what + " file is too large for the decoder");
  int width = 0, height = 0, channels_in_file = 0;
  std::unique_ptr<stbi_uc, StbFree> pixels(
      stbi_load_from_memory(bytes.data(), int(bytes.size()), &width, &height, &channels_in_file, 3));
  if (!pixels) {
    const char* reason = stbi_failure_reason();
    fail(path, what + " decoding failed (" + (reason ? reason : "unknown reason") + "; truncated or corrupt file?)");
  }
  Image8 image(width, height);
  std::memcpy(image.rgb.data(), pixels.get(), image.rgb.size());
  return image;
}

// ---- which format ----------------------------------------------------------------------------

enum class FileKind { tga, ppm, png, jpeg };

bool starts_with(const Bytes& bytes, const char* magic, std::size_t length) {
  return bytes.size() >= length && std::memcmp(bytes.data(), magic, length) == 0;
}

std::string lower_extension(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string extension = path.substr(dot);
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

// TGA has no signature; this accepts headers whose fields hold values the format defines, so
// that other files get "unrecognised" rather than a puzzling TGA complaint.
bool looks_like_tga(const Bytes& bytes) {
  if (bytes.size() < kTgaHeaderSize) return false;
  const int type = bytes[2], bits = bytes[16];
  const bool known_type = (type >= 1 && type <= 3) || (type >= 9 && type <= 11);
  const bool known_bits = bits == 8 || bits == 15 || bits == 16 || bits == 24 || bits == 32;
  return bytes[1] <= 1 && known_type && known_bits;
}

FileKind detect_kind(const std::string& path, const Bytes& bytes) {
  if (bytes.empty()) fail(path, "the file is empty");
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n", 8)) return FileKind::png;
  if (starts_with(bytes, "P6", 2)) return FileKind::ppm;
  if (starts_with(bytes, "\xff\xd8\xff", 3)) return FileKind::jpeg;
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7')
    fail(path, std::string("unsupported Netpbm variant P") + char(bytes[1]) + " (only binary PPM, P6, is supported)");
  const std::string extension = lower_extension(path);
  if (extension == ".png") fail(path, "not a PNG file (the PNG signature is missing)");
  if (extension == ".ppm") fail(path, "not a binary PPM file (it does not start with \"P6\")");
  if (extension == ".tga" || looks_like_tga(bytes)) return FileKind::tga;
  fail(path, "unrecognised image format (expected TGA, binary PPM, PNG or JPEG)");
}

}  // namespace

Image8 read_image(const std::string& path) {
  const Bytes bytes = read_file(path);
  switch (detect_kind(path, bytes)) {
    case FileKind::tga: return decode_tga(path, bytes);
    case FileKind::ppm: return decode_ppm(path, bytes);
    case FileKind::png: return decode_stb(path, bytes, "PNG");
    case FileKind::jpeg: return decode_stb(path, bytes, "JPEG");
  }
  throw std::logic_error("read_image: unknown file kind");
}

}  // namespace splotch
