#include "io/text_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "errors/user_error.h"
#include "io/interrupt_cleanup.h"

namespace splotch {

void write_text_file(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const InterruptNote interrupted("writing " + path, temporary);  // (before the file exists)
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f) throw UserError("cannot write '" + path + "': " + std::strerror(errno));
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw UserError("cannot write '" + path + "': " + reason);
  }
}

}  // namespace splotch
