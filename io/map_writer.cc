#include "io/map_writer.h"

#include <fitsio.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "errors/user_error.h"
#include "io/interrupt_cleanup.h"

#ifdef SPLOTCH_HDF5
#include <hdf5.h>
#endif

namespace splotch {
namespace {

std::string lower_extension(const std::string& path) {
  const std::size_t dot = path.rfind('.'), slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot);
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw UserError("cannot write the map '" + path + "': " + why);
}

// ---- FITS ------------------------------------------------------------------------------------

void check_fits(int status, const std::string& path) {
  if (status == 0) return;
  char text[FLEN_STATUS];
  fits_get_errstatus(status, text);
  fail(path, std::string(text) + " (cfitsio)");
}

void fits_text(fitsfile* f, const char* key, const std::string& value, const char* comment, int& status) {
  fits_write_key_longstr(f, const_cast<char*>(key), const_cast<char*>(value.c_str()), const_cast<char*>(comment),
                         &status);
}
void fits_number(fitsfile* f, const char* key, double value, const char* comment, int& status) {
  fits_write_key_dbl(f, const_cast<char*>(key), value, 12, const_cast<char*>(comment), &status);
}

void write_fits(const std::string& temp, const std::string& path, const MapFile& m) {
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, ("!" + temp).c_str(), &status);
  check_fits(status, path);
  long axes[2] = {m.xres, m.yres};
  fits_create_img(f, FLOAT_IMG, 2, axes, &status);
  fits_write_img(f, TFLOAT, 1, LONGLONG(m.values.size()), const_cast<float*>(m.values.data()), &status);
  // BUNIT in the standard's unit syntax, which code units have none of (their words in VALUNIT).
  if (!m.fits_unit.empty()) fits_text(f, "BUNIT", m.fits_unit, "unit of the values", status);
  fits_text(f, "VALUNIT", m.unit, "unit of the values, in words", status);
  fits_text(f, "MAPUNITS", m.physical ? "physical" : "code", "map_units", status);
  int comoving = m.comoving ? 1 : 0;
  fits_write_key_log(f, const_cast<char*>("COMOVING"), comoving,
                     const_cast<char*>(m.physical ? "the file's lengths comoving: made physical with SCALEFAC"
                                                  : "the map's lengths comoving (code units)"),
                     &status);
  fits_number(f, "SCALEFAC", m.scale_factor, "scale factor a of the snapshot (1: none)", status);
  if (m.hubble > 0)
    fits_number(f, "HUBBLE", m.hubble,
                m.physical ? "h taken out of the file's units/h" : "h: the map's units are the file's units/h", status);
  fits_text(f, "BTYPE", m.quantity, "what the map is of", status);
  // Linear coordinates about lookat: pixel (xres + 1) / 2 (FITS counts from 1) is 0.
  for (int a = 0; a < 2; ++a) {
    const std::string n = std::to_string(a + 1);
    fits_text(f, ("CTYPE" + n).c_str(), a == 0 ? "X" : "Y", a == 0 ? "the view's x axis" : "the view's y axis", status);
    fits_number(f, ("CRPIX" + n).c_str(), 0.5 * ((a == 0 ? m.xres : m.yres) + 1), "the centre (lookat)", status);
    fits_number(f, ("CRVAL" + n).c_str(), 0.0, "offset from lookat", status);
    fits_number(f, ("CDELT" + n).c_str(), m.pixel, "pixel side", status);
    if (m.physical) fits_text(f, ("CUNIT" + n).c_str(), m.length_unit, "", status);
  }
  for (int a = 0; a < 3; ++a) {
    const char* axis = a == 0 ? "X" : a == 1 ? "Y" : "Z";
    fits_number(f, (std::string("LOOKAT") + axis).c_str(), m.centre[a], "the map's centre, code units", status);
    fits_number(f, (std::string("XAXIS") + axis).c_str(), m.x_axis[a], "the map's x axis in the snapshot", status);
    fits_number(f, (std::string("YAXIS") + axis).c_str(), m.y_axis[a], "the map's y axis in the snapshot", status);
  }
  fits_number(f, "TIME", m.time, "the header's time (Gadget's cosmological runs: a)", status);
  if (m.redshift >= 0) fits_number(f, "REDSHIFT", m.redshift, "the snapshot's redshift", status);
  fits_text(f, "SNAPSHOT", m.snapshot, "", status);
  fits_text(f, "KERNEL", m.kernel, "SPH kernel and support", status);
  fits_text(f, "ORIGIN", "splotch", "", status);
  for (const std::string& line : m.history) fits_write_history(f, const_cast<char*>(line.c_str()), &status);
  fits_close_file(f, &status);
  check_fits(status, path);
}

// ---- NumPy -----------------------------------------------------------------------------------

void write_npy(const std::string& temp, const std::string& path, const MapFile& m) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(m.yres) + ", " +
                       std::to_string(m.xres) + "), }";
  const std::size_t preamble = 10;  // magic (6), version (2), header length (2)
  while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::FILE* out = std::fopen(temp.c_str(), "wb");
  if (!out) fail(path, std::strerror(errno));
  const unsigned char start[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const unsigned char length[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                   static_cast<unsigned char>(header.size() >> 8)};
  // (the values are little-endian floats on every machine this builds for)
  const bool ok = std::fwrite(start, 1, 8, out) == 8 && std::fwrite(length, 1, 2, out) == 2 &&
                  std::fwrite(header.data(), 1, header.size(), out) == header.size() &&
                  std::fwrite(m.values.data(), sizeof(float), m.values.size(), out) == m.values.size();
  const int error = errno;
  if (std::fclose(out) != 0 || !ok) fail(path, std::strerror(ok ? errno : error));
}

// ---- HDF5 ------------------------------------------------------------------------------------

#ifdef SPLOTCH_HDF5
void h5_text(hid_t at, const char* name, const std::string& value) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.empty() ? 1 : value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, type, value.empty() ? "" : value.c_str());
  H5Aclose(a);
  H5Sclose(space);
  H5Tclose(type);
}
void h5_numbers(hid_t at, const char* name, const double* values, hsize_t n) {
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t a = H5Acreate2(at, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_DOUBLE, values);
  H5Aclose(a);
  H5Sclose(space);
}

void write_hdf5(const std::string& temp, const std::string& path, const MapFile& m) {
  const hid_t file = H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) fail(path, "HDF5 cannot create it");
  const hsize_t dims[2] = {hsize_t(m.yres), hsize_t(m.xres)};
  const hid_t space = H5Screate_simple(2, dims, nullptr);
  const hid_t set = H5Dcreate2(file, "map", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = set >= 0 && H5Dwrite(set, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.values.data()) >= 0;
  if (set >= 0) {
    h5_text(set, "unit", m.unit);
    h5_text(set, "quantity", m.quantity);
    h5_text(set, "length_unit", m.length_unit);
    if (!m.fits_unit.empty()) h5_text(set, "fits_unit", m.fits_unit);
    h5_text(set, "units", m.physical ? "physical" : "code");
    const double comoving = m.comoving ? 1 : 0;
    h5_numbers(set, "comoving", &comoving, 1);
    h5_numbers(set, "scale_factor", &m.scale_factor, 1);
    if (m.hubble > 0) h5_numbers(set, "hubble", &m.hubble, 1);
    h5_numbers(set, "pixel", &m.pixel, 1);
    h5_numbers(set, "lookat", m.centre, 3);
    h5_numbers(set, "x_axis", m.x_axis, 3);
    h5_numbers(set, "y_axis", m.y_axis, 3);
    h5_numbers(set, "time", &m.time, 1);
    if (m.redshift >= 0) h5_numbers(set, "redshift", &m.redshift, 1);
    h5_text(set, "snapshot", m.snapshot);
    h5_text(set, "kernel", m.kernel);
    std::string parameters;
    for (const std::string& line : m.history) parameters += line + "\n";
    h5_text(set, "parameters", parameters);
    H5Dclose(set);
  }
  H5Sclose(space);
  if (H5Fclose(file) < 0 || !ok) fail(path, "HDF5 failed to write it");
}
#else
void write_hdf5(const std::string&, const std::string& path, const MapFile&) {
  fail(path, "this build has no HDF5 (make HDF5=0); name the map .fits or .npy, or build with libhdf5-dev");
}
#endif

}  // namespace

bool map_file_format(const std::string& path, MapFileFormat& format) {
  const std::string e = lower_extension(path);
  if (e == ".fits" || e == ".fit" || e == ".fts")
    format = MapFileFormat::fits;
  else if (e == ".h5" || e == ".hdf5")
    format = MapFileFormat::hdf5;
  else if (e == ".npy")
    format = MapFileFormat::npy;
  else
    return false;
  return true;
}

void write_map_file(const std::string& path, MapFileFormat format, const MapFile& m) {
  if (m.values.size() != std::size_t(m.xres) * std::size_t(m.yres)) fail(path, "the map's size is inconsistent");
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  InterruptNote note("writing " + path + "; no map written", temp);
  try {
    if (format == MapFileFormat::fits)
      write_fits(temp, path, m);
    else if (format == MapFileFormat::npy)
      write_npy(temp, path, m);
    else
      write_hdf5(temp, path, m);
  } catch (...) {
    std::remove(temp.c_str());
    throw;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    fail(path, std::strerror(error));
  }
  note.end();
}

}  // namespace splotch
