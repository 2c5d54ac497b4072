#include "io/fits_reader.h"

#include <fitsio.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "errors/user_error.h"
#include "io/field_names.h"
#include "io/input_file.h"

namespace splotch {
namespace {

struct Closer {
  void operator()(fitsfile* f) const {
    int status = 0;
    fits_close_file(f, &status);
  }
};
using Fits = std::unique_ptr<fitsfile, Closer>;

[[noreturn]] void fail(const std::string& path, const std::string& what, int status) {
  char text[FLEN_STATUS] = "";
  fits_get_errstatus(status, text);
  throw UserError("'" + path + "': " + what + " (cfitsio: " + text + ")");
}

// The file, at its first HDU with data: an image of at least one axis, or a table.
Fits open_at_data(const std::string& path, int& hdu_type) {
  fitsfile* raw = nullptr;
  int status = 0;
  if (fits_open_file(&raw, path.c_str(), READONLY, &status)) fail(path, "cannot be opened as FITS", status);
  Fits f(raw);
  int hdus = 0;
  fits_get_num_hdus(f.get(), &hdus, &status);
  for (int h = 1; h <= hdus; ++h) {
    if (fits_movabs_hdu(f.get(), h, &hdu_type, &status))
      fail(path, "HDU " + std::to_string(h) + " cannot be read", status);
    if (hdu_type == IMAGE_HDU) {
      int naxis = 0;
      fits_get_img_dim(f.get(), &naxis, &status);
      if (naxis > 0) return f;
    } else {
      long rows = 0;
      fits_get_num_rows(f.get(), &rows, &status);
      if (rows > 0) return f;
    }
  }
  throw UserError("'" + path + "' holds no image and no table rows in its " + std::to_string(hdus) + " HDUs");
}

Column named(const std::string& name, const std::string& type) {
  Column c;
  c.name = name;
  c.type = type;
  const std::string block = gadget_block_label(name);
  if (block != name) c.label = block;
  return c;
}

ColumnSnapshot image(fitsfile* f, const std::string& path, const FitsLayout& layout, bool values,
                     const ProgressCallback& progress) {
  int status = 0, bitpix = 0, naxis = 0;
  long dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  if (fits_get_img_param(f, 9, &bitpix, &naxis, dims, &status)) fail(path, "the image's size cannot be read", status);
  for (int a = 3; a < naxis; ++a)
    if (dims[a] != 1)
      throw UserError("'" + path + "' is an image of " + std::to_string(naxis) + " axes, axis " +
                      std::to_string(a + 1) + " of length " + std::to_string(dims[a]) +
                      ": a point per voxel is read of 3 axes (the others of length 1)");
  const long long nx = dims[0], ny = naxis > 1 ? dims[1] : 1, nz = naxis > 2 ? dims[2] : 1;
  long long begin = layout.cube_begin < 0 ? 0 : layout.cube_begin, end = layout.cube_end < 0 ? nz : layout.cube_end;
  if (begin >= end || end > nz)
    throw UserError("cube_begin = " + std::to_string(begin) + ", cube_end = " + std::to_string(end) + ": '" + path +
                    "' has slices 0 to " + std::to_string(nz) + " (cube_end is one past the last)");
  ColumnSnapshot s;
  s.path = path;
  s.description =
      "FITS image (" + std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) + ", BITPIX " +
      std::to_string(bitpix) +
      (begin > 0 || end < nz ? ", slices " + std::to_string(begin) + " to " + std::to_string(end - 1) : std::string()) +
      ")";
  s.units.code = "FITS";
  s.dimensions = nz > 1 ? 3 : 2;
  ColumnType t;
  t.file_type = 0;
  t.name = "voxels";
  t.count = std::size_t(nx * ny * (end - begin));
  const char* axes[] = {"position_x", "position_y", "position_z"};
  for (int d = 0; d < 3; ++d) {
    Column c = named(axes[d], "index");
    c.label = "POS";
    c.component = d;
    t.columns.push_back(std::move(c));
  }
  Column h = named("smoothing_length", "voxel");
  h.label = "HSML";
  t.columns.push_back(std::move(h));
  t.columns.push_back(named("value", "float32"));
  for (const Column& c : t.columns) t.all_fields.push_back(c.name);
  char unit[FLEN_VALUE] = "";
  int unit_status = 0;
  if (fits_read_key(f, TSTRING, "BUNIT", unit, nullptr, &unit_status) == 0) s.header.emplace_back("BUNIT", unit);
  if (values) {
    for (Column& c : t.columns) c.values.resize(t.count);
    std::vector<float> slice(std::size_t(nx * ny));
    std::size_t k = 0, nan = 0;
    for (long long z = begin; z < end; ++z) {
      long first[9] = {1, 1, long(z + 1), 1, 1, 1, 1, 1, 1};  // (one per axis: a radio cube has a fourth)
      int any = 0;
      if (fits_read_pix(f, TFLOAT, first, long(nx * ny), nullptr, slice.data(), &any, &status))
        fail(path, "slice " + std::to_string(z) + " cannot be read", status);
      for (long long j = 0; j < nx * ny; ++j, ++k) {
        t.columns[0].values[k] = float(j % nx);
        t.columns[1].values[k] = float(j / nx);
        t.columns[2].values[k] = float(z);
        t.columns[3].values[k] = 1.0f;
        float v = slice[std::size_t(j)];
        if (std::isnan(v)) v = 0, ++nan;
        t.columns[4].values[k] = v;
      }
      if (progress) progress(double(z - begin + 1) / double(end - begin));
    }
    if (nan) s.notes.push_back(std::to_string(nan) + " voxels hold NaN (blank): taken as 0, as the original does");
  }
  s.types.push_back(std::move(t));
  return s;
}

ColumnSnapshot table(fitsfile* f, const std::string& path, const FitsLayout& layout, const ColumnWanted& wanted,
                     bool values) {
  int status = 0, columns = 0;
  long rows = 0;
  fits_get_num_rows(f, &rows, &status);
  fits_get_num_cols(f, &columns, &status);
  if (status) fail(path, "the table's size cannot be read", status);
  ColumnSnapshot s;
  s.path = path;
  s.description = "FITS table (" + std::to_string(rows) + " rows, " + std::to_string(columns) + " columns)";
  s.units.code = "FITS";
  ColumnType t;
  t.file_type = 0;
  t.name = "rows";
  t.count = std::size_t(rows);
  struct Source {
    int number;
    long repeat, element;
  };
  std::vector<Source> sources;
  for (int c = 1; c <= columns; ++c) {
    char key[FLEN_KEYWORD], name[FLEN_VALUE] = "";
    int key_status = 0;
    std::snprintf(key, sizeof key, "TTYPE%d", c);
    fits_read_key(f, TSTRING, key, name, nullptr, &key_status);
    int type = 0;
    long repeat = 0, width = 0;
    fits_get_coltype(f, c, &type, &repeat, &width, &status);
    if (type == TSTRING || type == TLOGICAL || type == TBIT || repeat < 1 || repeat > 16) continue;
    std::string n = *name ? name : "col" + std::to_string(c);
    for (long e = 0; e < repeat; ++e) {
      Column col = named(repeat == 1 ? n : n + "_" + std::to_string(e + 1), type == TFLOAT    ? "float32"
                                                                            : type == TDOUBLE ? "float64"
                                                                                              : "integer");
      t.all_fields.push_back(col.name);
      t.columns.push_back(std::move(col));
      sources.push_back({c, repeat, e});
    }
  }
  // The positions: by key, else the columns named x, y, z.
  const std::string spec[3] = {layout.x.empty() ? "x" : layout.x, layout.y.empty() ? "y" : layout.y,
                               layout.z.empty() ? "z" : layout.z};
  const char* keys[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    std::size_t found = t.columns.size();
    char* end = nullptr;
    const long k = std::strtol(spec[d].c_str(), &end, 10);
    if (end != spec[d].c_str() && *end == '\0') {
      if (k >= 1 && std::size_t(k) <= t.columns.size()) found = std::size_t(k - 1);
    } else {
      for (std::size_t c = 0; c < t.columns.size(); ++c)
        if (lower_case(t.columns[c].name) == lower_case(spec[d])) found = c;
    }
    if (found == t.columns.size())
      throw UserError(std::string(keys[d]) + " = " + spec[d] + ": '" + path + "' has no such numeric column (it has: " +
                      t.field_list() + "); name the positions' columns with x, y, z");
    t.columns[found].label = "POS";
    t.columns[found].component = d;
  }
  if (values)
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      Column& col = t.columns[c];
      if (!(col.label == "POS" || wanted.wants(col.name, col.label, col.component))) continue;
      std::vector<double> v(std::size_t(rows) * std::size_t(sources[c].repeat));
      int any = 0;
      if (fits_read_col(f, TDOUBLE, sources[c].number, 1, 1, rows * sources[c].repeat, nullptr, v.data(), &any,
                        &status))
        fail(path, "the column " + col.name + " cannot be read", status);
      col.values.resize(std::size_t(rows));
      for (long r = 0; r < rows; ++r)
        col.values[std::size_t(r)] = float(v[std::size_t(r * sources[c].repeat + sources[c].element)]);
    }
  if (values) t.drop_unread();
  s.types.push_back(std::move(t));
  return s;
}

ColumnSnapshot read(const std::string& path, const FitsLayout& layout, const ColumnWanted& wanted, bool values,
                    const ProgressCallback& progress) {
  int hdu_type = 0;
  Fits f = open_at_data(path, hdu_type);
  return hdu_type == IMAGE_HDU ? image(f.get(), path, layout, values, progress)
                               : table(f.get(), path, layout, wanted, values);
}

}  // namespace

bool is_fits_file(const std::string& path) {
  char start[9] = {0};
  try {
    InputFile f(path);
    if (f.size() < 2880) return false;
    f.read_at(start, 9, 0);
  } catch (const UserError&) { return false; }
  return std::memcmp(start, "SIMPLE  =", 9) == 0;
}

ColumnSnapshot fits_outline(const std::string& path, const FitsLayout& layout) {
  return read(path, layout, ColumnWanted{}, false, {});
}

ColumnSnapshot load_fits(const std::string& path, const FitsLayout& layout, const ColumnWanted& wanted,
                         const ProgressCallback& progress) {
  return read(path, layout, wanted, true, progress);
}

}  // namespace splotch
