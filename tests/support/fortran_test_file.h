// Fortran unformatted files written by the tests, as RAMSES (amr/output_amr.f90, hydro/output_hydro.f90,
// pm/output_part.f90) and Phantom (readwrite_dumps) write them: records with 4-byte markers, in
// either byte order.
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
  // A record of values of several kinds (Phantom's check integers, its array lengths): each
  // appended in the file's byte order, then written as one record.
  template <class T>
  void append(std::vector<unsigned char>& bytes, T v) const {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (big_)
      for (std::size_t a = 0, z = sizeof(T) - 1; a < z; ++a, --z) std::swap(b[a], b[z]);
    bytes.insert(bytes.end(), b, b + sizeof(T));
  }
  void raw(const std::vector<unsigned char>& bytes) {
    std::uint32_t n = std::uint32_t(bytes.size());
    if (big_) n = __builtin_bswap32(n);
    out_.write(reinterpret_cast<const char*>(&n), 4);
    out_.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out_.write(reinterpret_cast<const char*>(&n), 4);
  }

 private:
  std::ofstream out_;
  bool big_;
};

}  // namespace splotch::testing
