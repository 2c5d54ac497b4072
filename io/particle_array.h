// ParticleArray: the array type of every per-particle field. A std::vector whose memory comes in
// whole 2 MiB huge pages (where the kernel offers transparent huge pages) and whose elements are
// not zero-filled on resize: the fields are large (40 MB per field at 1e7 particles) and always
// written in full right after, so zero-filling would cost a pass over memory and 4 KiB pages a
// page fault every 4 KiB, which together took longer than reading the data.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace splotch {

template <class T>
struct ParticleAllocator {
  using value_type = T;
  ParticleAllocator() = default;
  template <class U>
  ParticleAllocator(const ParticleAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, rounded);
    if (!p) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint; without it the memory works all the same
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < huge_page)
      ::operator delete(p);
    else
      std::free(p);
  }
  // Default-initialisation: resize() leaves new elements unwritten.
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const ParticleAllocator&, const ParticleAllocator&) { return true; }
  friend bool operator!=(const ParticleAllocator&, const ParticleAllocator&) { return false; }

 private:
  static constexpr std::size_t huge_page = std::size_t(2) << 20;
};

template <class T>
using ParticleArray = std::vector<T, ParticleAllocator<T>>;

// Equality with a plain vector (of the same values), for tests.
template <class T>
bool operator==(const ParticleArray<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace splotch
