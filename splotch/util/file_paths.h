// Small questions about paths that the settings ask when they resolve file names.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace splotch {

inline bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

inline bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `path` from the root: a record of a run names files that any working directory finds.
inline std::string absolute_path(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char here[4096];
  if (!::getcwd(here, sizeof here)) return path;
  std::string out = here;
  std::string rest = path;
  while (rest.rfind("./", 0) == 0) rest.erase(0, 2);
  return out + (out.back() == '/' ? "" : "/") + rest;
}

// "dir/" of "dir/name", "" of "name".
inline std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// The project's palettes (testdata/palettes beside bin/), for palettes named by their bare name
// (`fire`, `fire.pal`) wherever the program runs from.
inline std::string project_palette_directory() {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "testdata/palettes/";
  const std::string bin = directory_of(std::string(exe, std::size_t(n)));     // ".../bin/"
  return directory_of(bin.substr(0, bin.size() - 1)) + "testdata/palettes/";  // ".../testdata/palettes/"
}

}  // namespace splotch
