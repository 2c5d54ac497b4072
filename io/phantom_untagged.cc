#include "io/phantom_untagged.h"

#include <vector>

namespace splotch {
namespace {

std::string at(const std::vector<const char*>& names, int j) {
  return j >= 0 && std::size_t(j) < names.size() && names[std::size_t(j)] ? names[std::size_t(j)] : "";
}

const char* kind_name(DumpKind k) {
  switch (k) {
    case DumpKind::int_default: return "int";
    case DumpKind::int1: return "int1";
    case DumpKind::int2: return "int2";
    case DumpKind::int4: return "int4";
    case DumpKind::int8: return "int8";
    case DumpKind::real: return "real";
    case DumpKind::real4: return "real4";
    case DumpKind::real8: return "real8";
  }
  return "";
}

}  // namespace

std::string untagged_header_tag(const DumpDialect& dialect, DumpKind k, int j, int count) {
  switch (k) {
    case DumpKind::int_default:
      if (dialect.phantom) {
        // nparttot, npartoftype(1:5), nblocks, isink; a header of fewer than 7 has the types only.
        if (j == 0) return "nparttot";
        if (count < 7) return "npartoftype";
        return at(
            {nullptr, "npartoftype", "npartoftype", "npartoftype", "npartoftype", "npartoftype", "nblocks", "isink"},
            j);
      }
      // sphNG: npart, n1, n2, nreassign, naccrete, nkill, nblocks, ...
      if (count < 3) return j == 0 ? "nparttot" : "";
      return at({"nparttot", "n1", "n2", "nreassign", "naccrete", "nkill", "nblocks"}, j);
    case DumpKind::int8:
      // (Phantom writes the counts again as 8-byte integers: nparttot, npartoftype(1:maxtypes))
      if (!dialect.phantom) return "";
      return j == 0 ? "nparttot" : "npartoftype";
    case DumpKind::real:
      if (j < 5 && count > 5) {
        if (dialect.phantom) return at({"time", "dtmax", "gamma", "rhozero", "RK2"}, j);
        return at({"gt", "dtmax", "gamma", "rhozero", "RK2"}, j);
      }
      if (dialect.phantom) {
        if (j >= 5 && j < 14 && count >= 14)
          return at({"hfact", "tolh", "C_cour", "C_force", "alpha", "alphau", "alphaB", "polyk2", "qfacdisc"}, j - 5);
        if (j >= 14 && j < 19 && count >= 19) return "massoftype";
        return "";
      }
      // sphNG: a small dump's particle mass (the 15th of 15 values, else the 23rd)
      if (dialect.small && ((count == 15 && j == 14) || (count != 15 && j == 22))) return "pmassinitial";
      return "";
    case DumpKind::real8: return at({"udist", "umass", "utime", "umagfd"}, j);
    default: return "";
  }
}

std::string untagged_array_name(const DumpDialect& dialect, int block, DumpKind k, int j, int /*count*/) {
  std::string name;
  if (block == 0) {
    if (k == DumpKind::int1 && j == 0) name = dialect.phantom ? "itype" : "iphase";
    if (k == DumpKind::int_default && j == 0 && !dialect.phantom) name = "isteps";
    if (k == DumpKind::int8 && j == 0 && !dialect.phantom) name = "iunique";
    if (k == DumpKind::real) {
      if (dialect.phantom)
        name = at({"x", "y", "z", "vx", "vy", "vz", "u"}, j);
      else if (dialect.small)
        name = at({"x", "y", "z", "m"}, j);
      else
        name = at({"x", "y", "z", "m", "h", "vx", "vy", "vz", "u"}, j);
    }
    if (k == DumpKind::real4) {
      if (dialect.phantom)
        name = at({"h", "alpha", "alphau"}, j);
      else if (dialect.small)
        name = at({"rho", "h"}, j);
      else
        name = at({"rho", "gradh", "gradhsoft", "alpha"}, j);
    }
  } else if (block == 1 && dialect.phantom && k == DumpKind::real) {
    name = at({"x", "y", "z", "m", "hsoft", "maccreted", "spinx", "spiny", "spinz", "vx", "vy", "vz"}, j);
  } else if (block == 1 && !dialect.phantom && k == DumpKind::int_default && j == 0) {
    name = "listpm";
  } else if (block == 3 && (k == DumpKind::real4 || k == DumpKind::real) && j < 3) {
    name = at({"Bx", "By", "Bz"}, j);
  }
  if (!name.empty()) return name;
  return (block == 0 ? std::string() : "b" + std::to_string(block + 1) + "_") + kind_name(k) + "_" +
         std::to_string(j + 1);
}

}  // namespace splotch
