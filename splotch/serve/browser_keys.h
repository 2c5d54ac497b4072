// What a browser may change of the served .par (bin/splotch --serve): the rendering keys only,
// each value of its kind, and never a key that reads or writes a file. A palette is chosen by name
// from the list the server offers (PaletteChoice), never given as a path.
//
//   rendering keys: camera_x/y/z, lookat_x/y/z, sky_x/y/z, fov, xres, yres, a_eq_e,
//   gray_absorption, exposure, minrad_pix, pic_gamma, pic_contrast, pic_brightness, colorbar, and
//   per type N below ptypes: brightnessN, smooth_factorN, color_minN, color_maxN, intensity_minN,
//   intensity_maxN, color_logN, color_asinhN, intensity_logN, paletteN, and the fields that colour
//   and weigh the type, color_labelN and intensity_labelN, chosen from those the server lists;
//   the map drawn instead of the picture: map (column, average, slice), map_width, map_depth,
//   map_log, map_min, map_max, and per type map_quantityN, map_weightN (a listed field or MASS);
//   fidx, a snapshot of the series served (`series`: splotch/serve/served_series.h).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace splotch {

// A request the server refuses (HTTP 400), with what is wrong and what to send instead.
class BadRequest : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PaletteChoice {
  std::string name;  // what the browser sends and shows: the file's name without .pal
  std::string path;
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;
// Per render type, the names of the fields a browser may choose for color_labelN and
// intensity_labelN (splotch/serve/served_fields.h); empty where none are listed.
using TypeFields = std::vector<std::vector<std::string>>;

// The limits of a browser's request.
struct BrowserLimits {
  int max_side = 4096;          // xres and yres
  std::size_t max_keys = 256;   // keys in one request
  std::size_t max_value = 100;  // characters of one value
  // minrad_pix and smooth_factorN: larger splats could hold the server for minutes.
  double max_splat_factor = 64;
};

// `query`'s keys checked (palettes turned into their paths), in order. Throws BadRequest naming
// the first key that is not a rendering key, of a type at or above `ptypes`, or with a value not
// of its kind (a finite number, an integer side within the limits, TRUE/FALSE, a listed palette, a
// field of `fields`, `fields_note` saying why there are none where the type has none, a snapshot of
// `series`, or between two of them where `series_step` is not 0 (ServedSeries::step); a field's
// or fidx's value of the first picture, `first`, is taken as it is),
// and a colour or intensity range given in part (a minimum without its maximum) or empty (the
// minimum not below the maximum). Other ranges that depend on other keys (fov below 180) are the
// settings' to check, as for a .par.
KeyValues browser_keys(const KeyValues& query, int ptypes, const std::vector<PaletteChoice>& palettes,
                       const BrowserLimits& limits = {}, const TypeFields& fields = {},
                       const std::string& fields_note = "", const std::vector<int>& series = {},
                       const std::map<std::string, std::string>& first = {}, int series_step = 0);

// A .par's value as the page shows and sends it: TRUE or FALSE for a boolean key (a .par may say
// y, .true., ...), else as it is.
std::string canonical_value(const std::string& key, const std::string& value);

// Every key a browser may set, for `ptypes` types, in the order above.
std::vector<std::string> browser_key_names(int ptypes);

// The palettes a browser may choose: `named` (the paths the .par gives) and the .pal files of
// `directory` (testdata/palettes beside the program; none when it is not there), each file once, by
// its name without .pal; a name that two files share is given the later one's directory too,
// "fire (mine)".
std::vector<PaletteChoice> palette_choices(const std::string& directory, const std::vector<std::string>& named);

}  // namespace splotch
