#include "io/snapshot_survey.h"

#include <unistd.h>

#include <algorithm>
#include <memory>

#include "errors/user_error.h"
#include "io/column_formats.h"
#include "io/field_names.h"
#include "io/gadget_file.h"
#include "io/gadget_reader.h"
#include "io/hdf5_file.h"
#include "io/hdf5_reader.h"
#include "io/tipsy_file.h"

namespace splotch {

std::string gadget_type_name(int t) {
  switch (t) {
    case 0: return "gas";
    case 1: return "dark matter";
    case 4: return "stars";
    default: return "type " + std::to_string(t);
  }
}

namespace {

// Per type, the counts summed over the files ([file][type] in).
std::vector<std::uint64_t> totals(const std::vector<std::vector<std::uint64_t>>& counts) {
  std::vector<std::uint64_t> sum;
  for (const auto& file : counts) {
    sum.resize(std::max(sum.size(), file.size()), 0);
    for (std::size_t t = 0; t < file.size(); ++t) sum[t] += file[t];
  }
  return sum;
}

// Whether Gadget block `label` holds values of type t (one value per particle).
bool gadget_block_holds(const GadgetFile& f, const std::string& label, int t) {
  const GadgetBlock* block = f.find(label);
  if (!block) return false;
  try {
    return (f.layout(*block, 1, std::nullopt, label).types & (1u << t)) != 0;
  } catch (const UserError&) { return false; }
}

// Per type, the totals the first file's header gives for the whole snapshot, where it gives them
// (writers that leave them 0, or one file alone, have its own counts): so that a snapshot of many
// files is surveyed from one header, not all of them, as every settings reading does it (each MPI
// process, each frame of a scene, each picture of the server). The high words only where sensible:
// some writers leave garbage there.
std::vector<std::uint64_t> header_totals(const GadgetHeader& h, std::size_t files) {
  std::vector<std::uint64_t> total(gadget_types, 0);
  std::uint64_t all = 0;
  for (int t = 0; t < gadget_types; ++t) {
    const std::uint64_t high = h.npart_total_high[std::size_t(t)];
    total[std::size_t(t)] =
        files == 1 ? h.npart[std::size_t(t)] : h.npart_total[std::size_t(t)] + (high < 1024 ? high << 32 : 0);
    all += total[std::size_t(t)];
  }
  return all > 0 ? total : std::vector<std::uint64_t>();
}

SnapshotSurvey survey_gadget(const std::vector<std::string>& files, std::optional<bool> swap_endian) {
  TypedSnapshotRequest request;
  request.files = files;
  request.swap_endian = swap_endian;
  std::vector<std::uint64_t> total = header_totals(GadgetFile(files[0], swap_endian).header(), files.size());
  std::vector<std::vector<std::uint64_t>> counts;  // [file][type], read only where the header has no totals
  if (total.empty()) total = totals(counts = gadget_file_counts(request));
  SnapshotSurvey s;
  s.format = SnapshotFormat::gadget;
  std::unique_ptr<GadgetFile> first;
  for (int t = 0; t < gadget_types; ++t) {
    TypeSurvey ts;
    ts.file_type = t;
    ts.name = gadget_type_name(t);
    ts.count = std::size_t(t) < total.size() ? total[std::size_t(t)] : 0;
    // The fields of the first file with particles of the type.
    for (std::size_t k = 0; k < files.size() && ts.count > 0; ++k) {
      const GadgetFile f(files[k], swap_endian);
      if (f.header().npart[std::size_t(t)] == 0) continue;
      if (gadget_block_holds(f, "HSML", t)) ts.smoothing = "HSML";
      if (gadget_block_holds(f, "RHO", t)) ts.density = "RHO";
      ts.has_mass = f.header().mass[std::size_t(t)] != 0 || gadget_block_holds(f, "MASS", t);
      break;
    }
    s.types.push_back(ts);
  }
  const GadgetFile f(files[0], swap_endian);
  s.time = f.header().time;
  s.box_size = f.header().box_size;
  s.cosmological = f.header().redshift != 0 || (s.time > 0 && s.time <= 1 && s.box_size > 0);
  return s;
}

SnapshotSurvey survey_hdf5(const std::vector<std::string>& files) {
  TypedSnapshotRequest request;
  request.files = files;
  std::vector<std::uint64_t> total;  // NumPart_Total of the first file, where it gives one
  {
    const Hdf5File first(files[0]);
    const Hdf5Header& h = first.header();
    total = files.size() == 1 ? h.npart : h.npart_total;
    std::uint64_t all = 0;
    for (std::uint64_t n : total) all += n;
    if (all == 0) total.clear();
  }
  if (total.empty()) total = totals(hdf5_file_counts(request));
  SnapshotSurvey s;
  s.format = SnapshotFormat::hdf5;
  for (std::size_t t = 0; t < total.size(); ++t) {
    TypeSurvey ts;
    ts.file_type = int(t);
    ts.name = gadget_type_name(int(t));
    ts.count = total[t];
    for (std::size_t k = 0; k < files.size() && ts.count > 0; ++k) {
      const Hdf5File f(files[k]);
      if (f.header().count(int(t)) == 0) continue;
      if (const auto h = f.find(int(t), "HSML")) ts.smoothing = h->name;
      if (const auto rho = f.find(int(t), "RHO")) ts.density = rho->name;
      ts.has_mass = f.header().mass_of(int(t)) != 0 || f.find(int(t), "MASS").has_value();
      break;
    }
    s.types.push_back(ts);
  }
  const Hdf5File f(files[0]);
  s.time = f.header().time;
  s.box_size = f.header().box_size;
  s.cosmological =
      (f.header().has_redshift && f.header().redshift != 0) || (f.header().has_redshift && s.time > 0 && s.time <= 1);
  return s;
}

SnapshotSurvey survey_tipsy(const std::string& path, std::optional<bool> swap_endian) {
  const TipsyFile f(path, swap_endian);
  SnapshotSurvey s;
  s.format = SnapshotFormat::tipsy;
  static const char* const names[] = {"gas", "dark matter", "stars"};
  for (int t = 0; t < tipsy_types; ++t) {
    TypeSurvey ts;
    ts.file_type = t;
    ts.name = names[t];
    ts.count = f.count(t);
    // ChaNGa and Gasoline write the SPH smoothing lengths (when they do) into an auxiliary array;
    // the gas records' hsmooth holds the gravitational softening in their outputs, and the SPH
    // smoothing length in others': the load tells them apart by whether it varies.
    if (::access((path + ".smoothlength").c_str(), R_OK) == 0)
      ts.smoothing = "smoothlength";
    else if (f.field(t, "hsmooth"))
      ts.smoothing = "hsmooth";
    if (f.field(t, "rho")) ts.density = "rho";
    ts.has_mass = f.field(t, "mass") != nullptr;
    s.types.push_back(ts);
  }
  s.time = f.time();
  s.cosmological = false;  // a Tipsy header does not say; the time is a scale factor in cosmological runs
  return s;
}

}  // namespace

SnapshotSurvey survey_columns(SnapshotFormat format, const ColumnSnapshot& c) {
  SnapshotSurvey s;
  s.format = format;
  for (const ColumnType& t : c.types) {
    TypeSurvey ts;
    ts.file_type = t.file_type;
    ts.name = t.name;
    ts.count = t.count;
    if (const std::vector<const Column*> h = t.find("HSML", 1); !h.empty()) ts.smoothing = h[0]->name;
    ts.cell_sizes = !t.find("cell_size", 1).empty() || t.name == "voxels" || t.name == "cells";
    if (ts.cell_sizes && !t.find("column_density", 1).empty()) ts.brightness = "column_density";
    if (ts.cell_sizes && !t.find("mass_over_h", 1).empty()) ts.brightness = "mass_over_h";
    if (format == SnapshotFormat::fits && t.name == "voxels") {  // (a cube's emission, its voxels alike)
      ts.brightness = "value";
      ts.cell_sizes = true;
    }
    if (format == SnapshotFormat::visivo && t.name == "cells")  // (a volume: its first field, as a cube's value)
      for (const Column& field : t.columns)
        if (field.label != "POS" && field.name != "smoothing_length" && field.name != "cell_size") {
          ts.brightness = field.name;
          break;
        }
    if (const std::vector<const Column*> d = t.find("RHO", 1); !d.empty()) ts.density = d[0]->name;
    ts.has_mass = !t.find("MASS", 1).empty();
    s.types.push_back(ts);
  }
  s.time = c.time;
  s.cosmological = c.redshift >= 0;
  s.box_size = c.box_size;
  s.dimensions = c.dimensions;
  return s;
}

const TypeSurvey* SnapshotSurvey::type(int file_type) const {
  for (const TypeSurvey& t : types)
    if (t.file_type == file_type) return &t;
  return nullptr;
}

const TypeSurvey* SnapshotSurvey::main_type() const {
  const TypeSurvey* gas = type(0);
  if (gas && gas->count > 0 && gas->name.rfind("gas", 0) == 0) return gas;
  for (const TypeSurvey& t : types)  // (Phantom's gas is its type 1)
    if (t.count > 0 && t.name == "gas") return &t;
  const TypeSurvey* most = nullptr;
  for (const TypeSurvey& t : types)
    if (t.count > 0 && (!most || t.count > most->count)) most = &t;
  return most;
}

SnapshotSurvey survey_snapshot(SnapshotFormat format, const std::vector<std::string>& files,
                               std::optional<bool> swap_endian) {
  if (files.empty()) throw std::invalid_argument("survey_snapshot: no files");
  switch (format) {
    case SnapshotFormat::gadget: return survey_gadget(files, swap_endian);
    case SnapshotFormat::hdf5: return survey_hdf5(files);
    case SnapshotFormat::tipsy: return survey_tipsy(files[0], swap_endian);
    default:
      if (const std::optional<ColumnSnapshot> outline = column_outline(format, files[0]))
        return survey_columns(format, *outline);
      throw std::invalid_argument("survey_snapshot: not a snapshot of particle types");
  }
}

}  // namespace splotch
