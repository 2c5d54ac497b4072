// Small questions about paths that the settings ask when they resolve file names.
#pragma once

#include <dlfcn.h>
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

// The project's palettes, for palettes named by their bare name (`fire`, `fire.pal`) wherever the
// program runs from: testdata/palettes beside the bin/ of the program, or, for the Python module
// (a shared library in the package python/splotch, which make python gives a copy of them), the
// package's palettes/. Found from the file this code was loaded from, not the process's program
// (python3).
inline std::string project_palette_directory() {
  Dl_info self;
  std::string file;
  if (::dladdr(reinterpret_cast<void*>(&project_palette_directory), &self) != 0 && self.dli_fname &&
      self.dli_fname[0] == '/')
    file = self.dli_fname;
  if (file.empty()) {
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return "testdata/palettes/";
    file.assign(exe, std::size_t(n));
  }
  const std::string here = directory_of(file);  // ".../bin/" (or the package's directory)
  if (path_exists(here + "palettes/fire.pal")) return here + "palettes/";
  return directory_of(here.substr(0, here.size() - 1)) + "testdata/palettes/";  // ".../testdata/palettes/"
}

}  // namespace splotch
