// A movie the server renders (splotch/serve/movie_run.h), planned before it starts: the name of
// its frames, never one an earlier movie's frames have (two sequences under one name would mix:
// the longer one's last frames after the shorter one's), and what it will take, estimated from the
// browser's last picture, for the page to show and ask before it starts.
#pragma once

#include <string>

namespace splotch {

// What a picture took: its drawing and encoding, its file's bytes, its size.
struct PictureCost {
  double seconds = 0, bytes = 0;
  int width = 0, height = 0;
};

struct MoviePlan {
  int frames = 0, width = 0, height = 0;
  double seconds = 0, bytes = 0;  // estimated, all frames
  double free_bytes = 0;          // on the disk the frames go to
  std::string outfile;            // the name the frames are numbered from (as a scene's outfile)
  std::string first_file, last_file;
  bool fits() const { return bytes <= free_bytes; }
};

// The .par's `outfile` where no frame of that name is in its directory, else name_2_, name_3_, ...
// (before the extension: name_2_0000.png) the first such. `pictype` as the .par gives it (for an
// outfile without an image extension).
std::string unused_movie_name(const std::string& outfile, int pictype, bool pictype_given);

// The movie's frames of width x height under `outfile`, each costing what `last` did in
// proportion to its pixels.
MoviePlan plan_movie(int frames, int width, int height, const PictureCost& last, const std::string& outfile,
                     int pictype, bool pictype_given, double free_bytes);

// As the page reads it: {"frames":..,"width":..,"height":..,"seconds":..,"bytes":..,"free_bytes":..,
// "fits":..,"first_file":..,"last_file":..}.
std::string movie_plan_json(const MoviePlan& plan);

}  // namespace splotch
