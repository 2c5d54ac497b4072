// JSON text for the page: a string quoted and escaped, a number that JSON can hold.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace splotch {

inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char code[8];
          std::snprintf(code, sizeof code, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
          out += code;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// JSON has no infinity or NaN: null stands for them (an empty range).
inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

}  // namespace splotch
