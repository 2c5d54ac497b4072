// ParticleArray: the array type of every per-particle field. A std::vector whose memory comes in
// whole 2 MiB huge pages (where the kernel offers transparent huge pages) and whose elements are
// not zero-filled on resize: the fields are large (40 MB per field at 1e7 particles) and always
// written in full right after, so zero-filling would cost a pass over memory and 4 KiB pages a
// page fault every 4 KiB, which together took longer than reading the data. An array may instead
// use memory a caller lends (lend_array: the Python module's NumPy arrays) in place, unwritten.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace splotch {

// Memory lent by a caller (the Python module's arrays, io/memory_arrays.h): an array made on it
// (lend_array) uses it in place; `keeper` keeps it alive while any array made on it lives.
struct LentMemory {
  const void* data = nullptr;
  std::shared_ptr<const void> keeper;
};

template <class T>
struct ParticleAllocator {
  using value_type = T;
  // A vector takes its allocator along where it is moved, swapped or assigned, so that the one
  // array that uses lent memory always knows it (and never frees it); a copy's memory is its own.
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_copy_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using is_always_equal = std::false_type;

  ParticleAllocator() = default;
  template <class U>
  ParticleAllocator(const ParticleAllocator<U>&) {}  // (a rebound allocator lends nothing)
  // (a vector made with a lending allocator takes a copy of it: the offer goes with the copy)
  ParticleAllocator(const ParticleAllocator& other) : lent_(other.lent_), offered_(other.offered_) {}
  ParticleAllocator& operator=(const ParticleAllocator& other) {
    lent_ = other.lent_;
    offered_ = false;
    return *this;
  }
  ParticleAllocator select_on_container_copy_construction() const { return {}; }

  T* allocate(std::size_t n) {
    if (offered_) {  // the first allocation of an array made on lent memory: that memory
      offered_ = false;
      return static_cast<T*>(const_cast<void*>(lent_->data));
    }
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new(bytes));
    // A large array starts `stagger` bytes into its huge pages, an amount that differs between
    // the arrays of a set: arrays that all started on a 2 MiB boundary would put the i-th values
    // of every field a loop walks together (interpolation walks 18) into the same cache sets,
    // which on an Intel Xeon (the H100 machine's) made such a loop seven times slower per thread
    // than with the fields apart. The allocation's start is kept just before the array's.
    const std::size_t stagger = stagger_bytes(), rounded = (bytes + stagger + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, rounded);
    if (!p) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint; without it the memory works all the same
    unsigned char* data = static_cast<unsigned char*>(p) + stagger;
    reinterpret_cast<void**>(data)[-1] = p;
    return reinterpret_cast<T*>(data);
  }
  void deallocate(T* p, std::size_t n) {
    if (lent_ && p == lent_->data) return;  // (the lender's, kept by lent_ until the last array on it goes)
    if (n * sizeof(T) < huge_page)
      ::operator delete(p);
    else
      std::free(reinterpret_cast<void**>(p)[-1]);
  }
  // Default-initialisation: resize() leaves new elements unwritten (and lent memory as it is).
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const ParticleAllocator& a, const ParticleAllocator& b) { return a.lent_ == b.lent_; }
  friend bool operator!=(const ParticleAllocator& a, const ParticleAllocator& b) { return !(a == b); }

  // An allocator whose first allocation is `lent`'s memory.
  static ParticleAllocator lending(LentMemory lent) {
    ParticleAllocator a;
    a.lent_ = std::make_shared<const LentMemory>(std::move(lent));
    a.offered_ = true;
    return a;
  }
  // Whether `p` is lent memory (an array on it must not be written).
  bool lends(const void* p) const { return lent_ && p == lent_->data; }
  const std::shared_ptr<const LentMemory>& lent() const { return lent_; }

 private:
  static constexpr std::size_t huge_page = std::size_t(2) << 20;
  // 1 cache line (64 bytes) to 61 lines plus 60 pages in, chosen by where the array itself lies:
  // the arrays of one ParticleSet lie a vector apart, and each gets a stagger of its own, apart
  // both within a page (the L1's sets) and across pages (the L2's).
  std::size_t stagger_bytes() const {
    const std::size_t k = (reinterpret_cast<std::uintptr_t>(this) / sizeof(void*)) % 61;
    return 64 * (1 + k) + 4096 * k;
  }
  std::shared_ptr<const LentMemory> lent_;
  bool offered_ = false;
};

template <class T>
using ParticleArray = std::vector<T, ParticleAllocator<T>>;

// An array of the `n` values at `data`, used in place: the caller's memory, which no step may
// write (a step that would calls own() first). `keeper` keeps it alive as long as the array.
template <class T>
ParticleArray<T> lend_array(const T* data, std::size_t n, std::shared_ptr<const void> keeper) {
  if (n == 0) return {};
  ParticleArray<T> a(ParticleAllocator<T>::lending(LentMemory{data, std::move(keeper)}));
  a.reserve(n);
  a.resize(n);  // (default-initialised: the lent values stay as they are)
  return a;
}

// Another array on the memory `a` uses in place (which keeps it alive too); a copy of `a` where
// its memory is its own.
template <class T>
ParticleArray<T> lend_again(const ParticleArray<T>& a) {
  if (!a.get_allocator().lends(a.data())) return a;
  return lend_array(a.data(), a.size(), std::shared_ptr<const void>(a.get_allocator().lent()));
}

template <class T>
bool is_lent(const ParticleArray<T>& a) {
  return !a.empty() && a.get_allocator().lends(a.data());
}

// `a` with memory of its own: a copy of what it uses in place, before a step writes to it.
template <class T>
void own(ParticleArray<T>& a) {
  if (!is_lent(a)) return;
  ParticleArray<T> copy(a.begin(), a.end());
  a = std::move(copy);
}

// Equality with a plain vector (of the same values), for tests.
template <class T>
bool operator==(const ParticleArray<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace splotch
