// Reads the pictures the writers produce (io/image_writer.h) and those of other tools: TGA types
// 2 and 10 (24-bit true colour, plain and run-length, either row order), binary PPM (P6, maxval
// 255), PNG and JPEG (any kind stb_image decodes, converted to 8-bit RGB). Used for stored reference
// images in the tests and for pictures given as inputs.
#pragma once

#include <string>

#include "io/image.h"

namespace splotch {

// The format is recognised from the file's first bytes (PNG signature, "P6"), then from the
// extension and the TGA header. Throws UserError naming the file and the problem ("cannot read
// image 'ref.tga': truncated ...", "unsupported TGA image type 1 ...").
Image8 read_image(const std::string& path);

}  // namespace splotch
