// A quantitative map's data file (docs/maps.md, "Outputs"): FITS (a float32 image with BUNIT, the
// linear coordinates of its axes, the time, redshift and snapshot, and the parameters as HISTORY
// cards), HDF5 (a dataset "map" with the same as attributes) or NumPy .npy (the values alone,
// float32, rows from the bottom). Written under a temporary name and renamed, as the pictures are.
#pragma once

#include <string>
#include <vector>

namespace splotch {

enum class MapFileFormat { fits, hdf5, npy };

// The format a file name asks for (.fits .fit .fts, .h5 .hdf5, .npy); false for none of them.
bool map_file_format(const std::string& path, MapFileFormat& format);

struct MapFile {
  int xres = 0, yres = 0;
  std::vector<float> values;  // row 0 at the bottom (y increasing upwards), xres values a row
  std::string quantity;       // what the map is of
  std::string unit;           // the values' unit in words: "Msun kpc^-2", "code units of MASS per code length^2"
  std::string fits_unit;      // the same in the FITS standard's syntax, BUNIT ("solMass kpc-2"); empty: none
  std::string length_unit;    // of the axes: "kpc", "code length"
  bool physical = false;      // physical units (lengths in kpc); else the file's code units
  // The file's lengths comoving or not, and in units/h (hubble: h; 0 not): taken out of a physical
  // map, kept in a code map; scale_factor: the snapshot's a (1: none), comoving lengths' or not.
  bool comoving = false;
  double scale_factor = 1, hubble = 0;
  double pixel = 1;       // a pixel's side in length_unit
  double pixel_code = 1;  // ... in the snapshot's code lengths (its coordinates'), for the world point of a pixel
  // The world point of the map's centre (lookat) and the axes, for the record (code units).
  double centre[3] = {0, 0, 0}, x_axis[3] = {1, 0, 0}, y_axis[3] = {0, 1, 0};
  double time = 0, redshift = -1;  // redshift < 0: none
  std::string snapshot;
  std::string kernel;                // the kernel and its support convention, in words
  std::vector<std::string> history;  // the parameters, one "key = value" each
};

// Throws UserError naming the path and the reason where it cannot be written (or, for .h5, where
// this build has no HDF5).
void write_map_file(const std::string& path, MapFileFormat format, const MapFile& map);

}  // namespace splotch
