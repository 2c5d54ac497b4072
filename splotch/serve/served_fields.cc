#include "splotch/serve/served_fields.h"

#include <exception>

#include "io/snapshot_fields.h"
#include "splotch/serve/field_ranges.h"
#include "splotch/settings/settings.h"

namespace splotch {
ServedFields served_fields(const ParamFile& record, int ptypes, const std::shared_ptr<const ColumnSnapshot>& arrays) {
  ServedFields out;
  out.names.resize(std::size_t(ptypes));
  out.units.resize(std::size_t(ptypes));
  std::vector<int> file_types;
  for (int t = 0; t < ptypes; ++t) {
    const std::string v = record.peek("ptype" + std::to_string(t));
    file_types.push_back(v.empty() ? 0 : std::stoi(v));
  }
  if (arrays) {
    for (int t = 0; t < ptypes; ++t)
      if (const ColumnType* type = arrays->type(file_types[std::size_t(t)]))
        for (const Column& c : type->columns) {
          out.names[std::size_t(t)].push_back(c.name);
          out.units[std::size_t(t)].push_back("");  // (a caller's arrays say nothing of units)
        }
    return out;
  }
  try {
    ParamFile p = record;
    const SnapshotRequest request = read_snapshot_request(p);
    if (request.format != SnapshotFormat::gadget && request.format != SnapshotFormat::hdf5 &&
        request.format != SnapshotFormat::tipsy) {
      out.note = std::string("the fields of ") + format_description(request.format) +
                 " are not listed in the page: give color_labelN or intensity_labelN in the .par";
      return out;
    }
    const SnapshotFields fields(request);
    for (int t = 0; t < ptypes; ++t)
      for (const TypeEntry& e : fields.outline().types)
        if (e.file_type == file_types[std::size_t(t)])
          for (const FieldEntry& f : e.fields)
            if (f.components == 1 && !f.integer) {
              out.names[std::size_t(t)].push_back(f.name);
              out.units[std::size_t(t)].push_back(field_unit(f.name, fields.outline().units).name);
            }
  } catch (const std::exception& e) {
    out.note = std::string("the snapshot's fields could not be listed (") + e.what() +
               "): give color_labelN or intensity_labelN in the .par";
  }
  return out;
}

}  // namespace splotch
