// The doctest runner: every tests/test_*.cc links into bin/splotch_tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
