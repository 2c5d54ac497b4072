// A number as used.par records a value the run worked out (a placed camera, an automatic
// exposure): 9 significant digits, which give a float back exactly when read again.
#pragma once

#include <cstdio>
#include <string>

namespace splotch {

inline std::string number_text(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

}  // namespace splotch
