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

}  // namespace splotch
