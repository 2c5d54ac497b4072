// make_demo: writes a deterministic demo snapshot for splotch in the raw float32 layouts of the
// original Splotch, so that the renderer can be tried without any simulation data.
//
//   g++ -std=c++17 -O2 -Wall -Wextra -o make_demo testdata/make_demo.cc
//   ./make_demo --out FILE [--n N] [--seed S] [--layout table|block] [--little-endian]
//               [--vector-colour]
//
// Layouts: 'table' (simtype=0) writes one record of num_blocks floats per particle; 'block'
// (simtype=1) writes all values of column 1, then all of column 2, ... Floats are big-endian
// unless --little-endian: the original's swap_endian defaults to TRUE for raw files, so the
// default output renders with no swap_endian key.
// Columns: x y z hsml intensity colour            (num_blocks=6, x=1 y=2 z=3 r=4 I=5 C1=6)
//     or, with --vector-colour: x y z hsml intensity R G B   (num_blocks=8, C1=6 C2=7 C3=8).
//
// The scene, in a box of side 100 centred on (50,50,50): a barred spiral galaxy in the z=50 plane
// (exponential disk, two logarithmic arms with star-forming knots, a Ferrers bar, a flattened
// Plummer bulge, a hot beta-model halo), a gas-rich dwarf disk galaxy, and a dwarf spheroidal
// being torn into a tidal stream. Every particle carries the analytic number density of its own
// component plus that of the halo, n; then hsml = kEta * n^(-1/3) clamped to [0.1, 5], intensity
// = n scaled to the default particle count (a density spanning about five decades), colour = a
// temperature-like value from ~1e2 (cold disk) to ~1e7 (halo core), or an RGB triple in [0,1] per
// population (blue arms, pink and white knots, yellow-orange bulge and bar, violet halo, ...).
//
// Determinism: the particle set depends only on the arguments. The generator uses its own
// random numbers (xoshiro256**) and its own exp/log/sin/cos/atan built from + - * / and sqrt,
// which IEEE 754 rounds exactly, so no libm difference can change a byte. Build in ISO mode
// (-std=c++17, not gnu++17) so that the compiler does not fuse multiply-adds.
// The scene's layout is fixed; the seed changes only the sampling (and the knots' places).
// Particles are written component by component: halo, disk, arms, knots, bar, bulge, dwarf disk,
// dwarf spheroidal, stream.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---- deterministic elementary functions -------------------------------------------------------
// Only IEEE-exact operations (+ - * / sqrt floor frexp ldexp): identical results on every machine.
namespace det {

// Taylor coefficients, computed by the compiler (IEEE division, so the same everywhere).
template <int N>
struct Series {
  double c[N];
};
constexpr Series<14> kExpSeries = [] {  // 1/i!
  Series<14> s{};
  double f = 1.0;
  for (int i = 0; i < 14; ++i) {
    s.c[i] = 1.0 / f;
    f *= i + 1;
  }
  return s;
}();
constexpr Series<12> kOddSeries = [] {  // 1/(2i+1): log via atanh, and atan
  Series<12> s{};
  for (int i = 0; i < 12; ++i) s.c[i] = 1.0 / (2 * i + 1);
  return s;
}();
constexpr Series<10> kSinSeries = [] {  // (-1)^i/(2i+1)!
  Series<10> s{};
  double f = 1.0;
  for (int i = 0; i < 10; ++i) {
    s.c[i] = (i % 2 ? -1.0 : 1.0) / f;
    f *= (2 * i + 2) * (2 * i + 3);
  }
  return s;
}();
constexpr Series<11> kCosSeries = [] {  // (-1)^i/(2i)!
  Series<11> s{};
  double f = 1.0;
  for (int i = 0; i < 11; ++i) {
    s.c[i] = (i % 2 ? -1.0 : 1.0) / f;
    f *= (2 * i + 1) * (2 * i + 2);
  }
  return s;
}();

template <int N>
double horner(const Series<N>& s, double x) {
  double sum = s.c[N - 1];
  for (int i = N - 2; i >= 0; --i) sum = sum * x + s.c[i];
  return sum;
}

double exp(double x) {
  if (x < -700) return 0.0;
  if (x > 700) return HUGE_VAL;
  const double k = std::floor(x * 1.44269504088896340736 + 0.5);  // x = k ln2 + r, |r| < 0.35
  const double r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
  return std::ldexp(horner(kExpSeries, r), int(k));
}

double log(double x) {  // x > 0
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }                                    // m in [sqrt(1/2), sqrt(2))
  const double s = (m - 1) / (m + 1);  // log m = 2 atanh(s)
  return 2 * s * horner(kOddSeries, s * s) + e * 0.69314718055994530942;
}

double pow(double base, double expo) { return exp(expo * log(base)); }  // base > 0
double cbrt(double x) { return exp(log(x) / 3); }                       // x > 0

void sincos(double x, double& sin_x, double& cos_x) {
  const double k = std::floor(x * (2 / kPi) + 0.5);  // x = k pi/2 + r, |r| <= pi/4
  const double r = (x - k * 1.57079632673412561417) - k * 6.07710050650619224932e-11;
  const double s = r * horner(kSinSeries, r * r), c = horner(kCosSeries, r * r);
  const long long quadrant = ((long long)k % 4 + 4) % 4;
  const double sin_tab[4] = {s, c, -s, -c}, cos_tab[4] = {c, -s, -c, s};
  sin_x = sin_tab[quadrant];
  cos_x = cos_tab[quadrant];
}

double atan(double x) {
  const bool negative = x<0, inverted = std::fabs(x)> 1;
  double t = negative ? -x : x;
  if (inverted) t = 1 / t;
  for (int i = 0; i < 2; ++i) t = t / (1 + std::sqrt(1 + t * t));  // halve the angle twice
  double angle = 4 * t * horner(kOddSeries, -t * t);
  if (inverted) angle = kPi / 2 - angle;
  return negative ? -angle : angle;
}

}  // namespace det

// ---- random numbers ---------------------------------------------------------------------------
class Rng {  // xoshiro256**, its state filled by a splitmix64 sequence from (seed, stream)
 public:
  Rng(uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (stream + 1));
    for (uint64_t& word : state_) {
      x += 0x9E3779B97F4A7C15ull;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      word = z ^ (z >> 31);
    }
  }
  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9, t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }               // [0, 1)
  double open_uniform() { return (double(next() >> 11) + 0.5) * 0x1.0p-53; }  // (0, 1)
  double normal() {  // Marsaglia's polar method: needs only log and sqrt
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    const double f = std::sqrt(-2 * det::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }
  double lognormal(double sigma) { return det::exp(sigma * normal()); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// ---- small geometry ---------------------------------------------------------------------------
struct Vec3 {
  double x, y, z;
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(Vec3 a) { return std::sqrt(dot(a, a)); }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 normalized(Vec3 a) { return (1 / norm(a)) * a; }

struct Frame {  // orthonormal: e1, e2 span a plane, n is its normal
  Vec3 e1, e2, n;
};

Frame frame_with_normal(Vec3 normal, Vec3 towards) {  // e1 points as close to 'towards' as it can
  Frame f;
  f.n = normalized(normal);
  f.e1 = normalized(towards - dot(towards, f.n) * f.n);
  f.e2 = cross(f.n, f.e1);
  return f;
}

Vec3 in_frame(const Frame& f, double a, double b, double c) { return a * f.e1 + b * f.e2 + c * f.n; }

Vec3 random_direction(Rng& rng) {
  for (;;) {
    Vec3 v{rng.normal(), rng.normal(), rng.normal()};
    const double length = norm(v);
    if (length > 1e-12) return (1 / length) * v;
  }
}

double exponential_disk_radius(Rng& rng, double scale) {  // pdf ~ R exp(-R/scale): a Gamma(2)
  const double u1 = rng.open_uniform();
  const double u2 = rng.open_uniform();
  return -scale * det::log(u1 * u2);
}

double gaussian(double d, double sigma) {  // 1D normal density
  return det::exp(-0.5 * d * d / (sigma * sigma)) / (std::sqrt(2 * kPi) * sigma);
}

// ---- the scene --------------------------------------------------------------------------------
struct Rgb {
  double r, g, b;
};

struct Sample {  // one particle as the model sees it
  Vec3 pos;
  double density;      // number density of its own component at pos (particles per unit volume)
  double temperature;  // the scalar colour
  Rgb colour;          // the vector colour, in [0,1] after jitter
};

using Samples = std::vector<Sample>;

const Vec3 kCentre{50, 50, 50};    // the main galaxy; its disk lies in the z = 50 plane
constexpr double kBarAngle = 0.5;  // radians from +x
constexpr double kEta = 1.2;       // hsml in units of the mean particle spacing n^(-1/3)
constexpr double kHsmlMin = 0.1, kHsmlMax = 5.0;
constexpr long long kReferenceCount = 300000;  // intensity = density scaled to this many particles

// Hot halo: beta model n ~ 1 / (1 + r^2/rc^2), truncated at kHaloRadius.
constexpr double kHaloCore = 6.0, kHaloRadius = 46.0;

double halo_density(Vec3 pos, long long count) {
  const double r = norm(pos - kCentre);
  if (r > kHaloRadius || count == 0) return 0.0;
  static const double norm_volume = [] {  // the integral of 1 / (1 + x^2) over the sphere
    const double big_x = kHaloRadius / kHaloCore;
    return 4 * kPi * kHaloCore * kHaloCore * kHaloCore * (big_x - det::atan(big_x));
  }();
  const double x = r / kHaloCore;
  return count / norm_volume / (1 + x * x);
}

void emit_halo(Rng& rng, long long count, Samples& out) {
  for (long long i = 0; i < count; ++i) {
    double r, x;
    do {  // pdf ~ r^2 / (1 + x^2) <= rc^2: uniform radius, accepted with x^2 / (1 + x^2)
      r = kHaloRadius * rng.uniform();
      x = r / kHaloCore;
    } while (rng.uniform() * (1 + x * x) >= x * x);
    Sample s;
    s.pos = kCentre + r * random_direction(rng);
    s.density = halo_density(s.pos, count);
    s.temperature = 6e6 * det::pow(1 + x * x, -0.4) * rng.lognormal(0.2);
    s.colour = {0.55, 0.42, 1.0};
    out.push_back(s);
  }
}

// Exponential disk, sech^2 vertical profile that flares outwards.
constexpr double kDiskScale = 5.5, kDiskRadius = 32.0;

double disk_thickness(double radius) { return 0.25 + 0.015 * radius; }

void emit_disk(Rng& rng, long long count, Samples& out) {
  const double y = kDiskRadius / kDiskScale;
  const double kept = 1 - det::exp(-y) * (1 + y);  // mass fraction inside the truncation
  for (long long i = 0; i < count; ++i) {
    double radius;
    do radius = exponential_disk_radius(rng, kDiskScale);
    while (radius > kDiskRadius);
    double sin_phi, cos_phi;
    det::sincos(2 * kPi * rng.uniform(), sin_phi, cos_phi);
    const double u = rng.open_uniform(), z0 = disk_thickness(radius);
    const double z = 0.5 * z0 * det::log(u / (1 - u));  // inverse CDF of sech^2(z/z0)
    const double sech = 2 / (det::exp(z / z0) + det::exp(-z / z0));
    Sample s;
    s.pos = kCentre + Vec3{radius * cos_phi, radius * sin_phi, z};
    s.density =
        count / kept * det::exp(-radius / kDiskScale) / (2 * kPi * kDiskScale * kDiskScale) * sech * sech / (2 * z0);
    s.temperature = 1.2e3 * det::exp(-radius / 20) * rng.lognormal(0.45);
    const double outer = std::min(1.0, radius / 20);  // old yellow inside, paler outside
    s.colour = {1.0 - 0.2 * outer, 0.8, 0.5 + 0.3 * outer};
    out.push_back(s);
  }
}

// Two logarithmic arms from the ends of the bar: phi = bar + k pi + ln(R/R0) / tan(pitch).
constexpr double kArmStart = 5.0, kArmEnd = 30.0, kArmScale = 8.0;
constexpr double kArmPitch = 16.0 * kPi / 180;
constexpr double kArmWideFraction = 0.2;  // particles in the broad, feathery part of an arm

struct ArmPoint {
  double radius, phi;
};

double arm_radius_pdf(double radius) {
  const double tail = det::exp(-(kArmEnd - kArmStart) / kArmScale);
  return det::exp(-(radius - kArmStart) / kArmScale) / (kArmScale * (1 - tail));
}

double sample_arm_radius(Rng& rng) {
  const double tail = det::exp(-(kArmEnd - kArmStart) / kArmScale);
  return kArmStart - kArmScale * det::log(1 - rng.uniform() * (1 - tail));
}

double arm_phi(double radius, int arm) {
  static const double tan_pitch = [] {
    double s, c;
    det::sincos(kArmPitch, s, c);
    return s / c;
  }();
  return kBarAngle + arm * kPi + det::log(radius / kArmStart) / tan_pitch;
}

double arm_width(double radius) {  // azimuthal Gaussian sigma: perpendicular width / sin(pitch)
  static const double sin_pitch = [] {
    double s, c;
    det::sincos(kArmPitch, s, c);
    return s;
  }();
  return (0.5 + 0.05 * radius) / sin_pitch;
}

double arm_height(double radius) { return 0.15 + 0.01 * radius; }

Vec3 disk_point(double radius, double phi, double z) {
  double sin_phi, cos_phi;
  det::sincos(phi, sin_phi, cos_phi);
  return kCentre + Vec3{radius * cos_phi, radius * sin_phi, z};
}

void emit_arms(Rng& rng, long long count, Samples& out) {
  for (long long i = 0; i < count; ++i) {
    const double radius = sample_arm_radius(rng);
    const int arm = int(i % 2);
    const bool wide = rng.uniform() < kArmWideFraction;
    const double width = arm_width(radius), height = arm_height(radius);
    const double along = rng.normal() * width * (wide ? 3.0 : 1.0), z = rng.normal() * height;
    Sample s;
    s.pos = disk_point(radius, arm_phi(radius, arm) + along / radius, z);
    s.density = count * arm_radius_pdf(radius) / 2 * gaussian(z, height) *
                ((1 - kArmWideFraction) * gaussian(along, width) + kArmWideFraction * gaussian(along, 3 * width));
    s.temperature = 8e3 * rng.lognormal(0.4) * (wide ? 0.5 : 1.0);
    s.colour = wide ? Rgb{0.5, 0.65, 1.0} : Rgb{0.25, 0.45, 1.0};
    out.push_back(s);
  }
}

// Star-forming knots: small Plummer spheres strung along the arms.
constexpr int kKnotCount = 96;
constexpr double kPlummerKept = 0.95;  // Plummer spheres are cut where this mass fraction ends

struct Knot {
  Vec3 centre;
  double scale;
};

std::vector<Knot> place_knots(Rng& rng, int knots) {
  std::vector<Knot> placed;
  for (int k = 0; k < knots; ++k) {
    double radius;
    do radius = sample_arm_radius(rng);
    while (radius < 6 || radius > 26);
    const double along = 0.5 * rng.normal() * arm_width(radius);
    const double z = 0.08 * rng.normal();
    placed.push_back({disk_point(radius, arm_phi(radius, k % 2) + along / radius, z), 0.15 + 0.3 * rng.uniform()});
  }
  return placed;
}

double plummer_radius(Rng& rng, double scale) {  // inverse CDF of M(<r) = r^3 / (r^2 + a^2)^1.5
  const double q = kPlummerKept * rng.open_uniform();
  return scale / std::sqrt(det::pow(q, -2.0 / 3) - 1);
}

double plummer_density(double count, double scale, double r) {
  const double x = r / scale;
  return 3 * count / kPlummerKept / (4 * kPi * scale * scale * scale) * det::pow(1 + x * x, -2.5);
}

void emit_knots(Rng& rng, long long count, Samples& out) {
  if (count == 0) return;
  const int knots = int(std::min<long long>(kKnotCount, count));
  const std::vector<Knot> placed = place_knots(rng, knots);
  for (long long i = 0; i < count; ++i) {
    const int k = int(i % knots);
    const long long members = count / knots + (k < count % knots ? 1 : 0);
    const double r = plummer_radius(rng, placed[k].scale);
    Sample s;
    s.pos = placed[k].centre + r * random_direction(rng);
    s.density = plummer_density(double(members), placed[k].scale, r);
    s.temperature = 2e4 * rng.lognormal(0.35);
    s.colour = k % 3 == 0 ? Rgb{1.0, 0.42, 0.72} : Rgb{0.78, 0.88, 1.0};  // HII pink, young white
    out.push_back(s);
  }
}

// Bar: Ferrers n=2 ellipsoid, n ~ (1 - m^2)^2 with m the ellipsoidal radius.
constexpr double kBarA = 5.0, kBarB = 1.6, kBarC = 0.9;

void emit_bar(Rng& rng, long long count, Samples& out) {
  const double volume_norm = 4 * kPi * kBarA * kBarB * kBarC * 8.0 / 105;  // integral of (1-m^2)^2
  double sin_bar, cos_bar;
  det::sincos(kBarAngle, sin_bar, cos_bar);
  for (long long i = 0; i < count; ++i) {
    double m, w;
    do {  // pdf(m) ~ m^2 (1 - m^2)^2, whose maximum is 4/27
      m = rng.uniform();
      w = (1 - m * m) * (1 - m * m);
    } while (rng.uniform() * (4.0 / 27) >= m * m * w);
    const Vec3 d = random_direction(rng);
    const double a = kBarA * m * d.x, b = kBarB * m * d.y;
    Sample s;
    s.pos = kCentre + Vec3{a * cos_bar - b * sin_bar, a * sin_bar + b * cos_bar, kBarC * m * d.z};
    s.density = count * w / volume_norm;
    s.temperature = 6e4 * rng.lognormal(0.3);
    s.colour = {1.0, 0.8, 0.45};
    out.push_back(s);
  }
}

// Bulge: Plummer sphere flattened along z.
constexpr double kBulgeScale = 1.3, kBulgeFlattening = 0.7;

void emit_bulge(Rng& rng, long long count, Samples& out) {
  for (long long i = 0; i < count; ++i) {
    const double r = plummer_radius(rng, kBulgeScale);
    const Vec3 d = random_direction(rng);
    const double x = r / kBulgeScale;
    Sample s;
    s.pos = kCentre + Vec3{r * d.x, r * d.y, kBulgeFlattening * r * d.z};
    s.density = plummer_density(double(count), kBulgeScale, r) / kBulgeFlattening;
    s.temperature = 4e5 / std::sqrt(1 + x * x) * rng.lognormal(0.25);
    const double core = 1 / (1 + x * x);  // whiter in the core
    s.colour = {1.0, 0.68 + 0.22 * core, 0.32 + 0.38 * core};
    out.push_back(s);
  }
}

// Satellite A: a gas-rich dwarf disk galaxy, inclined, with a small Plummer core.
const Vec3 kDwarfCentre{73, 63, 59};
constexpr double kDwarfDiskScale = 0.9, kDwarfDiskRadius = 5.0, kDwarfThickness = 0.12;
constexpr double kDwarfCoreScale = 0.5, kDwarfCoreFraction = 0.3;

double dwarf_disk_density(double count, double radius, double height) {
  const double y = kDwarfDiskRadius / kDwarfDiskScale, kept = 1 - det::exp(-y) * (1 + y);
  const double sech = 2 / (det::exp(height / kDwarfThickness) + det::exp(-height / kDwarfThickness));
  return count / kept * det::exp(-radius / kDwarfDiskScale) / (2 * kPi * kDwarfDiskScale * kDwarfDiskScale) * sech *
         sech / (2 * kDwarfThickness);
}

void emit_dwarf(Rng& rng, long long count, Samples& out) {
  const Frame f = frame_with_normal({0.6, -0.35, 0.72}, {1, 0, 0});
  const double cores = kDwarfCoreFraction * count, disks = count - cores;
  for (long long i = 0; i < count; ++i) {
    const bool core = rng.uniform() < kDwarfCoreFraction;
    Sample s;
    if (core) {
      const double r = plummer_radius(rng, kDwarfCoreScale);  // one draw per statement: the order of
      s.pos = kDwarfCentre + r * random_direction(rng);       // operands is unspecified in C++
      s.temperature = 3e4 * rng.lognormal(0.3);
      s.colour = {1.0, 0.85, 0.6};
    } else {
      double radius, sin_phi, cos_phi;
      do radius = exponential_disk_radius(rng, kDwarfDiskScale);
      while (radius > kDwarfDiskRadius);
      det::sincos(2 * kPi * rng.uniform(), sin_phi, cos_phi);
      const double u = rng.open_uniform(), z = 0.5 * kDwarfThickness * det::log(u / (1 - u));
      s.pos = kDwarfCentre + in_frame(f, radius * cos_phi, radius * sin_phi, z);
      s.temperature = 6e3 * rng.lognormal(0.4);
      s.colour = {0.5, 0.75, 1.0};
    }
    const Vec3 d = s.pos - kDwarfCentre;
    const double height = dot(d, f.n), radius = std::sqrt(std::max(0.0, dot(d, d) - height * height));
    s.density = plummer_density(cores, kDwarfCoreScale, norm(d)) + dwarf_disk_density(disks, radius, height);
    out.push_back(s);
  }
}

// Satellite B, a dwarf spheroidal on a circular-ish orbit of radius kOrbitRadius around the main
// galaxy, and its tidal stream: leading arm (dtheta > 0) inside, trailing arm outside.
const Frame kOrbit = frame_with_normal({0.2, -0.8, 0.35}, {-0.7, -0.6, -0.3});
constexpr double kOrbitRadius = 26.0, kSpheroidScale = 0.9;
constexpr double kStreamScale = 0.6, kStreamReach = 1.9;  // Laplace in dtheta (radians), cut

Vec3 spheroid_centre() { return kCentre + kOrbitRadius * kOrbit.e1; }

void emit_spheroid(Rng& rng, long long count, Samples& out) {
  for (long long i = 0; i < count; ++i) {
    const double r = plummer_radius(rng, kSpheroidScale);
    Sample s;
    s.pos = spheroid_centre() + r * random_direction(rng);
    s.density = plummer_density(double(count), kSpheroidScale, r);
    s.temperature = 1.2e5 * rng.lognormal(0.25);
    s.colour = {1.0, 0.55, 0.3};
    out.push_back(s);
  }
}

void emit_stream(Rng& rng, long long count, Samples& out) {
  const double kept = 1 - det::exp(-kStreamReach / kStreamScale);
  for (long long i = 0; i < count; ++i) {
    const double t = -kStreamScale * det::log(1 - rng.uniform() * kept);
    const double dtheta = rng.uniform() < 0.5 ? -t : t;
    const double radius = kOrbitRadius * (1 - 0.07 * dtheta), sigma = 0.3 + 1.1 * t;
    double sin_t, cos_t, sin_w, cos_w;
    det::sincos(dtheta, sin_t, cos_t);
    det::sincos(1.5 * dtheta, sin_w, cos_w);
    const Vec3 outward = cos_t * kOrbit.e1 + sin_t * kOrbit.e2;
    const double g1 = rng.normal(), g2 = rng.normal();
    Sample s;
    s.pos = kCentre + (radius + sigma * g1) * outward + (1.2 * sin_w + sigma * g2) * kOrbit.n;
    const double pdf = det::exp(-t / kStreamScale) / (2 * kStreamScale * kept);
    s.density = count * pdf / radius * det::exp(-0.5 * (g1 * g1 + g2 * g2)) / (2 * kPi * sigma * sigma);
    s.temperature = 1.5e4 * det::exp(0.7 * t) * rng.lognormal(0.3);
    s.colour = {0.35, 0.95, 0.6};
    out.push_back(s);
  }
}

struct Component {
  const char* name;
  double fraction;  // of all particles; the halo takes what the others leave
  void (*emit)(Rng&, long long, Samples&);
};

const Component kComponents[] = {
    {"halo", 0.0, emit_halo},         {"disk", 0.24, emit_disk},
    {"arms", 0.22, emit_arms},        {"knots", 0.04, emit_knots},
    {"bar", 0.06, emit_bar},          {"bulge", 0.08, emit_bulge},
    {"dwarf disk", 0.06, emit_dwarf}, {"dwarf spheroidal", 0.04, emit_spheroid},
    {"stream", 0.05, emit_stream},
};
constexpr int kComponentCount = int(sizeof(kComponents) / sizeof(kComponents[0]));

std::vector<long long> component_counts(long long total) {
  std::vector<long long> counts(kComponentCount);
  long long rest = total;
  for (int c = 1; c < kComponentCount; ++c) {
    counts[c] = (long long)(kComponents[c].fraction * double(total));
    rest -= counts[c];
  }
  counts[0] = rest;
  return counts;
}

Samples generate_scene(long long total, uint64_t seed) {
  const std::vector<long long> counts = component_counts(total);
  Samples samples;
  samples.reserve(size_t(total));
  for (int c = 0; c < kComponentCount; ++c) {
    Rng rng(seed, uint64_t(c));  // one stream per component
    kComponents[c].emit(rng, counts[c], samples);
  }
  for (size_t i = size_t(counts[0]); i < samples.size(); ++i)  // all but the halo sit in it too
    samples[i].density += halo_density(samples[i].pos, counts[0]);
  return samples;
}

// ---- output -----------------------------------------------------------------------------------
struct Options {
  std::string out;
  long long n = 300000;
  uint64_t seed = 7;
  bool block_layout = false;
  bool little_endian = false;
  bool vector_colour = false;
};

double hsml_from_density(double density) {
  if (!(density > 0)) return kHsmlMax;
  return std::clamp(kEta / det::cbrt(density), kHsmlMin, kHsmlMax);
}

double jitter(Rng& rng, double value) { return std::clamp(value * (1 + 0.08 * rng.normal()), 0.0, 1.0); }

// The file's floats, in file order, as host floats.
std::vector<float> arrange_columns(const Samples& samples, const Options& o) {
  const size_t count = samples.size(), columns = o.vector_colour ? 8 : 6;
  const double intensity_scale = double(kReferenceCount) / double(std::max<size_t>(count, 1));
  std::vector<float> values(count * columns);
  Rng rng(o.seed, 1000);  // colour jitter
  for (size_t i = 0; i < count; ++i) {
    const Sample& s = samples[i];
    double row[8] = {s.pos.x,       s.pos.y, s.pos.z, hsml_from_density(s.density), s.density * intensity_scale,
                     s.temperature, 0,       0};
    if (o.vector_colour) {
      row[5] = jitter(rng, s.colour.r);
      row[6] = jitter(rng, s.colour.g);
      row[7] = jitter(rng, s.colour.b);
    }
    for (size_t c = 0; c < columns; ++c) values[o.block_layout ? c * count + i : i * columns + c] = float(row[c]);
  }
  return values;
}

// Writes the floats with the chosen byte order, whatever the host's, a chunk at a time.
void encode(const float* values, size_t count, bool little_endian, unsigned char* bytes) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &values[i], 4);
    for (int b = 0; b < 4; ++b) {
      const int shift = little_endian ? 8 * b : 8 * (3 - b);
      bytes[4 * i + b] = (unsigned char)((bits >> shift) & 0xFF);
    }
  }
}

void write_file(const std::string& path, const std::vector<float>& values, bool little_endian) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  constexpr size_t kChunk = 1 << 16;
  std::vector<unsigned char> bytes(4 * kChunk);
  bool written = true;
  int saved_errno = 0;
  for (size_t at = 0; written && at < values.size(); at += kChunk) {
    const size_t count = std::min(kChunk, values.size() - at);
    encode(values.data() + at, count, little_endian, bytes.data());
    written = std::fwrite(bytes.data(), 4, count, f) == count;
    saved_errno = errno;
  }
  if (std::fclose(f) != 0 && written) {
    written = false;
    saved_errno = errno;
  }
  if (!written) {
    std::error_code ignored;  // drop a partial file, but never a device or anything else
    if (std::filesystem::is_regular_file(path, ignored)) std::filesystem::remove(path, ignored);
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(saved_errno));
  }
}

// ---- command line -----------------------------------------------------------------------------
const char* const kUsage =
    "usage: make_demo --out FILE [--n N (default 300000)] [--seed S (default 7)]\n"
    "                 [--layout table|block (default table)] [--little-endian] [--vector-colour]\n"
    "Writes a demo galaxy scene as raw float32 for splotch (simtype 0 table, 1 block),\n"
    "big-endian unless --little-endian. Columns x y z hsml intensity colour (num_blocks=6),\n"
    "or x y z hsml intensity R G B with --vector-colour (num_blocks=8).\n";

constexpr uint64_t kMaxParticles = 50000000;  // about 5 GB of memory at the most

uint64_t parse_unsigned(const std::string& key, const std::string& text, uint64_t max) {
  if (text.empty() || text.size() > 20) throw std::runtime_error(key + " needs a whole number, got '" + text + "'");
  uint64_t value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') throw std::runtime_error(key + " needs a whole number, got '" + text + "'");
    const uint64_t digit = uint64_t(ch - '0');
    if (value > (max - digit) / 10) throw std::runtime_error(key + " is out of range: '" + text + "'");
    value = value * 10 + digit;
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + arg);
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--out")
      o.out = value();
    else if (arg == "--n")
      o.n = (long long)parse_unsigned(arg, value(), kMaxParticles);
    else if (arg == "--seed")
      o.seed = parse_unsigned(arg, value(), UINT64_MAX);
    else if (arg == "--layout") {
      const std::string layout = value();
      if (layout != "table" && layout != "block")
        throw std::runtime_error("--layout takes table or block, got '" + layout + "'");
      o.block_layout = layout == "block";
    } else if (arg == "--little-endian")
      o.little_endian = true;
    else if (arg == "--vector-colour")
      o.vector_colour = true;
    else
      throw std::runtime_error("unknown argument '" + arg + "' (try --help)");
  }
  if (o.out.empty()) throw std::runtime_error("--out FILE is required (try --help)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse_options(argc, argv);
    const std::vector<float> values = arrange_columns(generate_scene(o.n, o.seed), o);
    write_file(o.out, values, o.little_endian);
    std::printf("make_demo: %lld particles written to %s (%s, %s-endian, num_blocks=%d)\n", o.n, o.out.c_str(),
                o.block_layout ? "block, simtype=1" : "table, simtype=0", o.little_endian ? "little" : "big",
                o.vector_colour ? 8 : 6);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_demo: error: %s\n", e.what());
    return 1;
  }
}
