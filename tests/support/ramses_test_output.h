// RAMSES outputs written by the tests, as RAMSES writes them (amr/output_amr.f90, hydro/output_hydro.f90,
// pm/output_part.f90): Fortran unformatted records with 4-byte markers, in either byte order.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace splotch::testing {

class FortranWriter {
 public:
  FortranWriter(const std::string& path, bool big_endian) : out_(path, std::ios::binary), big_(big_endian) {}

  template <class T>
  void record(const std::vector<T>& v) {
    std::vector<unsigned char> bytes(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
    if (big_ && sizeof(T) > 1)
      for (std::size_t i = 0; i < bytes.size(); i += sizeof(T))
        for (std::size_t a = 0, b = sizeof(T) - 1; a < b; ++a, --b) std::swap(bytes[i + a], bytes[i + b]);
    raw(bytes);
  }
  template <class T>
  void one(T v) {
    record(std::vector<T>{v});
  }
  void text(const std::string& s, std::size_t length) {
    std::string padded = s;
    padded.resize(length, ' ');
    raw(std::vector<unsigned char>(padded.begin(), padded.end()));
  }

 private:
  void raw(const std::vector<unsigned char>& bytes) {
    std::uint32_t n = std::uint32_t(bytes.size());
    if (big_) n = __builtin_bswap32(n);
    out_.write(reinterpret_cast<const char*>(&n), 4);
    out_.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out_.write(reinterpret_cast<const char*>(&n), 4);
  }
  std::ofstream out_;
  bool big_;
};

}  // namespace splotch::testing
