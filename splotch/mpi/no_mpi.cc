// The one process of a build without MPI.
#include <cstdlib>
#include <utility>

#include "splotch/mpi/comm.h"

namespace splotch {

struct Comm::Node {};
Comm::Comm(int&, char**&) {}
Comm::~Comm() = default;
int Comm::nodes() const { return 1; }
void Comm::abort(int status) const { std::exit(status); }
std::string Comm::first_error(const std::string& local) const { return local; }
void Comm::min_max(std::vector<float>&, std::vector<float>&) const {}
std::uint64_t Comm::sum(std::uint64_t value) const { return value; }
bool Comm::all(bool value) const { return value; }
void Comm::wait_for_all() const {}
void Comm::prepare_reduction(std::size_t, bool) const {}
void Comm::sum_to_root(float*, std::size_t, ImageReduction) const {}
void Comm::sum(std::vector<std::uint64_t>&) const {}
void Comm::broadcast(std::vector<std::uint64_t>&) const {}
std::vector<std::uint64_t> Comm::gather_all(const std::vector<std::uint64_t>& mine) const { return mine; }
ParticleArray<char> Comm::exchange(const ParticleArray<char>& send, const std::vector<std::size_t>& to, std::size_t,
                                   std::vector<std::size_t>& from) const {
  from = to;
  return send;
}
void Comm::composite_to_root(float* layers, std::size_t pixels, float* rgb, ImageReduction) const {
  for (std::size_t p = 0; p < pixels; ++p)
    for (std::size_t c = 0; c < 3; ++c) rgb[3 * p + c] = layers[6 * p + c];
}

NodeTurns::~NodeTurns() = default;
bool NodeTurns::take() { return !std::exchange(taken_, true); }
void NodeTurns::pass() { passed_ = true; }
int NodeTurns::threads(int own) const { return own; }

struct SharedCounter::Window {};
SharedCounter::SharedCounter(const Comm&) {}
SharedCounter::~SharedCounter() = default;
std::uint64_t SharedCounter::next() { return local_++; }

}  // namespace splotch
