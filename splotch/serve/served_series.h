// The snapshots a server steps through in time (issue 42, the page's time slider): the fidx
// numbers whose files exist for the served .par's infile, as Gadget and HDF5 file names are built
// from it (docs/parameters.md, infile and fidx). Where the .par gives fidx, the numbers are those
// it names; where it names one file ending in three digits (snapshot_004.hdf5, snap_010: a
// snapshot alone, say), its neighbours' numbers, and the served infile becomes their stem
// (snapshot_, snap_) with fidx its number, which names the same file.
#pragma once

#include <string>
#include <vector>

#include "params/param_file.h"

namespace splotch {

struct ServedSeries {
  std::vector<int> fidx;  // ascending; fewer than two: no series
  std::string stem;       // the infile the numbers complete where the .par named one file; "" otherwise
  int first = 0;          // the .par's own snapshot's number
  // Why a path through time cannot be saved as a scene of the record, "" where it can (snapdir:
  // the record names one snapshot's directory).
  std::string scene_note;
  // The step between its snapshots where a time between two can be drawn (interpolation_mode with
  // snapshot_spacing: evenly numbered, at multiples of the step, no snapdir); else 0, and
  // step_note says why not.
  int step = 0;
  std::string step_note;
};

// The step of `series` (ServedSeries::step), or 0 with why not in `why`.
int series_step(const std::vector<int>& series, std::string& why);

// Never throws: a .par whose files cannot be listed has no series.
ServedSeries served_series(const ParamFile& params);

}  // namespace splotch
