// Views drawn from particles kept on the GPU (cuda/device_particles.h, through
// splotch/render/gpu_particles.h) against the host's stages on the same particles: geometry,
// colour, draw keys and the host renderer. The pictures must agree as the GPU renderers' do with
// the host's (within 1e-4 of the image maximum: the projection is the host's bit for bit, the
// renderers' exponentials differ), and the splats in view must be the same count.
// Skipped where no GPU is present (tests/support/gpu_skip.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda/device_particles.h"
#include "io/image_reader.h"
#include "params/param_file.h"
#include "splotch/frame/gpu_split.h"
#include "splotch/frame/pipeline.h"
#include "splotch/mpi/draw_order_split.h"
#include "splotch/render/gpu_copies.h"
#include "splotch/render/gpu_particles.h"
#include "splotch/render/gpu_startup.h"
#include "splotch/render/host_renderer.h"
#include "splotch/stages/colour.h"
#include "splotch/stages/geometry.h"
#include "splotch/stages/sort.h"
#include "splotch/stages/tile_order.h"
#include "splotch/util/console.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_support.h"

namespace splotch {
namespace {

using testing::max_abs_difference;
using testing::max_value;
using testing::no_gpu;

// n particles in a box of side 10 at the origin, two types (type 1 with vector colours when
// `vector`), the same on every machine.
ParticleSet box_of_particles(int n, bool vector, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(0.0f, 10.0f), h(0.02f, 0.6f), in(0.1f, 1.0f), c(-0.1f, 1.1f);
  ParticleSet p;
  for (int i = 0; i < n; ++i) {
    p.x.push_back(pos(rng));
    p.y.push_back(pos(rng));
    p.z.push_back(pos(rng));
    p.hsml.push_back(h(rng));
    p.intensity.push_back(in(rng));
    p.colour[0].push_back(c(rng));
    if (vector) {
      p.colour[1].push_back(c(rng));
      p.colour[2].push_back(c(rng));
    }
    p.type.push_back(std::uint8_t(rng() % 2));
  }
  p.box_size = 10;
  return p;
}

// The same particles with one smoothing length: orthographic radii all equal, so sorting by
// radius gives every splat the same key (the ties case).
ParticleSet with_equal_hsml(ParticleSet p) {
  for (float& h : p.hsml) h = 0.3f;
  return p;
}

GeometryOptions view_of_box(bool perspective) {
  GeometryOptions g;
  g.camera.position = g.camera.center = {5, -9, 14};
  g.camera.lookat = {5, 5, 5};
  g.camera.sky = {0, 0, 1};
  g.camera.perspective = perspective;
  g.camera.xres = 240;
  g.camera.yres = 180;
  g.minrad_pix = 1;
  g.smooth_factor = {1.0f, 1.5f};
  return g;
}

// The host's stages and renderer on the same particles and view, as the pipeline runs them
// (splotch/frame/splat_steps.cc): file-order keys, the order by tile, colour, the other keys.
// `tiles` false: without the order by tile (equal keys then go in particle order).
Image host_picture(const ParticleSet& p, const GeometryOptions& g, bool wrap, const std::vector<TypeColour>& looks,
                   SortOrder sort, const RenderOptions& o, std::size_t& in_view, Image image, bool tiles = true) {
  Splats s = project(p, g, wrap);
  in_view = s.size();
  if (!o.a_eq_e && sort == SortOrder::none) assign_draw_keys(s, sort);
  std::vector<std::size_t> tile_start;
  if (tiles) tile_start = order_by_tile(s, o.tile_size, g.camera.xres, g.camera.yres);
  colourize(s, looks);
  if (!o.a_eq_e && s.draw_key.empty()) assign_draw_keys(s, sort);
  SplatView v = view_of(s);
  v.tile_start = tiles ? tile_start.data() : nullptr;
  render_host(v, o, image);
  return image;
}

// A picture already holding something, which a_eq_e adds to and a_eq_e = FALSE composites over.
Image background(const GeometryOptions& g) {
  Image image(g.camera.xres, g.camera.yres);
  for (std::size_t i = 0; i < image.rgb.size(); ++i) image.rgb[i] = 0.02f * float(i % 7);
  return image;
}

struct Case {
  std::string name;
  bool perspective = true, wrap = false, a_eq_e = true;
  double preview = 1;
  SortOrder sort = SortOrder::depth;
  CudaAlgorithm algorithm = CudaAlgorithm::btile;
  int boundary = 32;
  bool equal_hsml = false;   // every particle of a type has the same radius: ties of sort_type 4
  bool large_on_gpu = true;  // CudaOptions::large_on_gpu
};

// Every case the GPU draws from kept particles: both projections, the wrap, a preview, splats
// drawn on the host, both algorithms, every draw order, equal keys.
std::vector<Case> view_cases() {
  std::vector<Case> cases;
  cases.push_back({"perspective, a_eq_e"});
  cases.push_back({"orthographic, a_eq_e", false});
  cases.push_back({"wrapped about lookat", true, true});
  cases.push_back({"a preview's share of the light", true, false, true, 0.25});
  cases.push_back({"narrow boundary: many large splats drawn on the GPU tile by tile", true, false, true, 1,
                   SortOrder::depth, CudaAlgorithm::btile, 2});
  cases.push_back({"narrow boundary: many splats drawn on the host", true, false, true, 1, SortOrder::depth,
                   CudaAlgorithm::btile, 2, false, false});
  cases.push_back({"wrapped, large splats on the host", true, true, true, 1, SortOrder::depth, CudaAlgorithm::btile, 8,
                   false, false});
  cases.push_back({"fragment, a_eq_e", true, false, true, 1, SortOrder::depth, CudaAlgorithm::fragment});
  for (SortOrder sort : {SortOrder::none, SortOrder::depth, SortOrder::red_descending, SortOrder::red_ascending,
                         SortOrder::radius_descending})
    cases.push_back({"a_eq_e = FALSE, sort_type " + std::to_string(int(sort)), true, false, false, 1, sort});
  cases.push_back({"a_eq_e = FALSE, fragment", true, false, false, 1, SortOrder::depth, CudaAlgorithm::fragment});
  // Orthographic, equal smoothing lengths, by radius: two keys for 20000 splats, drawn as the
  // host's tile order leaves equal keys.
  cases.push_back({"a_eq_e = FALSE, equal keys", false, false, false, 1, SortOrder::radius_descending,
                   CudaAlgorithm::btile, 32, true});
  return cases;
}

}  // namespace

TEST_CASE("gpu-kept particles: views drawn on the GPU equal the host's stages and renderer" * doctest::skip(no_gpu())) {
  const Palette ramp("ramp", {{0, 0, 0.2f}, {1, 0.3f, 0}, {1, 1, 1}});
  CudaSession session;
  const std::vector<Case> cases = view_cases();

  for (const bool vector : {false, true}) {
    const ParticleSet p = box_of_particles(20000, vector, vector ? 5 : 4);
    const ParticleSet equal = with_equal_hsml(p);
    const std::unique_ptr<DeviceParticles> kept = DeviceParticles::upload(p, session),
                                           kept_equal = DeviceParticles::upload(equal, session);
    REQUIRE(kept);
    REQUIRE(kept_equal);
    CHECK(kept->size() == p.size());
    const std::vector<TypeColour> looks = {{false, &ramp, 1.3f}, {vector, vector ? nullptr : &ramp, 0.7f}};
    for (const Case& c : cases) {
      CAPTURE(c.name);
      CAPTURE(vector);
      GeometryOptions g = view_of_box(c.perspective);
      g.preview_fraction = c.preview;
      if (c.wrap) g.camera.lookat = {1, 1, 1};  // half the box lies beyond half a box from lookat
      CudaOptions o;
      o.algorithm = c.algorithm;
      o.boundary = c.boundary;
      o.host.a_eq_e = c.a_eq_e;
      o.host.tile_size = 32;
      o.large_on_gpu = c.large_on_gpu;
      std::size_t in_view = 0;
      const Image host =
          host_picture(c.equal_hsml ? equal : p, g, c.wrap, looks, c.sort, o.host, in_view, background(g));
      Image gpu = background(g);
      const CudaReport report =
          render_gpu_particles(c.equal_hsml ? *kept_equal : *kept, g, c.wrap, looks, c.sort, o, gpu, session);
      CHECK(report.on_gpu + report.on_host == in_view);
      CHECK(in_view > 2000);
      if (c.boundary == 2) CHECK((c.large_on_gpu ? report.large_on_gpu : report.on_host) > 100);
      if (c.large_on_gpu) CHECK(report.on_host == 0);
      if (!c.large_on_gpu) CHECK(report.large_on_gpu == 0);
      if (!c.a_eq_e) CHECK(report.on_host == 0);
      const float scale = max_value(host);
      CHECK(scale > 0);
      CHECK(max_abs_difference(host, gpu) <= 1e-4f * scale);
      if (c.equal_hsml) {  // the order of equal keys shows: this case would see it wrong
        std::size_t unused = 0;
        const Image particle_order =
            host_picture(equal, g, c.wrap, looks, c.sort, o.host, unused, background(g), false);
        CHECK(max_abs_difference(host, particle_order) > 1e-2f * scale);
      }
    }
  }
}

TEST_CASE("gpu-kept particles: new intensities and colours reach the GPU with refresh_values" *
          doctest::skip(no_gpu())) {
  const Palette grey("grey", {{0, 0, 0}, {1, 1, 1}});
  CudaSession session;
  ParticleSet p = box_of_particles(5000, false, 9);
  const std::unique_ptr<DeviceParticles> kept = DeviceParticles::upload(p, session);
  REQUIRE(kept);
  const GeometryOptions g = view_of_box(true);
  const std::vector<TypeColour> looks = {{false, &grey, 1.0f}, {false, &grey, 1.0f}};
  CudaOptions o;
  o.host.tile_size = 32;
  for (float& v : p.intensity) v *= 3;
  for (float& v : p.colour[0]) v = 1 - v;
  kept->refresh_values(p);
  std::size_t in_view = 0;
  const Image host =
      host_picture(p, g, false, looks, SortOrder::depth, o.host, in_view, Image(g.camera.xres, g.camera.yres));
  Image gpu(g.camera.xres, g.camera.yres);
  render_gpu_particles(*kept, g, false, looks, SortOrder::depth, o, gpu, session);
  CHECK(max_abs_difference(host, gpu) <= 1e-4f * max_value(host));
  ParticleSet other = box_of_particles(5001, false, 9);
  CHECK_THROWS_AS(kept->refresh_values(other), std::logic_error);
}

TEST_CASE("gpu copies: one snapshot's copies at a time, kept while asked for, none again once given up" *
          doctest::skip(no_gpu())) {
  CudaSession session;
  const ParticleSet a = box_of_particles(3000, false, 1), b = box_of_particles(2000, false, 2);
  GpuCopies copies;
  const GpuCopyAnswer first = copies.get({"snapshot a"}, a, session);
  REQUIRE(first.particles);
  CHECK(first.refused.empty());
  CHECK(first.particles->size() == a.size());
  CHECK(copies.get({"snapshot a"}, a, session).particles == first.particles);  // kept, not copied again
  // A part of the same snapshot beside it (the server's share).
  const GpuCopyAnswer share = copies.get({"snapshot a", "share"}, b, session);
  REQUIRE(share.particles);
  CHECK(copies.copies() == 2);
  // Another snapshot: the first one's copies go before it is copied.
  const GpuCopyAnswer other = copies.get({"snapshot b"}, b, session);
  REQUIRE(other.particles);
  CHECK(copies.copies() == 1);
  CHECK_FALSE(copies.holds({"snapshot a"}));
  CHECK(copies.holds({"snapshot b"}));
  // Given up (the GPU failed, or the other processes had none): not copied again for it.
  copies.give_up({"snapshot b"});
  CHECK(copies.copies() == 0);
  CHECK(copies.refused({"snapshot b"}));
  const GpuCopyAnswer again = copies.get({"snapshot b"}, b, session);
  CHECK(again.particles == nullptr);
  CHECK(again.refused.empty());  // (said when it happened, not again)
  // keep_only frees the copies of other snapshots without asking for one.
  REQUIRE(copies.get({"snapshot c"}, a, session).particles);
  copies.keep_only("snapshot d");
  CHECK(copies.copies() == 0);
  CHECK_FALSE(copies.refused({"snapshot b"}));  // (another snapshot's refusal went with it)
}

namespace {

// The particles ordered by type (stably), as the loader leaves them.
ParticleSet in_type_order(const ParticleSet& p) {
  std::vector<std::size_t> order(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p.type[a] < p.type[b]; });
  ParticleSet sorted = p;
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted.x[i] = p.x[order[i]];
    sorted.y[i] = p.y[order[i]];
    sorted.z[i] = p.z[order[i]];
    sorted.hsml[i] = p.hsml[order[i]];
    sorted.intensity[i] = p.intensity[order[i]];
    sorted.colour[0][i] = p.colour[0][order[i]];
    sorted.type[i] = p.type[order[i]];
  }
  return sorted;
}

}  // namespace

// The most splats in view that share one draw key (sort_type 4's -radius), on the host.
std::size_t most_equal_radii(const ParticleSet& p, const GeometryOptions& g, bool wrap) {
  Splats s = project(p, g, wrap);
  std::vector<float> r(s.radius.begin(), s.radius.end());
  std::sort(r.begin(), r.end());
  std::size_t most = 0;
  for (std::size_t i = 0, j = 0; i < r.size(); i = j) {
    while (j < r.size() && r[j] == r[i]) ++j;
    most = std::max(most, j - i);
  }
  return most;
}

// Particles [lo, hi) of each type's run (p in type order), type after type.
ParticleSet part_of_each_type(const ParticleSet& p, double lo, double hi) {
  ParticleSet out;
  out.box_size = p.box_size;
  for (std::uint8_t t = 0; t < 2; ++t) {
    const std::size_t first = std::size_t(std::lower_bound(p.type.begin(), p.type.end(), t) - p.type.begin()),
                      end = std::size_t(std::upper_bound(p.type.begin(), p.type.end(), t) - p.type.begin());
    for (std::size_t i = first + std::size_t(lo * double(end - first));
         i < first + std::size_t(hi * double(end - first)); ++i) {
      for (auto [from, to] : {std::pair{&p.x, &out.x},
                              {&p.y, &out.y},
                              {&p.z, &out.z},
                              {&p.hsml, &out.hsml},
                              {&p.intensity, &out.intensity},
                              {&p.colour[0], &out.colour[0]}})
        to->push_back((*from)[i]);
      out.type.push_back(t);
    }
  }
  return out;
}

// The median draw key of two holders' splats in view, from their counts 11, 11 and 10 bits at a
// time, as the split between processes finds it, and the count of those splats.
struct MedianKey {
  std::uint32_t key = 0;
  std::uint64_t total = 0;
};
MedianKey median_key(DeviceParticles& a, DeviceParticles& b, const DeviceView& view) {
  std::uint64_t total = 0, below = 0;
  std::uint32_t lo = 0;
  for (const auto& [shift, bins] : {std::pair{21, 2048u}, {10, 2048u}, {0, 1024u}}) {
    std::vector<std::uint64_t> counts = count_draw_keys(a, view, lo, shift, bins);
    const std::vector<std::uint64_t> more = count_draw_keys(b, view, lo, shift, bins);
    for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += more[k];
    if (shift == 21)
      for (std::uint64_t c : counts) total += c;
    std::uint32_t bin = 0;
    while (bin + 1 < bins && below + counts[bin] <= total / 2) below += counts[bin++];
    lo += bin << shift;
  }
  return {below > 0 ? lo : lo + 1, total};  // (a splitter below which some keys lie)
}

// Two holders' shares of a view split at `splitter`: each range the other holder draws read from a
// copy of its own (`own`), or from the whole allocation (where the GPU has no room for a copy); the
// shares pass through their words as between processes.
std::vector<SplitShare> split_shares(DeviceParticles* holders[2], const DeviceView& view, int w, int h,
                                     std::uint32_t splitter, bool own, std::uint64_t total) {
  const std::size_t types = std::max<std::size_t>(1, view.types.size());
  std::vector<SplitShare> shares;
  for (std::size_t k = 0; k < 2; ++k) {
    SplitShare share = write_split(*holders[k], view, w, h, {splitter});
    if (own) copy_split_ranges(*holders[k], share, k, split_gather_bytes(total, w, h));
    const std::vector<std::uint64_t> words = share.words();
    REQUIRE(words.size() == SplitShare::word_count(2, types));
    shares.push_back(SplitShare::from_words(words.data(), 2, types));
  }
  // The range the other holder draws lies in a copy of its own (where it has splats), its own
  // range in the whole allocation.
  for (std::size_t k = 0; k < 2; ++k) {
    std::uint64_t other = 0;
    for (std::size_t t = 0; t < types; ++t) other += shares[k].count[(1 - k) * types + t];
    CHECK((shares[k].memory[1 - k].base != shares[k].memory[k].base) == (own && other > 0));
  }
  return shares;
}

// The view split at `splitter` between two holders, each drawing its range as a layer: the layers
// composited are `one`, the single holder's picture (with `single` its report).
void check_split_layers(DeviceParticles* holders[2], const DeviceView& view, const CudaOptions& o, const Image& one,
                        const CudaReport& single, std::uint32_t splitter, bool own, std::uint64_t total) {
  const int w = one.width, h = one.height;
  const std::vector<SplitShare> shares = split_shares(holders, view, w, h, splitter, own, total);
  const std::size_t pixels = std::size_t(w) * std::size_t(h);
  std::vector<std::vector<float>> layer(2, std::vector<float>(6 * pixels, -1.0f));
  std::size_t drawn = 0;
  for (std::size_t me = 0; me < 2; ++me) {
    const CudaReport r = draw_split(*holders[me], view, o, shares, me, w, h, layer[me].data());
    if (splitter != 0) CHECK(r.on_gpu > total / 10);
    drawn += r.on_gpu;
  }
  end_split(*holders[0]);
  end_split(*holders[1]);
  CHECK(drawn == single.on_gpu);
  // Layer `over` over layer `under` over black: C_under T_over + C_over.
  auto composite = [&](std::size_t under, std::size_t over) {
    Image out(w, h);
    for (std::size_t i = 0; i < pixels; ++i)
      for (std::size_t c = 0; c < 3; ++c)
        out.rgb[3 * i + c] = layer[under][6 * i + c] * layer[over][6 * i + 3 + c] + layer[over][6 * i + c];
    return out;
  };
  // An empty range: nothing over black and all light through.
  if (splitter == 0) {
    std::size_t empty = 0;
    for (std::size_t i = 0; i < 6 * pixels; ++i) empty += layer[0][i] == (i % 6 < 3 ? 0.0f : 1.0f);
    CHECK(empty == 6 * pixels);
  }
  const float scale = max_value(one);
  CHECK(scale > 0);
  CHECK(max_abs_difference(one, composite(0, 1)) <= 1e-4f * scale);
  // The layers the other way round are another picture: the test sees the order.
  if (splitter != 0) CHECK(max_abs_difference(one, composite(1, 0)) > 1e-2f * scale);
}

TEST_CASE(
    "gpu-kept particles: a_eq_e = FALSE split between holders of the particles, layers composited, "
    "is the single holder's picture" *
    doctest::skip(no_gpu())) {
  // Two holders stand in for two MPI processes (their shares read directly: the same process).
  // Each holds the first or second half of each type's particles; the single holder all of them
  // in the order of the processes' shares (type after type, each process after process).
  const Palette ramp("ramp", {{0, 0, 0.2f}, {1, 0.3f, 0}, {1, 1, 1}});
  CudaSession session;
  const ParticleSet p = in_type_order(box_of_particles(20000, false, 11));
  for (const bool equal_radii : {false, true}) {
    CAPTURE(equal_radii);
    const ParticleSet q = equal_radii ? with_equal_hsml(p) : p;
    const ParticleSet first = part_of_each_type(q, 0, 0.5), second = part_of_each_type(q, 0.5, 1),
                      whole = part_of_each_type(q, 0, 1);
    REQUIRE(first.size() + second.size() == whole.size());
    const std::unique_ptr<DeviceParticles> a = DeviceParticles::upload(first, session),
                                           b = DeviceParticles::upload(second, session),
                                           all = DeviceParticles::upload(whole, session);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(all);
    DeviceParticles* holders[2] = {a.get(), b.get()};
    const std::vector<TypeColour> looks = {{false, &ramp, 1.3f}, {false, &ramp, 0.7f}};
    // Orthographic with equal radii: two draw keys by radius, equal keys by tile then particle.
    const GeometryOptions g = view_of_box(!equal_radii);
    const std::vector<SortOrder> sorts =
        equal_radii ? std::vector<SortOrder>{SortOrder::radius_descending}
                    : std::vector<SortOrder>{SortOrder::depth, SortOrder::red_descending, SortOrder::red_ascending};
    for (const SortOrder sort : sorts) {
      CAPTURE(int(sort));
      CudaOptions o;
      o.host.a_eq_e = false;
      o.host.tile_size = 32;
      const int w = g.camera.xres, h = g.camera.yres;
      Image one(w, h);
      const CudaReport single = render_gpu_particles(*all, g, false, looks, sort, o, one, session);
      const DeviceView view = device_view(g, false, looks, sort, o);
      const MedianKey median = median_key(*a, *b, view);
      CHECK(median.total == single.on_gpu);
      // At the median, with copies and without; and a split with an empty range.
      for (const auto& [splitter, own] : {std::pair{median.key, true}, {median.key, false}, {std::uint32_t(0), true}}) {
        CAPTURE(splitter);
        CAPTURE(own);
        check_split_layers(holders, view, o, one, single, splitter, own, median.total);
      }
      // No room beside the gathers the GPU must keep: the other holder's range stays in the whole
      // allocation.
      SplitShare crowded = write_split(*a, view, w, h, {median.key});
      copy_split_ranges(*a, crowded, 0, std::size_t(1) << 62);
      CHECK(crowded.memory[1].base == crowded.memory[0].base);
      end_split(*a);
    }
  }
}

TEST_CASE("gpu-kept particles: the draw keys counted on the GPU for the split are the host's counts" *
          doctest::skip(no_gpu())) {
  // The counts that key_splitters() searches, level by level (11, 11 and 10 bits), from the GPU
  // (gpu_key_counts) and from the host's keys of the same view (count_keys), prefix by prefix.
  const Palette ramp("ramp", {{0, 0, 0.2f}, {1, 0.3f, 0}, {1, 1, 1}});
  CudaSession session;
  const ParticleSet p = box_of_particles(20000, false, 13);
  const std::unique_ptr<DeviceParticles> kept = DeviceParticles::upload(p, session);
  REQUIRE(kept);
  const std::vector<TypeColour> looks = {{false, &ramp, 1.3f}, {false, &ramp, 0.7f}};
  const GeometryOptions g = view_of_box(true);
  for (const SortOrder sort : {SortOrder::depth, SortOrder::red_descending, SortOrder::radius_descending}) {
    CAPTURE(int(sort));
    CudaOptions o;
    o.host.a_eq_e = false;
    o.host.tile_size = 32;
    Splats host = project(p, g, false);
    colourize(host, looks);
    assign_draw_keys(host, sort);
    std::vector<std::uint32_t> keys(host.draw_key.begin(), host.draw_key.end());
    REQUIRE(keys.size() > 2000);
    std::vector<std::uint32_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    std::string failure;
    const KeyCounts gpu = gpu_key_counts(*kept, device_view(g, false, looks, sort, o), failure);
    for (const auto& [above, shift] : {std::pair{32, 21}, {21, 10}, {10, 0}}) {
      CAPTURE(shift);
      std::vector<std::uint32_t> prefixes = {0};
      if (above < 32) {
        prefixes = {sorted[sorted.size() / 4] >> above, sorted[sorted.size() / 2] >> above, sorted.back() >> above};
        std::sort(prefixes.begin(), prefixes.end());
        prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
      }
      const std::vector<std::uint64_t> on_gpu = gpu(above, shift, prefixes),
                                       on_host = count_keys(keys.data(), keys.size(), above, shift, prefixes);
      CHECK(failure.empty());
      REQUIRE(on_gpu.size() == on_host.size());
      std::size_t differ = 0;
      std::uint64_t counted = 0;
      for (std::size_t k = 0; k < on_gpu.size(); ++k) {
        differ += on_gpu[k] != on_host[k];
        counted += on_host[k];
      }
      CHECK(differ == 0);
      CHECK(counted > 0);
      if (above == 32) CHECK(counted == keys.size());
    }
  }
}

TEST_CASE("gpu-kept particles: views drawn a window of the particles at a time equal the host's" *
          doctest::skip(no_gpu())) {
  // Particles whose view's working memory does not fit beside them on the GPU (10^9 on an 80 GB
  // one) are drawn in windows: a_eq_e and sort_type 0 window by window, the other orders in slabs
  // of draw keys gathered from every window. 20000 particles in windows of 7000 (three, the last
  // 6000) and of 12000, every case of the test above.
  const Palette ramp("ramp", {{0, 0, 0.2f}, {1, 0.3f, 0}, {1, 1, 1}});
  CudaSession session;
  const std::vector<Case> cases = view_cases();
  for (const bool vector : {false, true}) {
    const ParticleSet p = box_of_particles(20000, vector, vector ? 7 : 6);
    const ParticleSet equal = with_equal_hsml(p);
    const std::vector<TypeColour> looks = {{false, &ramp, 1.3f}, {vector, vector ? nullptr : &ramp, 0.7f}};
    for (const std::size_t window : {std::size_t(7000), std::size_t(12000)}) {
      const std::unique_ptr<DeviceParticles> kept = DeviceParticles::upload(p, session, nullptr, window),
                                             kept_equal = DeviceParticles::upload(equal, session, nullptr, window);
      REQUIRE(kept);
      REQUIRE(kept_equal);
      CHECK(kept->window() == window);
      for (const Case& c : cases) {
        CAPTURE(c.name);
        CAPTURE(vector);
        CAPTURE(window);
        GeometryOptions g = view_of_box(c.perspective);
        g.preview_fraction = c.preview;
        if (c.wrap) g.camera.lookat = {1, 1, 1};
        CudaOptions o;
        o.algorithm = c.algorithm;
        o.boundary = c.boundary;
        o.host.a_eq_e = c.a_eq_e;
        o.host.tile_size = 32;
        o.large_on_gpu = c.large_on_gpu;
        const ParticleSet& particles = c.equal_hsml ? equal : p;
        DeviceParticles& on_gpu = c.equal_hsml ? *kept_equal : *kept;
        std::size_t in_view = 0;
        const Image host = host_picture(particles, g, c.wrap, looks, c.sort, o.host, in_view, background(g));
        Image gpu = background(g);
        if (c.equal_hsml && most_equal_radii(particles, g, c.wrap) > window) {
          // More splats of one key than a window holds: no slab can hold them (the caller then
          // draws through the host's stages).
          CHECK_THROWS_AS(render_gpu_particles(on_gpu, g, c.wrap, looks, c.sort, o, gpu, session), std::runtime_error);
          continue;
        }
        const CudaReport report = render_gpu_particles(on_gpu, g, c.wrap, looks, c.sort, o, gpu, session);
        CHECK(report.on_gpu + report.on_host == in_view);
        CHECK(in_view > 2000);
        // Windows (or, ordered over all, slabs of at most a window's splats).
        if (c.a_eq_e || c.sort == SortOrder::none)
          CHECK(report.chunks == (window == 7000 ? 3u : 2u));
        else
          CHECK(report.chunks >= (in_view + window - 1) / window);
        if (c.boundary == 2) CHECK((c.large_on_gpu ? report.large_on_gpu : report.on_host) > 100);
        if (c.large_on_gpu) CHECK(report.on_host == 0);
        if (!c.large_on_gpu) CHECK(report.large_on_gpu == 0);
        if (!c.a_eq_e) CHECK(report.on_host == 0);
        const float scale = max_value(host);
        CHECK(scale > 0);
        CHECK(max_abs_difference(host, gpu) <= 1e-4f * scale);
      }
    }
  }
  // The equal keys: some window size must have seen the case drawn, not refused.
  const ParticleSet p = box_of_particles(20000, false, 6);
  const ParticleSet equal = with_equal_hsml(p);
  CHECK(most_equal_radii(equal, view_of_box(false), false) <= 12000);
  // Without a window given, these few take the working memory for all.
  const std::unique_ptr<DeviceParticles> all = DeviceParticles::upload(p, session);
  REQUIRE(all);
  CHECK(all->window() == p.size());
}

}  // namespace splotch

namespace splotch {

TEST_CASE("gpu-kept particles: a frame drawn on the GPU a window of its particles at a time, as the host's" *
          doctest::skip(testing::no_gpu())) {
  testing::TempDir dir;
  REQUIRE(testing::run_command("bin/make_demo --n 20000 --out " + dir.file("demo.bin")).status == 0);
  for (const char* a_eq_e : {"TRUE", "FALSE"}) {
    CAPTURE(a_eq_e);
    const testing::CommandResult r =
        testing::run_command("bin/splotch testdata/demo.par infile=" + dir.file("demo.bin") +
                             " xres=160 a_eq_e=" + a_eq_e + " renderer=host outfile=" + dir.file("host.png"));
    INFO(r.err);
    REQUIRE(r.status == 0);
    ParamFile params = ParamFile::read("testdata/demo.par");
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{{"infile", dir.file("demo.bin")},
                                                                                     {"xres", "160"},
                                                                                     {"a_eq_e", a_eq_e},
                                                                                     {"renderer", "cuda"},
                                                                                     {"outfile", dir.file("gpu.png")}})
      params.set(key, value, "the test");
    Console console(true, false);
    FrameOptions frame;
    frame.gpu_window = 7000;  // the demo's 20000 particles in three windows
    // The particles stay with the session, to be freed after the frame's end (before the GPU's
    // session they were copied up on, which the session keeps too).
    RenderSession session;
    const RunReport report = render_frame(params, console, session, frame);
    CHECK(session.kept_until_end() != nullptr);
    CHECK(session.gpu_copies().copies() == 1);
    REQUIRE(report.gpu.has_value());
    CHECK(report.gpu->geometry_on_gpu);
    // a_eq_e: three windows; FALSE: slabs of the draw order of at most 7000 splats each.
    if (a_eq_e[0] == 'T')
      CHECK(report.gpu->chunks == 3);
    else
      CHECK(report.gpu->chunks >= (report.particles_active + 6999) / 7000);
    CHECK(report.particles_active > 7000);
    const std::string text = report.text();
    INFO(text);
    CHECK(text.find("in windows of 7000 particles") != std::string::npos);
    const Image8 host = read_image(dir.file("host.png")), gpu = read_image(dir.file("gpu.png"));
    REQUIRE(host.rgb.size() == gpu.rgb.size());
    const testing::PictureDifference d = testing::picture_difference(host, gpu);
    CHECK(d.largest <= 2);
    CHECK(d.lit > 1000);
  }
}

namespace {

// bin/splotch on the demo particles in `dir` at 160 pixels with `keys`, on the host and on the GPU
// (outfile host.png, cuda.png): what each printed, the host's first.
std::array<std::string, 2> host_and_gpu_runs(const testing::TempDir& dir, const std::string& keys) {
  std::array<std::string, 2> out;
  for (const char* renderer : {"host", "cuda"}) {
    const testing::CommandResult r =
        testing::run_command("bin/splotch testdata/demo.par infile=" + dir.file("demo.bin") + " xres=160 " + keys +
                             " renderer=" + renderer + " outfile=" + dir.file(renderer) + ".png");
    INFO(r.err);
    REQUIRE(r.status == 0);
    out[renderer[0] == 'c'] = r.out + r.err;
  }
  return out;
}

// The GPU's picture is the host's within two levels, and lit.
void check_same_picture(const std::string& host_file, const std::string& gpu_file) {
  const Image8 host = read_image(host_file), gpu = read_image(gpu_file);
  REQUIRE(host.rgb.size() == gpu.rgb.size());
  const testing::PictureDifference d = testing::picture_difference(host, gpu);
  CHECK(d.largest <= 2);
  CHECK(d.lit > 1000);
}

}  // namespace

TEST_CASE("gpu-kept particles: a single frame's particles are copied to the GPU and drawn from there, as the host's" *
          doctest::skip(testing::no_gpu())) {
  testing::TempDir dir;
  REQUIRE(testing::run_command("bin/make_demo --n 20000 --out " + dir.file("demo.bin")).status == 0);
  for (const char* a_eq_e : {"TRUE", "FALSE"}) {
    CAPTURE(a_eq_e);
    const std::array<std::string, 2> out = host_and_gpu_runs(dir, std::string("a_eq_e=") + a_eq_e);
    INFO(out[1]);
    CHECK(out[1].find("projected there from the particles copied to it") != std::string::npos);
    CHECK(out[1].find("to_gpu") != std::string::npos);
    CHECK(out[0].find("to_gpu") == std::string::npos);
    check_same_picture(dir.file("host.png"), dir.file("cuda.png"));
  }
}

TEST_CASE(
    "gpu-kept particles: a scene copies its snapshot to the GPU at its first frame and draws every frame there, as the "
    "host's" *
    doctest::skip(testing::no_gpu())) {
  testing::TempDir dir;
  REQUIRE(testing::run_command("bin/make_demo --n 20000 --out " + dir.file("demo.bin")).status == 0);
  testing::write_file(dir.file("orbit.txt"), "camera_x camera_y camera_z\n10 50 50\n20 40 50\n30 30 60\n");
  for (const char* a_eq_e : {"TRUE", "FALSE"}) {
    CAPTURE(a_eq_e);
    const std::array<std::string, 2> out =
        host_and_gpu_runs(dir, "scene_file=" + dir.file("orbit.txt") + " a_eq_e=" + a_eq_e);
    INFO(out[1]);
    // Every frame's stages ran on the GPU: the first copied the snapshot up, the second and third
    // drew from that copy.
    CHECK(out[1].find("renderer (snapshot copied to the GPU); about") != std::string::npos);
    CHECK(out[1].find("frame 2 of 3") != std::string::npos);
    CHECK(out[1].find("(snapshot kept on the GPU from the frame before)") != std::string::npos);
    CHECK(out[1].find("frame 3 of 3") != std::string::npos);
    CHECK(out[0].find("copied to the GPU") == std::string::npos);
    CHECK(out[0].find("kept on the GPU") == std::string::npos);
    for (const char* frame : {"0000", "0001", "0002"}) {
      CAPTURE(frame);
      check_same_picture(dir.file(std::string("host") + frame + ".png"),
                         dir.file(std::string("cuda") + frame + ".png"));
    }
  }
}

TEST_CASE("frame memory: a frame drawn on the host frees its particles itself (kept to the end for GPU runs)") {
  testing::TempDir dir;
  REQUIRE(testing::run_command("bin/make_demo --n 2000 --out " + dir.file("demo.bin")).status == 0);
  ParamFile params = ParamFile::read("testdata/demo.par");
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"infile", dir.file("demo.bin")}, {"xres", "64"}, {"renderer", "host"}, {"outfile", dir.file("h.png")}})
    params.set(key, value, "the test");
  Console console(true, false);
  RenderSession session;
  const RunReport report = render_frame(params, console, session);
  CHECK(report.particles_active > 0);
  CHECK_FALSE(report.gpu.has_value());
  CHECK(session.kept_until_end() == nullptr);
  CHECK(session.gpu_copies().copies() == 0);
}

}  // namespace splotch
