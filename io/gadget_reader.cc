#include "io/gadget_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/field_names.h"
#include "io/gadget_file.h"
#include "io/missing_field.h"
#include "io/read_plan.h"

namespace splotch {
namespace {

// Where `block`'s values lie. A block of three values per particle (VEL) named for one value says
// so, rather than that its size fits no set of types.
GadgetBlockLayout layout_of(const GadgetFile& f, const GadgetBlock& block, int components, const QuantityRequest& q,
                            const std::string& key) {
  try {
    return f.layout(block, components, q.present, key + " = " + q.label);
  } catch (const UserError&) {
    if (components != 1 || key.rfind("color_label", 0) != 0) throw;
    bool three_fit = true;
    try {
      f.layout(block, 3, q.present, key + " = " + q.label);
    } catch (const UserError&) { three_fit = false; }
    if (!three_fit) throw;  // the error for one value per particle
    throw UserError("Gadget file '" + f.path() + "': block " + block.label + " (" + key + ") holds 3 values per " +
                    "particle where one is needed; for vector colours give color_is_vector" + key.substr(11) +
                    " = TRUE");
  }
}

// Plans the reading of quantity `q` for `count` particles of file type `type` of `f`, from its
// `skip`-th of the type, which go to [at, at + count) of `targets`.
void plan_block(const GadgetFile& f, int type, const QuantityRequest& q, int components, QuantityTargets targets,
                std::size_t at, std::size_t skip, std::size_t count, const std::string& key, ReadPlan& plan) {
  const std::string label = gadget_block_label(q.label);
  const double table_mass = f.header().mass[std::size_t(type)];
  if (components == 1 && label == "MASS" && table_mass != 0) {  // the mass table, not a block
    plan.fills.push_back({targets[0]->data() + at, count, float(table_mass * double(q.factor))});
    return;
  }
  const GadgetBlock* block = f.find(label);
  if (!block)
    throw MissingField("Gadget file '" + f.path() + "' has no block '" + q.label + "' (" + key + ") for its " +
                       std::to_string(count) + " particles of type " + std::to_string(type) +
                       "; its blocks are: " + f.labels());
  const GadgetBlockLayout layout = layout_of(f, *block, components, q, key);
  if (!(layout.types & (1u << type)))  // the block is there, but where its values lie is in doubt
    throw UserError("Gadget file '" + f.path() + "': block " + block->label + " (" + key + ") holds particle types " +
                    gadget_type_list(layout.types) + " but not type " + std::to_string(type) +
                    (q.present ? std::string() : "; if that is wrong, give the types with the *_present key"));
  const std::size_t stride = std::size_t(components) * std::size_t(layout.value_bytes);
  const std::size_t start = block->offset + layout.offset_of(f.header(), type, components) + skip * stride;
  const std::size_t piece = block_copy_piece(components, layout.value_bytes);
  for (std::size_t done = 0; done < count; done += piece) {
    BlockCopy c{&f.file(),  f.swapped(),        start + done * stride,       std::min(piece, count - done),
                components, layout.value_bytes, {nullptr, nullptr, nullptr}, q.factor};
    for (int j = 0; j < components; ++j)
      if (targets[std::size_t(j)]) c.targets[j] = targets[std::size_t(j)]->data() + at + done;
    plan.copies.push_back(c);
  }
}

// Plans the reading of the IDs (`q`, 4- or 8-byte integers) of `count` particles of file type
// `type` of `f`, from its `skip`-th, to `out`.
void plan_ids(const GadgetFile& f, int type, const QuantityRequest& q, std::uint64_t* out, std::size_t skip,
              std::size_t count, const std::string& key, ReadPlan& plan) {
  const GadgetBlock* block = f.find(gadget_block_label(q.label));
  if (!block)
    throw MissingField("Gadget file '" + f.path() + "' has no block '" + q.label + "' (" + key + ")" +
                       "; its blocks are: " + f.labels());
  // Every particle has an ID: the block holds all the file's types (4- or 8-byte integers).
  unsigned populated = 0;
  for (int t = 0; t < gadget_types; ++t)
    if (f.header().npart[std::size_t(t)] > 0) populated |= 1u << t;
  const GadgetBlockLayout layout = f.layout(*block, 1, q.present ? q.present : populated, key + " = " + q.label);
  const std::size_t bytes = std::size_t(layout.value_bytes);
  const std::size_t start = block->offset + layout.offset_of(f.header(), type, 1) + skip * bytes;
  const InputFile* file = &f.file();
  const bool swap = f.swapped();
  const std::size_t piece = std::size_t(1) << 20;
  for (std::size_t done = 0; done < count; done += piece) {
    const std::size_t n = std::min(piece, count - done), offset = start + done * bytes;
    std::uint64_t* to = out + done;
    plan.jobs.push_back([file, swap, offset, n, bytes, to] {
      std::vector<unsigned char> raw(n * bytes);
      file->read_at(raw.data(), raw.size(), offset);
      for (std::size_t i = 0; i < n; ++i) {
        if (bytes == 4) {
          std::uint32_t v;
          std::memcpy(&v, raw.data() + 4 * i, 4);
          to[i] = swap ? byte_swapped(v) : v;
        } else {
          std::uint64_t v;
          std::memcpy(&v, raw.data() + 8 * i, 8);
          to[i] = swap ? byte_swapped(v) : v;
        }
      }
    });
  }
}

}  // namespace

std::vector<std::vector<std::uint64_t>> gadget_file_counts(const TypedSnapshotRequest& o) {
  std::vector<std::vector<std::uint64_t>> counts;
  for (const std::string& path : o.files) {
    const GadgetFile f(path, o.swap_endian);
    counts.emplace_back(f.header().npart.begin(), f.header().npart.end());
  }
  return counts;
}

ParticleSet read_gadget(const TypedSnapshotRequest& o, const ProgressCallback& progress) {
  if (o.files.empty()) throw std::invalid_argument("read_gadget: no files");
  for (std::size_t n = 0; n < o.types.size(); ++n)
    if (o.types[n].file_type < 0 || o.types[n].file_type >= gadget_types)
      throw UserError("ptype" + std::to_string(n) + " = " + std::to_string(o.types[n].file_type) +
                      ": Gadget particle types are 0 to 5");
  // The files are opened as needed: with the counts of all files given (an MPI share), only the
  // first (for the box size) and those holding particles of the share.
  std::vector<std::unique_ptr<GadgetFile>> files(o.files.size());
  auto open = [&](std::size_t f) -> GadgetFile& {
    if (!files[f]) files[f] = std::make_unique<GadgetFile>(o.files[f], o.swap_endian);
    return *files[f];
  };
  std::vector<std::vector<std::uint64_t>> counts = o.share.file_counts;
  if (counts.empty())
    for (std::size_t f = 0; f < files.size(); ++f)
      counts.emplace_back(open(f).header().npart.begin(), open(f).header().npart.end());
  if (counts.size() != files.size()) throw std::invalid_argument("read_gadget: counts of another number of files");
  const auto count_of = [&](std::size_t f, int t) { return std::size_t(counts[f][std::size_t(t)]); };
  const ShareRanges ranges = share_ranges(o.types, files.size(), count_of, o.share);
  const std::vector<std::size_t> first = render_type_starts(o.types, ranges);
  // The positions' block must fit the header's counts before those counts size any array: a
  // corrupted header could otherwise ask for gigabytes.
  const std::vector<bool> used = files_of_share(o.types, files.size(), count_of, ranges);
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (!used[f]) continue;
    const GadgetFile& file = open(f);
    const GadgetBlock* pos = file.find("POS");
    if (!pos) throw UserError("Gadget file '" + file.path() + "' has no POS block; its blocks are: " + file.labels());
    file.layout(*pos, 3, std::nullopt, "positions");
  }
  ReadPlan plan;
  ParticleSet p = allocate_particles(first, o.types, plan);
  p.box_size = open(0).header().box_size;
  p.time = open(0).header().time;
  p.redshift = open(0).header().redshift;
  p.units = gadget_default_units(open(0).header().hubble, open(0).header().omega0, open(0).header().time,
                                 open(0).header().redshift);
  plan_files(
      o.types, first, files.size(), count_of, p, plan,
      [&](std::size_t f, int t, const QuantityRequest& q, int components, QuantityTargets targets, std::size_t at,
          std::size_t skip, std::size_t count, const std::string& key) {
        if (components == 0)
          plan_ids(*files[f], t, q, p.id.data() + at, skip, count, key, plan);
        else
          plan_block(*files[f], t, q, components, targets, at, skip, count, key, plan);
      },
      ranges);
  run_read_plan(plan, progress);
  return p;
}

}  // namespace splotch
