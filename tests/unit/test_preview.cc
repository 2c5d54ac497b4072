// Quick previews (boost_fraction): a deterministic share of the particles, drawn so that the
// picture keeps its look (splotch/load/preview_subset.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "io/image_reader.h"
#include "splotch/load/preview_subset.h"
#include "splotch/settings/settings.h"
#include "tests/support/test_support.h"

using namespace splotch;
using namespace splotch::testing;

namespace {

ParticleSet random_particles(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 100.0f);
  ParticleSet p;
  for (std::size_t i = 0; i < n; ++i) {
    p.x.push_back(u(rng));
    p.y.push_back(u(rng));
    p.z.push_back(u(rng));
    p.hsml.push_back(1.0f + float(i % 7));
    p.intensity.push_back(float(i));
    p.colour[0].push_back(-float(i));
    p.type.push_back(std::uint8_t(i % 3));
  }
  return p;
}

double mean_level(const Image8& image) {
  return std::accumulate(image.rgb.begin(), image.rgb.end(), 0.0) / double(image.rgb.size());
}

}  // namespace

TEST_CASE("preview subset: about the fraction kept, each particle whole, hsml grown by fraction^(-1/3)") {
  const std::size_t n = 100000;
  const ParticleSet all = random_particles(n, 3);
  for (double f : {0.1, 0.5}) {
    INFO(f);
    ParticleSet p = random_particles(n, 3);
    const std::size_t kept = keep_preview_subset(p, f);
    CHECK(kept == p.size());
    CHECK(p.hsml.size() == kept);
    CHECK(p.type.size() == kept);
    CHECK(std::abs(double(kept) - f * double(n)) < 5 * std::sqrt(f * double(n)));  // 5 sigma of a binomial
    // Each kept particle keeps its own fields: its intensity is its index in the input.
    std::size_t wrong = 0, chosen = 0;
    for (std::size_t k = 0; k < kept; ++k) {
      const std::size_t i = std::min(std::size_t(p.intensity[k]), n - 1);
      wrong += p.x[k] != all.x[i] || p.z[k] != all.z[i] || p.colour[0][k] != -float(i) || p.type[k] != all.type[i];
      wrong += std::abs(p.hsml[k] - all.hsml[i] * std::pow(f, -1.0 / 3.0)) > 1e-5 * all.hsml[i];
      wrong += k > 0 && !(p.intensity[k] > p.intensity[k - 1]);  // in the input's order
      chosen += kept_in_preview(all.x[i], all.y[i], all.z[i], f);
    }
    CHECK(wrong == 0);
    CHECK(chosen == kept);
  }
  ParticleSet whole = random_particles(1000, 3);
  CHECK(keep_preview_subset(whole, 1.0) == 1000);
  CHECK(whole.hsml[5] == all.hsml[5]);
}

TEST_CASE("preview subset: the same particles whatever their order, and a smaller share is part of a larger") {
  ParticleSet p = random_particles(20000, 9), reversed = random_particles(20000, 9);
  for (auto* v : {&reversed.x, &reversed.y, &reversed.z, &reversed.hsml, &reversed.intensity, &reversed.colour[0]})
    std::reverse(v->begin(), v->end());
  std::reverse(reversed.type.begin(), reversed.type.end());
  keep_preview_subset(p, 0.2);
  keep_preview_subset(reversed, 0.2);
  std::vector<float> a(p.intensity.begin(), p.intensity.end()), b(reversed.intensity.begin(), reversed.intensity.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);
  const ParticleSet all = random_particles(20000, 9);
  std::size_t in_small = 0, in_both = 0;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (kept_in_preview(all.x[i], all.y[i], all.z[i], 0.05)) {
      ++in_small;
      in_both += kept_in_preview(all.x[i], all.y[i], all.z[i], 0.2);
    }
  CHECK(in_small > 500);
  CHECK(in_both == in_small);
}

// The server's reduced share keeps the header's numbers (its time and redshift, a map's units), and
// is chosen by position when asked even where the particles have IDs.
TEST_CASE("preview subset: the header's numbers kept; by position where asked, IDs or not") {
  ParticleSet p;
  for (int i = 0; i < 2000; ++i) {
    for (ParticleArray<float>* a : {&p.x, &p.y, &p.z}) a->push_back(float(i % 37) + 0.01f * float(i));
    p.hsml.push_back(1);
    p.intensity.push_back(1);
    p.colour[0].push_back(1);
  }
  p.time = 0.4, p.redshift = 1.5, p.box_size = 100;
  p.units.code = "Gadget";
  ParticleSet with_ids = p;
  for (int i = 0; i < 2000; ++i) with_ids.id.push_back(std::uint64_t(7919 * i + 3));
  const ParticleSet share = preview_subset(p, 0.25);
  CHECK(share.redshift == 1.5);
  CHECK(share.time == 0.4);
  CHECK(share.units.code == "Gadget");
  CHECK(preview_subset(with_ids, 0.25, false).x == share.x);  // (by position: as without IDs)
  CHECK(preview_subset(with_ids, 0.25).x != share.x);         // (by ID)
}

TEST_CASE("preview subset: a share kept by its places takes new values from its particles, as one made anew") {
  ParticleSet p = random_particles(5000, 11);
  for (std::size_t i = 0; i < p.size(); ++i) p.id.push_back(std::uint64_t(3 * i + 1));
  for (bool by_id : {true, false}) {
    const ParticleArray<std::size_t> places = preview_places(p, 0.3, by_id);
    ParticleSet share = preview_subset(p, places, 0.3);
    const ParticleSet whole_way = preview_subset(p, 0.3, by_id);
    CHECK(share.size() == places.size());
    CHECK(share.x == whole_way.x);
    CHECK(share.hsml == whole_way.hsml);
    CHECK(share.intensity == whole_way.intensity);
    CHECK(share.size() > 1200);
    CHECK(share.size() < 1800);
    for (std::size_t k = 0; k < places.size(); ++k) REQUIRE(share.x[k] == p.x[places[k]]);
    // The snapshot's values change (normalised anew, another field read): the share's follow.
    ParticleSet changed = p;
    for (std::size_t i = 0; i < changed.size(); ++i)
      changed.intensity[i] = 0.5f * float(i) + 1, changed.colour[0][i] = 2;
    CHECK(regather_preview_values(changed, places, share));
    const ParticleSet anew = preview_subset(changed, 0.3, by_id);
    CHECK(share.intensity == anew.intensity);
    CHECK(share.colour[0] == anew.colour[0]);
    CHECK(share.x == anew.x);
    // A type's colours turned vector: the share lacks them, and says so (left as it was).
    ParticleSet vector = changed;
    vector.colour[1] = vector.colour[0], vector.colour[2] = vector.colour[0];
    CHECK_FALSE(regather_preview_values(vector, places, share));
    CHECK(share.colour[1].empty());
    CHECK(share.intensity == anew.intensity);
  }
}

TEST_CASE("preview keys: boost = TRUE takes 0.1, boost_fraction alone asks for a preview, boost = FALSE none") {
  const std::string base = "simtype = 0\ninfile = x.bin\nnum_blocks = 3\nx = 1\ny = 2\nz = 3\n";
  auto fraction = [&](const std::string& extra) {
    ParamFile p = ParamFile::parse(base + extra, "t.par");
    return read_snapshot_request(p).keep_fraction;
  };
  CHECK(fraction("") == 1.0);
  CHECK(fraction("boost = TRUE\n") == 0.1);
  CHECK(fraction("boost_fraction = 0.25\n") == 0.25);
  CHECK(fraction("boost = TRUE\nboost_fraction = 0.5\n") == 0.5);
  CHECK(fraction("boost = FALSE\nboost_fraction = 0.5\n") == 1.0);
  for (const char* bad : {"0", "-0.1", "1.5"}) {
    INFO(bad);
    ParamFile p = ParamFile::parse(base + "boost_fraction = " + bad + "\n", "t.par");
    const std::string expected = "boost_fraction = " + std::string(bad) + " must be a share of the particles above 0";
    CHECK_THROWS_WITH(read_snapshot_request(p), doctest::Contains(expected.c_str()));
  }
}

TEST_CASE("preview render: a tenth of the demo's particles keeps the picture's mean level, and says so") {
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 100000 --out " + dir.path("demo.bin")).status == 0);
  auto render = [&](const std::string& name, const std::string& extra) {
    const CommandResult r = run_command("bin/splotch testdata/demo.par infile=" + dir.path("demo.bin") +
                                        " xres=200 colorbar=FALSE outfile=" + dir.path(name) + " " + extra);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  render("full.png", "");
  const CommandResult preview = render("preview.png", "boost_fraction=0.1");
  CHECK(preview.out.find("a preview (boost_fraction = 0.1): about 1 in 10 particles drawn") != std::string::npos);
  const Image8 full = read_image(dir.path("full.png")), thin = read_image(dir.path("preview.png"));
  const double a = mean_level(full), b = mean_level(thin);
  CHECK(a > 5);  // a picture, not black
  CHECK(std::abs(b - a) < 0.05 * a);
  double diff = 0;
  for (std::size_t i = 0; i < full.rgb.size(); ++i) diff += std::abs(int(full.rgb[i]) - int(thin.rgb[i]));
  CHECK(diff / double(full.rgb.size()) < 4.0);  // mean absolute difference in 8-bit levels
  // A preview a fifth as bright (about what it would be without the light factor, f^(2/3) = 0.22)
  // fails the check above.
  render("dim.png", "boost_fraction=0.1 brightness0=0.06");
  CHECK(mean_level(read_image(dir.path("dim.png"))) < 0.5 * a);
  // From far away in a small picture most splats are held at minrad_pix: their light must still
  // grow by 1 / fraction (an intensity factor of fraction^(-2/3) alone would leave it at 0.46).
  const std::string far = "camera_z=400 camera_y=-300 xres=80 ";
  render("far_full.png", far);
  render("far_preview.png", far + "boost_fraction=0.1");
  const double fa = mean_level(read_image(dir.path("far_full.png")));
  const double fb = mean_level(read_image(dir.path("far_preview.png")));
  CHECK(fa > 0.5);
  CHECK(std::abs(fb - fa) < 0.05 * fa);
  // A preview that keeps nothing says what to do.
  const CommandResult none = run_command("bin/splotch testdata/demo.par infile=" + dir.path("demo.bin") +
                                         " xres=200 boost_fraction=1e-9 outfile=" + dir.path("none.png"));
  CHECK(none.status == 1);
  CHECK(none.err.find("keeps none of the 100000 particles") != std::string::npos);
}

TEST_CASE("preview render: a scene resumed in full draws its preview frames again, a preview keeps them") {
  TempDir dir;
  REQUIRE(run_command("bin/make_demo --n 20000 --out " + dir.path("demo.bin")).status == 0);
  const std::string scene = dir.write("s.txt", "camera_x\n-60\n-40\n");
  auto render = [&](const std::string& name, const std::string& extra) {
    const CommandResult r =
        run_command("bin/splotch testdata/demo.par infile=" + dir.path("demo.bin") +
                    " xres=80 colorbar=FALSE scene_file=" + scene + " outfile=" + dir.path(name) + " " + extra);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  render("full_", "");
  const CommandResult first = render("f_", "boost_fraction=0.2");
  size_t said = 0;
  for (size_t at = first.out.find("note: a preview (boost_fraction = 0.2)"); at != std::string::npos;
       at = first.out.find("note: a preview (boost_fraction = 0.2)", at + 1))
    ++said;
  CHECK(said == 1);  // once for the scene
  const std::string preview = read_file(dir.path("f_0001.tga"));
  CHECK(preview != read_file(dir.path("full_0001.tga")));
  const CommandResult kept = render("f_", "boost_fraction=0.2 resume=TRUE");  // previews stand for previews
  CHECK(kept.out.find("0 rendered, 2 skipped") != std::string::npos);
  const CommandResult again = render("f_", "resume=TRUE");
  CHECK(again.out.find("2 rendered, 0 skipped") != std::string::npos);
  CHECK(again.out.find("f_0000.tga is a quick preview (boost_fraction in its used.par): drawn again in full") !=
        std::string::npos);
  for (const char* f : {"0000.tga", "0001.tga"})
    CHECK(read_file(dir.path(std::string("f_") + f)) == read_file(dir.path(std::string("full_") + f)));
  const CommandResult whole = render("f_", "resume=TRUE");  // drawn in full now: kept
  CHECK(whole.out.find("0 rendered, 2 skipped") != std::string::npos);
}
