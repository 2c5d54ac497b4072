// The page bin/splotch --serve gives a browser: plain HTML, CSS and JavaScript in one document,
// nothing fetched from elsewhere. Drag to orbit about lookat, wheel to zoom, shift-drag to pan,
// keys to fly (W/S, A/D) and roll (Q/E); per type its brightness, colour range (the data's
// shown), palette and log/asinh; a_eq_e, gray_absorption, smooth_factor, exposure = auto; the
// image size; the last picture's time; Save .par and Save PNG; keyframes of a path, saved as a
// scene file or rendered here as a movie with a progress bar. Its files are splotch/serve/page/
// (page.html links page.css and page.js, so that it opens as it is in a browser for editing;
// page.js is formatted by `make format` like the C++); the Makefile puts the two into the HTML at
// build time.
#pragma once

#include <string>

namespace splotch {

const std::string& serve_page();

}  // namespace splotch
