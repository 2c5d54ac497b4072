// The pictures of the server (bin/splotch --serve): each browser's view drawn from the served .par
// with the browser's rendering keys on top (splotch/serve/browser_keys.h), by the same frame
// pipeline as bin/splotch, from the snapshot held in memory (splotch/serve/held_snapshot.h). A
// full picture is the PNG bin/splotch would write for those keys, and its record (used.par) is
// kept for the browser's Save; a reduced one (while the mouse moves) is a JPEG of half the size
// each way from a share of the particles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/column_snapshot.h"
#include "io/map_writer.h"
#include "io/palette.h"
#include "params/param_file.h"
#include "splotch/frame/map_figure.h"
#include "splotch/frame/render_session.h"
#include "splotch/frame/run_report.h"
#include "splotch/serve/browser_keys.h"
#include "splotch/serve/held_snapshot.h"
#include "splotch/serve/movie_plan.h"
#include "splotch/serve/served_fields.h"
#include "splotch/serve/served_series.h"
#include "splotch/serve/view_queue.h"
#include "splotch/util/console.h"

namespace splotch {

struct ViewServerOptions {
  std::string palette_directory;  // the palettes offered besides the .par's (testdata/palettes)
  double reduced_share = 0.25;    // of the particles, in a reduced picture
  double reduced_scale = 0.5;     // of each side, in a reduced picture
  int jpeg_quality = 85;          // of a reduced picture
  // Browsers whose last full picture's record and ranges are kept (for Save and /info); the
  // oldest browser's go first.
  std::size_t max_records = 256;
  // The pixels a browser's picture's splats may cover (splotch/serve/work_budget.h), or
  // first_view_factor times the .par's own picture's where that is more: a view of the .par, and
  // one zoomed in some way, stay within. The host renderer covers 3e9 to 7e9 pixels a second on
  // 2 cores: 5e10 is about 10 s there (serve() gives 2.5e10 per thread).
  double work_budget = 5e10;
  double first_view_factor = 4;
  // The bytes free on the disk holding `directory`, for a movie's frames; null: the file system's
  // own count (tests give one).
  std::function<double(const std::string& directory)> free_bytes;
  BrowserLimits limits;
  // The particles a caller holds in memory (io/memory_arrays.h), served instead of the .par's
  // snapshot (the Python module's explorer); the records say they must be written to a file.
  std::shared_ptr<const ColumnSnapshot> arrays;
};

class ViewServer {
 public:
  // `params`: the served .par with the command line's overrides, not yet read.
  ViewServer(ParamFile params, ViewServerOptions options);

  // A browser's job (ViewQueue runs it): the picture (200, image/png or image/jpeg, with the
  // frame's times in X-Splotch-* headers), or 400 with what is wrong with its keys or their values,
  // or with its work beyond the budget. Throws ViewCancelled, between the frame's steps, once the
  // job is no longer wanted.
  // A movie's frame (job.frame) is written instead, as a scene's frame of that number is (named
  // from job.outfile when given), and answered with the file's path.
  // The first job, of no keys, reads the snapshot; its errors are the user's errors of
  // bin/splotch, thrown (UserError) so that the server does not start.
  ViewResult draw(const ViewJob& job);

  // What the page needs, as JSON: the types (their data ranges), the palettes, the rendering keys
  // of the first picture (the .par's view, a camera placed from the data written out; booleans as
  // TRUE or FALSE, palettes by the names offered), limits.
  // The ranges are those of `client`'s last full picture.
  std::string info_json(const std::string& client = "") const;
  // The values of `client`'s last full picture where it was a map (the page reads the value under
  // the cursor from them); none otherwise.
  std::optional<MapFile> last_map(const std::string& client) const;
  // The record (used.par) of `client`'s last full picture; none before it has one.
  std::optional<std::string> used_par(const std::string& client) const;
  // A movie of `frames` with the view's `keys` (splotch/serve/movie_plan.h): a name of its own, and
  // its time and bytes from `client`'s last full picture (the first picture's before it has one).
  MoviePlan plan_movie(const std::string& client, int frames, const KeyValues& keys) const;

  const HeldSnapshot& held() const { return held_; }
  const std::vector<PaletteChoice>& palettes() const { return palettes_; }
  // The fields a browser may choose per type (color_labelN, intensity_labelN), and why there are
  // none where there are none.
  const TypeFields& fields() const { return fields_.names; }
  const std::string& fields_note() const { return fields_.note; }
  const TypeFields& field_units() const { return fields_.units; }  // beside fields(): "" where none is declared
  // The snapshots of the series served (fidx), fewer than two where there is none.
  const std::vector<int>& series() const { return series_.fidx; }
  const std::string& series_scene_note() const { return series_.scene_note; }
  // The step of the series where the server draws between its snapshots (ServedSeries::step), and
  // why not where it is 0.
  int series_step() const { return series_.step; }
  const std::string& series_step_note() const { return series_.step_note; }
  int ptypes() const { return ptypes_; }
  const BrowserLimits& limits() const { return options_.limits; }
  // A browser's keys checked against what this server offers (browser_keys with its palettes,
  // fields, series and first values).
  KeyValues checked_keys(const KeyValues& query) const {
    return browser_keys(query, ptypes_, palettes_, options_.limits, fields_.names, fields_.note, series_.fidx,
                        first_values_, series_.step);
  }
  double work_budget() const;

 private:
  // A drawn picture: the frame's report, the picture encoded (none for a movie's frame, written),
  // its record (used.par; none for a reduced picture) and its ranges.
  struct Drawn {
    RunReport report;
    std::vector<std::uint8_t> bytes;
    std::string record;
    NormalizedRanges ranges;
    std::optional<MapFile> map;  // a map view's values (the page's map mode)
    FigureScale map_scale;
    // The fields of the snapshot at `ranged_path` that coloured and weighed each type, as read
    // (times `factor`): their ranges for the page's lists (a full picture of one snapshot).
    struct FieldRead {
      int type;
      std::string label;
      bool colour;
      float factor;
    };
    std::vector<FieldRead> fields_read;
    std::string ranged_path;
  };
  // The served .par with the job's keys on top.
  ParamFile view_params(const ViewJob& job) const;
  Drawn draw_frame(const ViewJob& job, ParamFile& params, Console& console);
  // The ranges of the fields the picture coloured and weighed its types by, where not yet known
  // for the snapshot shown.
  void note_field_ranges(const Drawn& drawn);
  // (under mutex_)
  void remember_first_picture(const Drawn& drawn, double pixels, const PictureCost& cost);
  void remember_record(const std::string& client, const Drawn& drawn, const PictureCost& cost);

  ParamFile base_;  // never read: each picture reads a copy
  ViewServerOptions options_;
  std::vector<PaletteChoice> palettes_;
  ServedFields fields_;
  ServedSeries series_;
  std::map<std::string, std::string> first_values_;  // the first picture's browser keys (sent back unchanged)
  std::deque<std::string> map_order_;                // the clients whose last map is kept (a few: a map is large)
  std::map<std::string, Palette> map_palettes_;      // (the queue's thread only) the maps' palettes, by path
  int ptypes_ = 1;
  RenderSession session_;  // the GPU's start, and the held snapshot's copies on the GPU
  HeldSnapshot held_;
  bool started_ = false;
  double first_pixels_ = 0;  // the splat pixels of the .par's own picture

  mutable std::mutex mutex_;  // what the HTTP threads read: the records and the first view
  std::map<std::string, std::string> records_;
  std::deque<std::string> record_order_;  // the oldest record goes beyond max_records
  std::string first_record_;
  std::map<std::string, NormalizedRanges> ranges_;  // by client, of its last full picture
  std::map<std::string, PictureCost> costs_;        // by client, of its last full picture
  std::map<std::string, MapFile> maps_;             // by client, of its last full picture, a map
  // The fields' ranges as read, by render type and name, of the snapshot `ranged_path_`.
  std::map<std::pair<int, std::string>, std::pair<double, double>> field_ranges_;
  std::string ranged_path_;
  NormalizedRanges first_ranges_;  // the first picture's: never evicted
  PictureCost first_cost_;
  // What the page draws over the picture, known from the first picture on (JSON members): the
  // snapshot's length unit, time and redshift, each type's colour field, the palettes' colours.
  std::string first_facts_;
};

}  // namespace splotch
