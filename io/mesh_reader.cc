#include "io/mesh_reader.h"

#include "errors/user_error.h"
#include "io/byte_order.h"
#include "io/input_file.h"

namespace splotch {
namespace {

ColumnSnapshot read(const std::string& path, const MeshLayout& m, const ColumnWanted* wanted,
                    const ProgressCallback& progress) {
  const InputFile f(path);
  if (m.nx < 1 || m.ny < 1 || m.nz < 1 || m.blocks < 1)
    throw UserError("a mesh needs x, y, z (its cells along each axis) and num_blocks, all from 1");
  const unsigned long long cells = (unsigned long long)m.nx * (unsigned long long)m.ny * (unsigned long long)m.nz;
  const unsigned long long bytes = cells * 4ULL * (unsigned long long)m.blocks;
  if (bytes != f.size())
    throw UserError("'" + path + "' holds " + std::to_string(f.size()) + " bytes, and a mesh of " +
                    std::to_string(m.nx) + " x " + std::to_string(m.ny) + " x " + std::to_string(m.nz) + " cells in " +
                    std::to_string(m.blocks) + " blocks of float32 is " + std::to_string(bytes) +
                    ": check x, y, z and num_blocks");
  ColumnSnapshot s;
  s.path = path;
  s.description = "mesh of " + std::to_string(m.nx) + " x " + std::to_string(m.ny) + " x " + std::to_string(m.nz) +
                  " cells, " + std::to_string(m.blocks) + " blocks of float32 (" + (m.fortran_order ? "Fortran" : "C") +
                  " order" + (m.swap_endian ? ", byte-swapped" : "") + ")";
  s.units.code = "mesh";
  ColumnType t;
  t.file_type = 0;
  t.name = "cells";
  t.count = std::size_t(cells);
  const char* axes[] = {"position_x", "position_y", "position_z"};
  for (int d = 0; d < 3; ++d) {
    Column c;
    c.name = axes[d];
    c.type = "index";
    c.label = "POS";
    c.component = d;
    t.columns.push_back(std::move(c));
  }
  Column h;  // one cell, the original's r (a key sets another)
  h.name = "smoothing_length";
  h.type = "cell";
  h.label = "HSML";
  t.columns.push_back(std::move(h));
  for (int b = 1; b <= m.blocks; ++b) {
    Column c;
    c.name = "block" + std::to_string(b);
    c.type = "float32";
    t.columns.push_back(std::move(c));
  }
  for (const Column& c : t.columns) t.all_fields.push_back(c.name);
  if (wanted) {
    // The cells' indices as the original numbers them: x fastest (with Fortran order, the first and
    // last axes' sizes swapped first).
    long long dimx = m.nx, dimy = m.ny;
    if (m.fortran_order) dimx = m.nz;
    for (int d = 0; d < 3; ++d) t.columns[std::size_t(d)].values.resize(t.count);
    t.columns[3].values.assign(t.count, 1.0f);
    for (unsigned long long i = 0; i < cells; ++i) {
      const unsigned long long plane = (unsigned long long)(dimx * dimy);
      t.columns[0].values[i] = float((i % plane) % (unsigned long long)dimx);
      t.columns[1].values[i] = float((i % plane) / (unsigned long long)dimx);
      t.columns[2].values[i] = float(i / plane);
    }
    for (int b = 0; b < m.blocks; ++b) {
      Column& c = t.columns[std::size_t(4 + b)];
      if (!wanted->wants(c.name, c.label, c.component)) continue;
      c.values.resize(t.count);
      f.read_at(c.values.data(), t.count * 4, std::size_t(b) * t.count * 4);
      if (m.swap_endian) swap_bytes_4(c.values.data(), t.count);
      if (progress) progress(double(b + 1) / double(m.blocks));
    }
    t.drop_unread();
  }
  s.types.push_back(std::move(t));
  return s;
}

}  // namespace

ColumnSnapshot mesh_outline(const std::string& path, const MeshLayout& layout) {
  return read(path, layout, nullptr, {});
}

ColumnSnapshot load_mesh(const std::string& path, const MeshLayout& layout, const ColumnWanted& wanted,
                         const ProgressCallback& progress) {
  return read(path, layout, &wanted, progress);
}

}  // namespace splotch
