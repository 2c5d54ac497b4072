#include "io/png_encode.h"

#include <zlib.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace splotch {
namespace {

// Rows per strip: enough that a strip's compressor finds its matches (a fresh dictionary per
// strip costs little), few enough that a picture of a few hundred rows has a strip per thread.
constexpr int strip_rows = 32;
constexpr int level = 2;  // zlib's: near the fastest, and much smaller than level 1 on rendered sky

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(std::uint8_t(v >> shift));
}

void put_chunk(std::vector<std::uint8_t>& out, const char* type, const std::uint8_t* data, std::size_t size) {
  put_u32(out, std::uint32_t(size));
  const std::size_t at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data, data + size);
  put_u32(out, std::uint32_t(crc32(0, out.data() + at, uInt(size + 4))));
}

// Strip `s`'s rows, each its filter byte (2: Up) and its bytes less the row above's.
std::vector<std::uint8_t> filtered_strip(const Image8& image, int s) {
  const std::size_t row = std::size_t(image.width) * 3;
  const int first = s * strip_rows, last = std::min(image.height, first + strip_rows);
  std::vector<std::uint8_t> out(std::size_t(last - first) * (row + 1));
  std::uint8_t* o = out.data();
  for (int y = first; y < last; ++y) {
    const std::uint8_t* p = image.pixel(0, y);
    *o++ = 2;
    if (y == 0) {
      std::memcpy(o, p, row);
    } else {
      const std::uint8_t* above = image.pixel(0, y - 1);
      for (std::size_t i = 0; i < row; ++i) o[i] = std::uint8_t(p[i] - above[i]);
    }
    o += row;
  }
  return out;
}

// A strip deflated (raw, no zlib header): ends with a sync flush, or with the stream's end.
std::vector<std::uint8_t> deflated(const std::vector<std::uint8_t>& in, bool last) {
  struct Stream {  // deflateEnd however this ends
    z_stream z{};
    bool open = false;
    ~Stream() {
      if (open) deflateEnd(&z);
    }
  } s;
  if (deflateInit2(&s.z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("PNG encoding: zlib did not start");
  s.open = true;
  // deflateBound does not count the sync flush's few bytes: 16 more (at most 3 were seen).
  std::vector<std::uint8_t> out(deflateBound(&s.z, uLong(in.size())) + 16);
  s.z.next_in = const_cast<Bytef*>(in.data());
  s.z.avail_in = uInt(in.size());
  s.z.next_out = out.data();
  s.z.avail_out = uInt(out.size());
  const int status = deflate(&s.z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool ok = last ? status == Z_STREAM_END : status == Z_OK && s.z.avail_in == 0;
  if (!ok) throw std::runtime_error("PNG encoding: zlib failed (" + std::to_string(status) + ")");
  out.resize(out.size() - s.z.avail_out);
  return out;
}

}  // namespace

std::vector<std::uint8_t> encode_png(const Image8& image) {
  if (image.width <= 0 || image.height <= 0)
    throw std::invalid_argument("encode_png: an empty image (" + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + ")");
  const int strips = (image.height + strip_rows - 1) / strip_rows;
  std::vector<std::vector<std::uint8_t>> packed(static_cast<std::size_t>(strips));
  std::vector<uLong> sums(static_cast<std::size_t>(strips));
  std::vector<std::size_t> raw(static_cast<std::size_t>(strips));
  std::string failure;
#pragma omp parallel for schedule(dynamic)
  for (int s = 0; s < strips; ++s) {
    try {
      const std::vector<std::uint8_t> rows = filtered_strip(image, s);
      sums[std::size_t(s)] = adler32(adler32(0, nullptr, 0), rows.data(), uInt(rows.size()));
      raw[std::size_t(s)] = rows.size();
      packed[std::size_t(s)] = deflated(rows, s == strips - 1);
    } catch (const std::exception& e) {
#pragma omp critical(png_failure)
      failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);

  std::size_t total = 64;
  for (const auto& p : packed) total += p.size() + 12;
  std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  out.reserve(total);
  std::vector<std::uint8_t> header;
  put_u32(header, std::uint32_t(image.width));
  put_u32(header, std::uint32_t(image.height));
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8 bits, RGB, deflate, adaptive filters, no interlace
  put_chunk(out, "IHDR", header.data(), header.size());
  // An IDAT chunk per strip (a chunk holds at most 2^31 - 1 bytes; the stream runs on across
  // them): the zlib header (deflate, 32 KiB window; its check bits fit) before the first strip,
  // the Adler-32 of all the rows after the last.
  uLong sum = adler32(0, nullptr, 0);
  for (int s = 0; s < strips; ++s) {
    std::vector<std::uint8_t>& data = packed[std::size_t(s)];
    if (s == 0) data.insert(data.begin(), {0x78, 0x01});
    sum = adler32_combine(sum, sums[std::size_t(s)], z_off_t(raw[std::size_t(s)]));
    if (s == strips - 1) put_u32(data, std::uint32_t(sum));
    put_chunk(out, "IDAT", data.data(), data.size());
    data = std::vector<std::uint8_t>();  // its memory back
  }
  put_chunk(out, "IEND", nullptr, 0);
  return out;
}

}  // namespace splotch
