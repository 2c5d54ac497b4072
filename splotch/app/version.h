#pragma once

#define SPLOTCH_VERSION "0.1.0"
