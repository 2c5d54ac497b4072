#include "io/file_start.h"

#include <fstream>

namespace splotch {

std::string file_start(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string start(bytes, '\0');
  in.read(start.data(), std::streamsize(start.size()));
  start.resize(std::size_t(in.gcount()));
  return start;
}

bool looks_binary(const std::string& bytes) {
  std::size_t control = 0;
  for (const char ch : bytes) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == 0) return true;
    control += (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f;
  }
  return control * 10 > bytes.size();
}

}  // namespace splotch
