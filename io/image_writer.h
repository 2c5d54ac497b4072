// Image writers: the original Splotch's TGA (pictype 0), run-length TGA (pictype 3) and binary PPM
// (pictype 2), byte for byte in the layouts the original wrote; PNG (pictype 4, io/png_encode.h:
// RGB, deflated on all threads); and JPEG (chosen by the name .jpg or .jpeg; baseline,
// `jpeg_quality` 1 to 100) for pictures to share.
//
// A failed write never leaves a partial picture: the bytes go to a temporary file next to the
// target (docs/design.md section 2), which is renamed over the target only once it is complete; where
// main() handles SIGINT and SIGTERM (io/interrupt_cleanup.h), they remove it too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/image.h"

namespace splotch {

enum class ImageFormat { tga, tga_rle, ppm, png, jpeg };

// Writes `image` (rows top first) to `path`, replacing any file there. Throws UserError naming
// the path and the reason ("cannot write image 'out/x.tga': No such file or directory") when the
// picture cannot be written; `path` is then left as it was and no temporary file remains.
void write_image(const std::string& path, const Image8& image, ImageFormat format, int jpeg_quality = 90);

// Why a picture of width x height pixels cannot be written in `format`, "" when it can: TGA holds
// at most 65535 pixels a side (16-bit fields), JPEG at most 2^30 bytes of pixels (its encoder,
// stb_image_write, counts them in an int); PNG and PPM take any size. Asked before a run reads
// anything, so that a picture too large fails at once rather than after its render.
std::string image_size_problem(ImageFormat format, int width, int height);

// The bytes write_image would write, in memory (the server's pictures).
std::vector<std::uint8_t> encode_image(const Image8& image, ImageFormat format, int jpeg_quality = 90);

}  // namespace splotch
