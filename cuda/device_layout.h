// An algorithm's device scratch described once, by a function that takes its arrays in turn from
// a DeviceLayout and returns them. Run on a layout without memory, it measures: the bytes the
// scratch takes, by which the driver sizes the chunk. Run on one allocation of that size, it
// carves the arrays out of it. Measure and memory cannot drift apart, and the scratch is one
// cudaMalloc rather than one per array.
#pragma once

#include <algorithm>
#include <cstddef>

#include "cuda/device_buffer.h"

namespace splotch::cuda_detail {

class DeviceLayout {
 public:
  DeviceLayout() = default;                                    // measures: take() gives null
  explicit DeviceLayout(unsigned char* base) : base_(base) {}  // carves from base

  // Room for n T's, aligned as cudaMalloc aligns (and as CUB wants its scratch).
  template <class T>
  T* take(std::size_t n) {
    offset_ = (offset_ + alignment - 1) / alignment * alignment;
    T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
    offset_ += n * sizeof(T);
    return p;
  }
  std::size_t bytes() const { return offset_; }

 private:
  static constexpr std::size_t alignment = 256;
  unsigned char* base_ = nullptr;
  std::size_t offset_ = 0;
};

// The bytes that `lay_out(DeviceLayout&)` takes.
template <class LayOut>
std::size_t bytes_of(const LayOut& lay_out) {
  DeviceLayout measure;
  lay_out(measure);
  return measure.bytes();
}

// One device allocation holding the arrays that `lay_out` returns.
template <class Arrays>
class DeviceArena {
 public:
  // Allocates what `lay_out` measures (freeing what was held) and carves it; false when the
  // device has too little free memory (then nothing is held).
  template <class LayOut>
  bool allocate(const LayOut& lay_out) {
    if (!memory_.try_allocate(std::max<std::size_t>(bytes_of(lay_out), 1))) {
      arrays_ = Arrays{};
      return false;
    }
    DeviceLayout carve(memory_.get());
    arrays_ = lay_out(carve);
    return true;
  }
  const Arrays& operator*() const { return arrays_; }
  const Arrays* operator->() const { return &arrays_; }

 private:
  DeviceBuffer<unsigned char> memory_;
  Arrays arrays_{};
};

}  // namespace splotch::cuda_detail
