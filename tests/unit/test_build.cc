// The build (issue 36, section 6): plain `make` builds every program the README names, `make
// demo` (the README's first command) builds them all too, and `make help` says what `make` builds.
// Make prints its database (-pn: nothing is built) in a shadow of the tree, its entries linked and
// a build/ of its own, so that the tree's build stamps (MPI, HDF5, CUDA_SYNC) stay as they are.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

using namespace splotch::testing;

namespace {

// The tree's entries linked into `dir`, but its build outputs.
void shadow_tree(const TempDir& dir) {
  const CommandResult linked = run_command(
      "for f in \"$PWD\"/* \"$PWD\"/.[!.]*; do case ${f##*/} in build|bin) ;; *) "
      "ln -s \"$f\" '" +
      dir.path() + "/'; esac; done");
  REQUIRE(linked.status == 0);
}

// The words after "`target`:" on its line of make's database, "" for no such line.
std::set<std::string> prerequisites(const std::string& database, const std::string& target) {
  std::istringstream lines(database);
  std::set<std::string> words;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(target + ":", 0) != 0) continue;
    std::istringstream in(line.substr(target.size() + 1));
    for (std::string w; in >> w;) words.insert(w);
  }
  return words;
}

std::set<std::string> programs_named_in(const std::string& text) {
  std::set<std::string> names;
  // (the project's bin/, not another directory's: ~/env/bin/activate)
  const std::regex program("(^|[^/A-Za-z0-9_.~-])(bin/[a-z_]+)");
  for (auto m = std::sregex_iterator(text.begin(), text.end(), program); m != std::sregex_iterator(); ++m)
    names.insert((*m)[2].str());
  return names;
}

}  // namespace

TEST_CASE("make: the default goal is all, which builds every program the README names, as make demo does") {
  TempDir dir;
  shadow_tree(dir);
  // With the CUDA objects and mpicxx as on the GPU node, whatever this machine has: the CUDA
  // objects' rule is what made the first of them the default goal.
  // Not a sub-make of `make test`'s: its flags (MPI=1 among them) and directory notes left out.
  const std::string make = "cd '" + dir.path() +
                           "' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory CUDA=1 NVCC=nvcc "
                           "MPICXX=mpicxx";
  const CommandResult database = run_command(make + " -pn");
  INFO(database.err);
  REQUIRE(database.status == 0);
  CHECK(database.out.find("\n.DEFAULT_GOAL := all\n") != std::string::npos);

  const std::set<std::string> all = prerequisites(database.out, "all");
  const std::set<std::string> named = programs_named_in(read_file("README.md"));
  CHECK(named.count("bin/splotch") == 1);  // the README was read
  for (const std::string& program : named) {
    INFO(program << " is named in README.md");
    CHECK(all.count(program) == 1);
  }
  CHECK(prerequisites(database.out, "demo").count("all") == 1);

  // `make help` says what plain make builds.
  const CommandResult help = run_command(make + " help");
  REQUIRE(help.status == 0);
  const std::string first = help.out.substr(0, help.out.find('\n'));
  for (const std::string& program : all) {
    INFO(first);
    CHECK(first.find(program) != std::string::npos);
  }
}
