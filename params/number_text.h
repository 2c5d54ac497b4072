// A number as used.par records a value the run worked out (a placed camera, an automatic
// exposure): 9 significant digits, which give a float back exactly when read again.
#pragma once

#include <charconv>
#include <cstdio>
#include <string>

namespace splotch {

inline std::string number_text(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

// The shortest text that reads back as the same float, for a value the user gave as a float
// (0.2, not 0.200000003).
inline std::string float_text(float v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

}  // namespace splotch
