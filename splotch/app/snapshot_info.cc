#include "splotch/app/snapshot_info.h"

#include "errors/user_error.h"
#include "io/hdf5_table_reader.h"
#include "io/read_snapshot.h"
#include "io/snapshot_contents.h"
#include "splotch/app/input_kind.h"
#include "splotch/settings/settings.h"

namespace splotch {

ParamFile info_parameters(const std::string& file) {
  const InputKind k = input_kind(file);
  if (k.kind == InputKind::Kind::snapshot)
    return ParamFile::parse("simtype = " + std::to_string(simtype_number(*k.format)) + "\ninfile = " + file + "\n",
                            "--info " + file);
  return read_parameter_file(file);
}

bool print_auxiliary_info(const std::string& file, std::ostream& out) {
  const InputKind k = input_kind(file);
  if (k.kind != InputKind::Kind::tipsy_aux_array) return false;
  out << file << ": " << k.description << "\n"
      << "  draw it with simtype = 11, infile = " << k.snapshot
      << " and a label of its name (color_label0 = " << file.substr(k.snapshot.size() + 1)
      << ", say); bin/splotch --info " << k.snapshot << " shows the snapshot\n";
  return true;
}

void print_snapshot_info(ParamFile& params, Console& console, std::ostream& out) {
  for (const std::string& w : params.warnings()) console.warning(w);
  ReadProgress progress;
  progress.start = [&](const std::string& label) { return console.progress(label); };
  progress.end = [&] { console.end_progress(); };
  print_snapshot_contents(read_snapshot_request(params), progress, out);
}

void print_snapshot_ids(ParamFile& params, std::ostream& out) {
  const SnapshotRequest input = read_snapshot_request(params);
  const Hdf5TableOptions& t = input.table;
  if (input.format != SnapshotFormat::hdf5_table || !t.compound || t.snapshot_field.empty())
    throw UserError(params.origin("print_snapIDs_in_file_ONLY") +
                    ": print_snapIDs_in_file_ONLY lists the values of the compound dataset's `snapshot` member: it "
                    "needs simtype = 7, is_compound_data = TRUE, dataset_name and snapshot");
  const auto ids = hdf5_table_snapshot_ids(t);
  out << input.path << ": " << ids.size() << " snapshots in " << t.dataset << " (member " << t.snapshot_field
      << "); render one with snapshotID = <id>\n";
  for (const auto& [id, rows] : ids) out << "  snapshot " << id << ": " << rows << " rows\n";
}

}  // namespace splotch
