#include "io/raw_reader.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/first_error.h"
#include "io/input_file.h"
#include "io/read_ahead.h"

namespace splotch {
namespace {

// One field to read: which column of the file goes into which array.
struct Field {
  ParticleArray<float>* target;
  int column;
  float scale;
};

void check_columns(const std::string& path, const RawOptions& o) {
  if (o.num_fields < 1)
    throw UserError("raw file '" + path + "': num_blocks = " + std::to_string(o.num_fields) + " must be at least 1");
  const int given[] = {o.x, o.y, o.z, o.hsml, o.intensity, o.colour[0], o.colour[1], o.colour[2]};
  const char* names[] = {"x", "y", "z", "r", "I", "C1", "C2", "C3"};
  for (int k = 0; k < 8; ++k)
    if (given[k] >= o.num_fields)
      throw UserError("raw file '" + path + "': column " + names[k] + " = " + std::to_string(given[k] + 1) +
                      " exceeds num_blocks = " + std::to_string(o.num_fields));
  for (int k = 0; k < 3; ++k)
    if (given[k] < 0)
      throw UserError(std::string("raw file '") + path + "': the column of " + names[k] + " must be given");
}

std::size_t particle_count(const std::string& path, const RawOptions& o, std::size_t file_size) {
  const std::size_t record = 4 * std::size_t(o.num_fields);
  if (file_size == 0) throw UserError("raw file '" + path + "' is empty: no particles to render");
  if (file_size % record != 0)
    throw UserError("raw file '" + path + "' is truncated or has the wrong num_blocks: its size, " +
                    std::to_string(file_size) + " bytes, is not a multiple of " + std::to_string(o.num_fields) +
                    " fields x 4 bytes = " + std::to_string(record) + " bytes");
  return file_size / record;
}

// Allocates the arrays, fills the ones with no column with the original's defaults, and lists the
// ones to read.
std::vector<Field> plan_fields(ParticleSet& p, const RawOptions& o, std::size_t n) {
  std::vector<Field> fields = {{&p.x, o.x, 1.0f}, {&p.y, o.y, 1.0f}, {&p.z, o.z, 1.0f}};
  auto wanted = [&](ParticleArray<float>& v, int column, float fallback, float scale) {
    if (column >= 0) {
      v.resize(n);
      fields.push_back({&v, column, scale});
    } else {
      v.assign(n, fallback);
    }
  };
  p.x.resize(n);
  p.y.resize(n);
  p.z.resize(n);
  wanted(p.hsml, o.hsml, o.smooth_factor, o.smooth_factor);
  wanted(p.intensity, o.intensity, o.intensity_absent, 1.0f);
  wanted(p.colour[0], o.colour[0], 1.0f, 1.0f);
  if (o.vector_colour) {
    // The original's table reader takes green and blue only when both columns are given.
    bool both = o.colour[1] >= 0 && o.colour[2] >= 0;
    bool table = o.layout == RawOptions::Layout::table;
    wanted(p.colour[1], (both || !table) ? o.colour[1] : -1, 0.0f, 1.0f);
    wanted(p.colour[2], (both || !table) ? o.colour[2] : -1, 0.0f, 1.0f);
  }
  return fields;
}

void finish_values(float* v, std::size_t count, const RawOptions& o, float scale) {
  if (o.swap_endian) swap_bytes_4(v, count);
  if (scale != 1.0f)
    for (std::size_t i = 0; i < count; ++i) v[i] *= scale;
}

// Pieces of this many particles are the unit of parallel reading and of progress reports.
constexpr std::size_t piece_particles = std::size_t(1) << 20;

// Particles [lo, lo + n) of the file's `total`.
void read_blocks(const InputFile& file, const std::vector<Field>& fields, std::size_t lo, std::size_t n,
                 std::size_t total, const RawOptions& o, const ProgressCallback& progress) {
  const std::size_t pieces_per_field = (n + piece_particles - 1) / piece_particles;
  const long pieces = long(pieces_per_field * fields.size());
  auto piece_of = [&](long k, std::size_t& first, std::size_t& count) -> const Field& {
    first = (std::size_t(k) % pieces_per_field) * piece_particles;
    count = std::min(piece_particles, n - first);
    return fields[std::size_t(k) / pieces_per_field];
  };
  std::vector<ReadAhead::Range> ranges;
  for (long k = 0; k < pieces; ++k) {
    std::size_t first, count;
    const Field& f = piece_of(k, first, count);
    ranges.push_back({&file, 4 * (std::size_t(f.column) * total + lo + first), 4 * count});
  }
  ReadAhead ahead(std::move(ranges));
  std::atomic<long> done{0};
  FirstError error;
#pragma omp parallel for schedule(dynamic, 1)
  for (long k = 0; k < pieces; ++k) {
    error.run([&] {
      std::size_t first, count;
      const Field& f = piece_of(k, first, count);
      ahead.reading(std::size_t(k));
      float* dest = f.target->data() + first;
      file.read_at(dest, 4 * count, 4 * (std::size_t(f.column) * total + lo + first));
      finish_values(dest, count, o, f.scale);
      long now = ++done;
      if (progress && omp_get_thread_num() == 0) progress(double(now) / double(pieces));
    });
  }
  error.rethrow_if_any();
}

void read_table(const InputFile& file, const std::vector<Field>& fields, std::size_t lo, std::size_t n,
                const RawOptions& o, const ProgressCallback& progress) {
  const std::size_t nf = std::size_t(o.num_fields);
  const std::size_t per_piece = std::max<std::size_t>(1, piece_particles / nf);
  const long total = long((n + per_piece - 1) / per_piece);
  auto piece_of = [&](long k, std::size_t& first, std::size_t& count) {
    first = std::size_t(k) * per_piece;
    count = std::min(per_piece, n - first);
  };
  std::vector<ReadAhead::Range> ranges;
  for (long k = 0; k < total; ++k) {
    std::size_t first, count;
    piece_of(k, first, count);
    ranges.push_back({&file, 4 * (lo + first) * nf, 4 * count * nf});
  }
  ReadAhead ahead(std::move(ranges));
  std::atomic<long> done{0};
  FirstError error;
#pragma omp parallel
  {
    std::vector<float> buffer(per_piece * nf);
#pragma omp for schedule(dynamic, 1)
    for (long k = 0; k < total; ++k) {
      error.run([&] {
        std::size_t first, count;
        piece_of(k, first, count);
        ahead.reading(std::size_t(k));
        file.read_at(buffer.data(), 4 * count * nf, 4 * (lo + first) * nf);
        if (o.swap_endian) swap_bytes_4(buffer.data(), count * nf);
        for (const Field& f : fields) {
          float* dest = f.target->data() + first;
          const float* src = buffer.data() + f.column;
          for (std::size_t i = 0; i < count; ++i) dest[i] = src[i * nf] * f.scale;
        }
        long now = ++done;
        if (progress && omp_get_thread_num() == 0) progress(double(now) / double(total));
      });
    }
  }
  error.rethrow_if_any();
}

// The fraction of the non-zero samples whose binary exponents fall within 2^24 of each other
// (about 7 decades). Positions of a real simulation do; the same bytes read in the wrong order
// have exponents made of mantissa bits, spread over the whole range, or denormal.
double exponent_concentration(const std::vector<float>& sample, bool swapped) {
  int histogram[256] = {0};
  std::size_t nonzero = 0;
  for (float v : sample) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (swapped) bits = __builtin_bswap32(bits);
    if ((bits & 0x7fffffffu) == 0) continue;
    ++nonzero;
    const int exponent = int((bits >> 23) & 0xffu);
    if (exponent != 0 && exponent != 255) ++histogram[exponent];  // denormals, inf and NaN count against
  }
  if (nonzero == 0) return 1.0;
  const int window = 24;
  int best = 0, in_window = 0;
  for (int e = 0; e < 256; ++e) {
    in_window += histogram[e] - (e >= window ? histogram[e - window] : 0);
    best = std::max(best, in_window);
  }
  return double(best) / double(nonzero);
}

// A file read with the wrong swap_endian gives positions of absurd magnitudes; say so plainly
// instead of letting every particle be rejected later, or rendering noise.
void check_byte_order(const std::string& path, const ParticleArray<float>& x, const RawOptions& o) {
  const std::size_t samples = std::min<std::size_t>(x.size(), 10000);
  std::vector<float> sample(samples);
  for (std::size_t s = 0; s < samples; ++s) sample[s] = x[s * x.size() / samples];
  if (exponent_concentration(sample, false) < 0.5 && exponent_concentration(sample, true) > 0.9)
    throw UserError("raw file '" + path + "' seems to have the other byte order: read with swap_endian = " +
                    (o.swap_endian ? "TRUE" : "FALSE") +
                    ", its positions are implausible; set swap_endian = " + (o.swap_endian ? "FALSE" : "TRUE"));
}

}  // namespace

ParticleSet read_raw(const std::string& path, const RawOptions& options, const ProgressCallback& progress) {
  check_columns(path, options);
  InputFile file(path);
  const std::size_t total = particle_count(path, options, file.size());
  const auto [lo, hi] = options.share.of(total);
  const std::size_t n = hi - lo;
  ParticleSet p;
  std::vector<Field> fields = plan_fields(p, options, n);
  if (options.layout == RawOptions::Layout::blocks)
    read_blocks(file, fields, lo, n, total, options, progress);
  else
    read_table(file, fields, lo, n, options, progress);
  check_byte_order(path, p.x, options);
  return p;
}

}  // namespace splotch
