#include "io/gadget_reader.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "io/byte_order.h"
#include "io/field_names.h"
#include "io/first_error.h"
#include "io/gadget_file.h"
#include "params/user_error.h"

namespace splotch {
namespace {

// Particles per piece of parallel work (and per progress report).
constexpr std::size_t piece_particles = std::size_t(1) << 20;

// A run of particles to read: `count` particles of `components` values each, `value_bytes` per
// value, from `offset` of a file, into targets[c] (those that are set) times `factor`.
struct Copy {
  const GadgetFile* file;
  std::size_t offset, count;
  int components, value_bytes;
  float* targets[3];
  float factor;
};

// A run of particles that all get `value`.
struct Fill {
  float* target;
  std::size_t count;
  float value;
};

void run_copy(const Copy& c, std::vector<unsigned char>& buffer) {
  const bool swap = c.file->swapped();
  const std::size_t values = c.count * std::size_t(c.components);
  if (c.components == 1 && c.value_bytes == 4) {  // straight into the array
    float* out = c.targets[0];
    c.file->file().read_at(out, 4 * c.count, c.offset);
    if (swap) swap_bytes_4(out, c.count);
    if (c.factor != 1.0f)
      for (std::size_t i = 0; i < c.count; ++i) out[i] *= c.factor;
    return;
  }
  buffer.resize(values * std::size_t(c.value_bytes));
  c.file->file().read_at(buffer.data(), buffer.size(), c.offset);
  const std::size_t k = std::size_t(c.components);
  const unsigned char* in = buffer.data();
  if (c.value_bytes == 4) {
    for (std::size_t j = 0; j < k; ++j)
      if (float* out = c.targets[j])
        for (std::size_t i = 0; i < c.count; ++i) out[i] = load<float>(in + 4 * (i * k + j), swap) * c.factor;
  } else {
    for (std::size_t j = 0; j < k; ++j)
      if (float* out = c.targets[j])
        for (std::size_t i = 0; i < c.count; ++i) out[i] = float(load<double>(in + 8 * (i * k + j), swap) * double(c.factor));
  }
}

// Lists the copies and fills that load the particles of render type `n` from every file.
class Planner {
 public:
  Planner(const std::vector<std::unique_ptr<GadgetFile>>& files, ParticleSet& p) : files_(files), p_(p) {}

  std::vector<Copy> copies;
  std::vector<Fill> fills;

  void plan_type(int n, const GadgetTypeRequest& r, std::size_t first) {
    const std::string key = std::to_string(n);
    std::size_t at = first;
    for (const auto& f : files_) {
      const std::size_t count = f->header().npart[std::size_t(r.file_type)];
      if (count == 0) continue;
      quantity(*f, r.file_type, GadgetQuantity{"POS", 1.0f, std::nullopt}, 3, {&p_.x, &p_.y, &p_.z}, at, count,
               "positions", 0.0f);
      if (r.size_fix != 0)
        fills.push_back({p_.hsml.data() + at, count, r.size_fix});
      else
        quantity(*f, r.file_type, r.size, 1, {&p_.hsml, nullptr, nullptr}, at, count, "size_label" + key, 1.0f);
      if (r.vector_colour)
        quantity(*f, r.file_type, r.colour, 3, {&p_.colour[0], &p_.colour[1], &p_.colour[2]}, at, count,
                 "color_label" + key, 1.0f);
      else
        quantity(*f, r.file_type, r.colour, 1, {&p_.colour[0], nullptr, nullptr}, at, count, "color_label" + key, 1.0f);
      quantity(*f, r.file_type, r.intensity, 1, {&p_.intensity, nullptr, nullptr}, at, count, "intensity_label" + key,
               1.0f);
      at += count;
    }
  }

 private:
  void quantity(const GadgetFile& f, int type, const GadgetQuantity& q, int components,
                std::array<ParticleArray<float>*, 3> arrays, std::size_t at, std::size_t count, const std::string& key,
                float absent) {
    if (q.label.empty()) {
      for (int j = 0; j < components; ++j) fills.push_back({arrays[std::size_t(j)]->data() + at, count, absent});
      return;
    }
    const std::string label = gadget_block_label(q.label);
    const double table_mass = f.header().mass[std::size_t(type)];
    if (components == 1 && label == "MASS" && table_mass != 0) {  // the mass table, not a block
      fills.push_back({arrays[0]->data() + at, count, float(table_mass * double(q.factor))});
      return;
    }
    const GadgetBlock* block = f.find(label);
    if (!block)
      throw UserError("Gadget file '" + f.path() + "' has no block '" + q.label + "' (" + key + ") for its " +
                      std::to_string(count) + " particles of type " + std::to_string(type) + "; its blocks are: " +
                      f.labels());
    const GadgetBlockLayout layout = f.layout(*block, components, q.present, key + " = " + q.label);
    if (!(layout.types & (1u << type)))
      throw UserError("Gadget file '" + f.path() + "': block " + block->label + " (" + key + ") holds particle types " +
                      gadget_type_list(layout.types) + " but not type " + std::to_string(type) +
                      (q.present ? std::string() : "; if that is wrong, give the types with the *_present key"));
    const std::size_t start = block->offset + layout.offset_of(f.header(), type, components);
    const std::size_t stride = std::size_t(components) * std::size_t(layout.value_bytes);
    for (std::size_t done = 0; done < count; done += piece_particles) {
      Copy c{&f, start + done * stride, std::min(piece_particles, count - done), components, layout.value_bytes,
             {nullptr, nullptr, nullptr}, q.factor};
      for (int j = 0; j < components; ++j)
        if (arrays[std::size_t(j)]) c.targets[j] = arrays[std::size_t(j)]->data() + at + done;
      copies.push_back(c);
    }
  }

  const std::vector<std::unique_ptr<GadgetFile>>& files_;
  ParticleSet& p_;
};

}  // namespace

ParticleSet read_gadget(const GadgetOptions& o, const ProgressCallback& progress) {
  if (o.files.empty()) throw std::invalid_argument("read_gadget: no files");
  std::vector<std::unique_ptr<GadgetFile>> files;
  for (const std::string& path : o.files) files.push_back(std::make_unique<GadgetFile>(path, o.swap_endian));

  // Each render type's particles, from all files.
  std::vector<std::size_t> first(o.types.size() + 1, 0);
  for (std::size_t n = 0; n < o.types.size(); ++n) {
    const int t = o.types[n].file_type;
    if (t < 0 || t >= gadget_types)
      throw UserError("ptype" + std::to_string(n) + " = " + std::to_string(t) + ": Gadget particle types are 0 to 5");
    std::size_t count = 0;
    for (const auto& f : files) count += f->header().npart[std::size_t(t)];
    if (count == 0) {
      std::string counts;
      for (int k = 0; k < gadget_types; ++k) {
        std::uint64_t c = 0;
        for (const auto& f : files) c += f->header().npart[std::size_t(k)];
        counts += (k ? ", " : "") + std::to_string(c);
      }
      throw UserError("'" + o.files[0] + "'" + (files.size() > 1 ? " (and its other files)" : "") +
                      " holds no particles of type " + std::to_string(t) + " (ptype" + std::to_string(n) +
                      "); it holds " + counts + " of types 0 to 5: choose another ptype" + std::to_string(n) +
                      " or fewer ptypes");
    }
    first[n + 1] = first[n] + count;
  }
  const std::size_t total = first.back();

  ParticleSet p;
  p.box_size = files[0]->header().box_size;
  for (ParticleArray<float>* a : {&p.x, &p.y, &p.z, &p.hsml, &p.intensity, &p.colour[0]}) a->resize(total);
  const bool any_vector = std::any_of(o.types.begin(), o.types.end(), [](const GadgetTypeRequest& r) { return r.vector_colour; });
  if (any_vector) {
    p.colour[1].resize(total);
    p.colour[2].resize(total);
  }
  Planner plan(files, p);
  for (std::size_t n = 0; n < o.types.size(); ++n) {
    plan.plan_type(int(n), o.types[n], first[n]);
    if (any_vector && !o.types[n].vector_colour)
      for (int j : {1, 2}) plan.fills.push_back({p.colour[j].data() + first[n], first[n + 1] - first[n], 0.0f});
  }
  if (o.types.size() > 1) {
    p.type.resize(total);
    for (std::size_t n = 0; n < o.types.size(); ++n)
      std::fill(p.type.begin() + std::ptrdiff_t(first[n]), p.type.begin() + std::ptrdiff_t(first[n + 1]), std::uint8_t(n));
  }

  for (const Fill& f : plan.fills) {
    const long count = long(f.count);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; ++i) f.target[i] = f.value;
  }
  const long jobs = long(plan.copies.size());
  std::atomic<long> done{0};
  FirstError error;
#pragma omp parallel
  {
    std::vector<unsigned char> buffer;
#pragma omp for schedule(dynamic, 1)
    for (long k = 0; k < jobs; ++k)
      error.run([&] {
        run_copy(plan.copies[std::size_t(k)], buffer);
        const long now = ++done;
        if (progress && omp_get_thread_num() == 0) progress(double(now) / double(jobs));
      });
  }
  error.rethrow_if_any();
  return p;
}

}  // namespace splotch
