#include "splotch/serve/serve_page.h"

namespace splotch {

const std::string& serve_page() {
  // splotch/serve/page/'s files, its style sheet and script put into the HTML, as a raw string
  // literal (the Makefile makes it).
  static const std::string page =
#include "build/gen/serve_page.inc"
      ;
  return page;
}

}  // namespace splotch
