// ParamFile and the shared value parsers: the Splotch parameter-file syntax (docs/design.md section 3),
// typed look-ups and their error messages, command-line overrides, and the bookkeeping behind
// the unused-key warning and <image>.used.par.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors/user_error.h"
#include "params/param_file.h"

using splotch::ParamFile;
using splotch::UserError;

namespace {

ParamFile parse(const std::string& text) { return ParamFile::parse(text, "t.par"); }

// The lines of `text`, without their '\n'.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The lines write_used() gives after its comment header.
std::vector<std::string> used_lines(const ParamFile& p) {
  std::ostringstream out;
  p.write_used(out);
  std::vector<std::string> lines = lines_of(out.str());
  lines.erase(
      std::remove_if(lines.begin(), lines.end(), [](const std::string& l) { return !l.empty() && l[0] == '#'; }),
      lines.end());
  return lines;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("ParamFile::parse syntax") {
  SUBCASE("comments anywhere and blank lines") {
    ParamFile p = parse(
        "# a header comment\n"
        "xres = 640   # the width\n"
        "\n"
        "   \t  \n"
        "fov=30#narrow\n"
        "# xres = 1\n"
        "   # indented comment\n"
        "infile = data.bin# no space before the comment\n");
    CHECK(p.get<int>("xres") == 640);
    CHECK(p.get<double>("fov") == 30.0);
    CHECK(p.get<std::string>("infile") == "data.bin");
    CHECK(p.origin("xres") == "t.par:2");
    CHECK(p.origin("fov") == "t.par:5");
    CHECK(p.origin("infile") == "t.par:8");
    CHECK(p.warnings().empty());
    CHECK(p.unused_keys().empty());
  }
  SUBCASE("spaces and tabs around '=' are ignored, inner spaces kept") {
    ParamFile p = parse("  infile   =   my data.bin  \n\tfov\t=\t12.5\t\n");
    CHECK(p.get<std::string>("infile") == "my data.bin");
    CHECK(p.get<double>("fov") == 12.5);
  }
  SUBCASE("a value may contain '='") {
    ParamFile p = parse("outfile = a=b.tga\nlabel==x\n");
    CHECK(p.get<std::string>("outfile") == "a=b.tga");
    CHECK(p.get<std::string>("label") == "=x");
  }
  SUBCASE("CRLF line endings") {
    ParamFile p = parse("xres=640\r\ninfile = x.bin\r\nflag=TRUE\r\n\r\nfov = 2.5 # c\r\n");
    CHECK(p.get<int>("xres") == 640);
    CHECK(p.get<std::string>("infile") == "x.bin");
    CHECK(p.get<bool>("flag") == true);
    CHECK(p.get<double>("fov") == 2.5);
    CHECK(p.origin("fov") == "t.par:5");
    CHECK(p.warnings().empty());
  }
  SUBCASE("keys are case-sensitive") {
    ParamFile p = parse("XRES=100\nXres=200\n");
    CHECK(p.get<int>("xres", 800) == 800);
    CHECK(p.get<int>("XRES") == 100);
    CHECK(p.get<int>("Xres") == 200);
    CHECK_FALSE(p.has("xres"));
    CHECK(p.warnings().empty());
  }
  SUBCASE("an empty value is an empty string") {
    ParamFile p = parse("label =\nname = # only a comment\n");
    CHECK(p.has("label"));
    CHECK(p.get<std::string>("label") == "");
    CHECK(p.get<std::string>("name") == "");
  }
  SUBCASE("a text without a final newline") {
    ParamFile p = parse("a=1\nb=2");
    CHECK(p.get<int>("b") == 2);
  }
}

TEST_CASE("ParamFile::parse warnings and malformed lines") {
  SUBCASE("a line without '=' is ignored with a warning naming the line") {
    ParamFile p = parse("fov=30\nxres 640\n");
    REQUIRE(p.warnings().size() == 1);
    CHECK(p.warnings()[0].find("t.par:2") != std::string::npos);
    CHECK(p.warnings()[0].find("xres 640") != std::string::npos);
    CHECK_FALSE(p.has("xres"));
    CHECK_FALSE(p.has("xres 640"));
    CHECK(p.get<double>("fov") == 30.0);
  }
  SUBCASE("a duplicate key: the last value wins, with a warning naming both lines") {
    ParamFile p = parse("xres=100\nfov=3\nxres=200\n");
    CHECK(p.get<int>("xres") == 200);
    CHECK(p.origin("xres") == "t.par:3");
    REQUIRE(p.warnings().size() == 1);
    const std::string& w = p.warnings()[0];
    CHECK(w.find("t.par:3") != std::string::npos);
    CHECK(w.find("xres") != std::string::npos);
    CHECK(w.find("t.par:1") != std::string::npos);
    CHECK(w.find("200") != std::string::npos);
  }
  SUBCASE("warnings come in file order") {
    ParamFile p = parse("junk1\na=1\na=2\njunk2\n");
    REQUIRE(p.warnings().size() == 3);
    CHECK(p.warnings()[0].find("t.par:1") != std::string::npos);
    CHECK(p.warnings()[1].find("t.par:3") != std::string::npos);
    CHECK(p.warnings()[2].find("t.par:4") != std::string::npos);
  }
  SUBCASE("'=' without a key is an error naming the line") {
    CHECK_THROWS_WITH_AS(parse("a=1\n = 5\n"), doctest::Contains("t.par:2"), UserError);
  }
}

TEST_CASE("ParamFile::read") {
  std::string dir = (std::filesystem::temp_directory_path() / "splotch_param_XXXXXX").string();
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  const std::string path = dir + "/demo.par";

  SUBCASE("reads the file and names it in origins") {
    std::ofstream(path, std::ios::binary) << "xres = 320\r\n# c\nfov = 10\n";
    ParamFile p = ParamFile::read(path);
    CHECK(p.name() == path);
    CHECK(p.get<int>("xres") == 320);
    CHECK(p.origin("fov") == path + ":3");
  }
  SUBCASE("a missing file names the path") {
    CHECK_THROWS_WITH_AS(ParamFile::read(path), doctest::Contains(("'" + path + "'").c_str()), UserError);
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

TEST_CASE("parse_bool") {
  SUBCASE("true spellings, any case") {
    for (const std::string t :
         {"TRUE", "true", "True", "tRuE", "T", "t", "yes", "YES", "Yes", "1", ".true.", ".TRUE.", " true ", "y", "Y"}) {
      CAPTURE(t);
      CHECK(splotch::parse_bool(t, "k") == true);
    }
  }
  SUBCASE("false spellings, any case") {
    for (const std::string f :
         {"FALSE", "false", "False", "F", "f", "no", "NO", "No", "0", ".false.", ".FALSE.", "\tfalse", "n", "N"}) {
      CAPTURE(f);
      CHECK(splotch::parse_bool(f, "k") == false);
    }
  }
  SUBCASE("anything else is an error naming what and the text") {
    for (const std::string bad : {"maybe", "2", "", "tru", "yess", "true.", "-1", "on"}) {
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(splotch::parse_bool(bad, "t.par:4: flag"),
                           doctest::Contains(("t.par:4: flag = '" + bad + "'").c_str()), UserError);
    }
  }
}

TEST_CASE("parse_integer") {
  SUBCASE("valid integers") {
    CHECK(splotch::parse_integer("42", "k") == 42);
    CHECK(splotch::parse_integer("-7", "k") == -7);
    CHECK(splotch::parse_integer("+5", "k") == 5);
    CHECK(splotch::parse_integer(" 12 ", "k") == 12);
    CHECK(splotch::parse_integer("0", "k") == 0);
    CHECK(splotch::parse_integer("9223372036854775807", "k") == std::numeric_limits<long long>::max());
    CHECK(splotch::parse_integer("-9223372036854775808", "k") == std::numeric_limits<long long>::min());
  }
  SUBCASE("not integers") {
    for (const std::string bad : {"1.5", "abc", "", "12abc", "1e3", "0x10", "+", "-", "1 2", "+-5", "--5"}) {
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(splotch::parse_integer(bad, "t.par:2: xres"),
                           doctest::Contains(("t.par:2: xres = '" + bad + "' is not an integer").c_str()), UserError);
    }
  }
  SUBCASE("out of range") {
    CHECK_THROWS_WITH_AS(splotch::parse_integer("99999999999999999999", "t.par:2: n"),
                         doctest::Contains("t.par:2: n = '99999999999999999999' is out of range"), UserError);
    CHECK_THROWS_WITH_AS(splotch::parse_integer("-9223372036854775809", "t.par:2: n"),
                         doctest::Contains("out of range"), UserError);
  }
}

TEST_CASE("parse_real") {
  SUBCASE("valid numbers") {
    CHECK(splotch::parse_real("1e23", "k") == 1e23);
    CHECK(splotch::parse_real("0.1", "k") == 0.1);
    CHECK(splotch::parse_real("-2.5", "k") == -2.5);
    CHECK(splotch::parse_real(" 3 ", "k") == 3.0);
    CHECK(splotch::parse_real("+4.", "k") == 4.0);
    CHECK(splotch::parse_real(".5", "k") == 0.5);
    CHECK(splotch::parse_real("1E-3", "k") == 1e-3);
  }
  SUBCASE("bad text") {
    for (const std::string bad : {"abc", "1.5x", "1,5", "1e", "nan", "NaN", "--1", "1 2"}) {
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(splotch::parse_real(bad, "t.par:3: fov"),
                           doctest::Contains(("t.par:3: fov = '" + bad + "' is not a number").c_str()), UserError);
    }
  }
  SUBCASE("empty value") {
    CHECK_THROWS_WITH_AS(splotch::parse_real("", "t.par:3: fov"), doctest::Contains("t.par:3: fov has an empty value"),
                         UserError);
    CHECK_THROWS_WITH_AS(splotch::parse_real("  ", "t.par:3: fov"),
                         doctest::Contains("t.par:3: fov has an empty value"), UserError);
  }
  SUBCASE("out of range") {
    CHECK_THROWS_WITH_AS(splotch::parse_real("1e400", "t.par:3: zmax"),
                         doctest::Contains("t.par:3: zmax = '1e400' is out of range"), UserError);
  }
}

TEST_CASE("ParamFile::get typed values") {
  ParamFile p = parse(
      "flag_a = TRUE\nflag_b = f\nflag_c = .false.\nflag_d = Yes\nflag_e = 0\n"  // 1-5
      "n = 42\nneg = -3\nbig = 3000000000\n"                                     // 6-8
      "x = 0.1\nzmax = 1e23\nhuge = 1e39\n"                                      // 9-11
      "name = demo file\n"                                                       // 12
      "half = 1.5\nword = wide\nempty =\nmaybe = perhaps\n");                    // 13-16
  SUBCASE("booleans") {
    CHECK(p.get<bool>("flag_a") == true);
    CHECK(p.get<bool>("flag_b") == false);
    CHECK(p.get<bool>("flag_c") == false);
    CHECK(p.get<bool>("flag_d") == true);
    CHECK(p.get<bool>("flag_e") == false);
    CHECK(p.get<bool>("flag_z", true) == true);
    CHECK_THROWS_WITH_AS(p.get<bool>("maybe"), doctest::Contains("t.par:16: maybe = 'perhaps'"), UserError);
    CHECK_THROWS_WITH_AS(p.get<bool>("maybe", false), doctest::Contains("t.par:16: maybe = 'perhaps'"), UserError);
  }
  SUBCASE("integers") {
    CHECK(p.get<int>("n") == 42);
    CHECK(p.get<int>("neg") == -3);
    CHECK(p.get<long long>("big") == 3000000000LL);
    CHECK(p.get<int>("missing", 7) == 7);
    CHECK_THROWS_WITH_AS(p.get<int>("half"), doctest::Contains("t.par:13: half = '1.5' is not an integer"), UserError);
    CHECK_THROWS_WITH_AS(p.get<int>("big"), doctest::Contains("t.par:8: big = '3000000000' is out of range"),
                         UserError);
    CHECK_THROWS_WITH_AS(p.get<int>("word", 3), doctest::Contains("t.par:14: word = 'wide'"), UserError);
    CHECK_THROWS_WITH_AS(p.get<int>("empty"), doctest::Contains("t.par:15: empty"), UserError);
  }
  SUBCASE("floats and doubles") {
    CHECK(p.get<float>("x") == 0.1f);
    CHECK(p.get<double>("x") == 0.1);
    CHECK(p.get<double>("zmax") == 1e23);
    CHECK(p.get<float>("zmax") == 1e23f);
    CHECK(p.get<double>("n") == 42.0);
    CHECK(p.get<double>("huge") == 1e39);
    CHECK_THROWS_WITH_AS(p.get<float>("huge"), doctest::Contains("t.par:11: huge = '1e39'"), UserError);
    CHECK_THROWS_WITH_AS(p.get<double>("word"), doctest::Contains("t.par:14: word = 'wide' is not a number"),
                         UserError);
    CHECK_THROWS_WITH_AS(p.get<float>("word", 1.0f), doctest::Contains("t.par:14: word = 'wide'"), UserError);
    CHECK_THROWS_WITH_AS(p.get<double>("empty"), doctest::Contains("t.par:15: empty has an empty value"), UserError);
  }
  SUBCASE("strings") {
    CHECK(p.get<std::string>("name") == "demo file");
    CHECK(p.get<std::string>("half") == "1.5");
    CHECK(p.get<std::string>("absent", "fallback") == "fallback");
  }
  SUBCASE("a required key that is missing names the file and the key") {
    CHECK_THROWS_WITH_AS(p.get<std::string>("infile"),
                         doctest::Contains("t.par: required parameter 'infile' is missing"), UserError);
    CHECK_THROWS_WITH_AS(p.get<int>("xres"), doctest::Contains("'xres'"), UserError);
    CHECK_THROWS_WITH_AS(p.get<double>("Zmax"), doctest::Contains("'Zmax'"), UserError);
  }
}

TEST_CASE("ParamFile::set_from_command_line") {
  ParamFile p = parse("xres = 640\nfov = 30\n");

  SUBCASE("an override wins over the file and its origin is 'command line'") {
    p.set_from_command_line("xres=1024");
    CHECK(p.get<int>("xres") == 1024);
    CHECK(p.origin("xres") == "command line");
    CHECK(p.origin("fov") == "t.par:2");
    CHECK(p.warnings().empty());
  }
  SUBCASE("a new key, spaces around '=', and '=' inside the value") {
    p.set_from_command_line(" outfile = a=b.png ");
    p.set_from_command_line("yres=2");
    CHECK(p.get<std::string>("outfile") == "a=b.png");
    CHECK(p.get<int>("yres") == 2);
    CHECK(p.origin("outfile") == "command line");
  }
  SUBCASE("the last override wins") {
    p.set_from_command_line("xres=1");
    p.set_from_command_line("xres=2");
    CHECK(p.get<int>("xres") == 2);
  }
  SUBCASE("a malformed override names the argument") {
    CHECK_THROWS_WITH_AS(p.set_from_command_line("xres"), doctest::Contains("'xres'"), UserError);
    CHECK_THROWS_WITH_AS(p.set_from_command_line("=5"), doctest::Contains("'=5'"), UserError);
    CHECK_THROWS_WITH_AS(p.set_from_command_line(""), doctest::Contains("key=value"), UserError);
    CHECK(p.get<int>("xres") == 640);  // unchanged
  }
  SUBCASE("a bad value from the command line names its origin") {
    p.set_from_command_line("xres=abc");
    CHECK_THROWS_WITH_AS(p.get<int>("xres"), doctest::Contains("command line: xres = 'abc' is not an integer"),
                         UserError);
  }
  SUBCASE("set() with another origin") {
    p.set("fov", "wide", "scenes.txt:3");
    CHECK(p.origin("fov") == "scenes.txt:3");
    CHECK_THROWS_WITH_AS(p.get<double>("fov"), doctest::Contains("scenes.txt:3: fov = 'wide'"), UserError);
  }
  SUBCASE("origin of a key never given") { CHECK(p.origin("nothing") == "default"); }
}

TEST_CASE("ParamFile::unused_keys") {
  ParamFile p = parse("xres = 640\nfov = 30\ntypo_key = 3\nxres_ = 1\n");
  p.set_from_command_line("other=4");
  p.set_from_command_line("fov=20");

  SUBCASE("lists exactly the keys not looked up, with their origin") {
    CHECK(p.get<int>("xres") == 640);
    CHECK(p.get<double>("fov", 45.0) == 20.0);
    CHECK(p.get<int>("not_given", 5) == 5);
    CHECK(p.has("typo_key"));  // asking whether a key is there does not use it
    CHECK(sorted(p.unused_keys()) ==
          std::vector<std::string>{"other (command line)", "typo_key (t.par:3)", "xres_ (t.par:4)"});
  }
  SUBCASE("nothing looked up: everything is unused") {
    CHECK(sorted(p.unused_keys()) == std::vector<std::string>{"fov (command line)", "other (command line)",
                                                              "typo_key (t.par:3)", "xres (t.par:1)",
                                                              "xres_ (t.par:4)"});
  }
  SUBCASE("everything looked up: nothing is unused") {
    for (const char* k : {"xres", "fov", "typo_key", "xres_", "other"}) p.get<std::string>(k);
    CHECK(p.unused_keys().empty());
  }
}

TEST_CASE("ParamFile::write_used") {
  ParamFile p = parse("xres = 640\nfov=30.0\nname = demo\nflag = yes\n");

  SUBCASE("keys in order of first look-up; defaults marked, given values unmarked") {
    CHECK(p.get<double>("fov", 45.0) == 30.0);
    CHECK(p.get<float>("gray_absorption", 0.1f) == 0.1f);
    CHECK(p.get<int>("xres", 800) == 640);
    CHECK(p.get<bool>("a_eq_e", true) == true);
    CHECK(p.get<std::string>("name") == "demo");
    CHECK(p.get<int>("xres", 5) == 640);  // a second look-up adds nothing
    CHECK(p.get<double>("zmax", 1e23) == 1e23);
    CHECK(p.get<bool>("projection", false) == false);
    CHECK(p.get<bool>("flag") == true);
    CHECK(p.get<int>("ptypes", 1) == 1);
    CHECK(p.get<std::string>("renderer", "auto") == "auto");
    CHECK(p.get<int>("ptypes", 2) == 2);  // the first look-up decides what is written
    CHECK(used_lines(p) == std::vector<std::string>{
                               "fov = 30.0",
                               "gray_absorption = 0.1  # default",
                               "xres = 640",
                               "a_eq_e = TRUE  # default",
                               "name = demo",
                               "zmax = 1e+23  # default",
                               "projection = FALSE  # default",
                               "flag = yes",
                               "ptypes = 1  # default",
                               "renderer = auto  # default",
                           });
  }
  SUBCASE("the header names the parameter file") {
    std::ostringstream out;
    p.write_used(out);
    CHECK(out.str().rfind("# ", 0) == 0);
    CHECK(out.str().find("t.par") != std::string::npos);
  }
  SUBCASE("a command-line value is written as given") {
    p.set_from_command_line("xres=1024");
    p.get<int>("xres");
    CHECK(used_lines(p) == std::vector<std::string>{"xres = 1024"});
  }
  SUBCASE("the output reads back to the same values") {
    p.get<float>("f1", 0.1f);
    p.get<float>("f2", 1.0f / 3.0f);
    p.get<double>("d1", 0.1);
    p.get<double>("d2", 2.0 / 3.0);
    p.get<float>("f3", 3.4028235e38f);
    p.get<float>("f4", 1.17549435e-38f);
    p.get<double>("d3", -1.2345678901234567e-300);
    p.get<int>("i1", -2147483647 - 1);
    p.get<long long>("l1", 9223372036854775807LL);
    p.get<std::string>("s1", "a b");
    std::ostringstream out;
    p.write_used(out);
    ParamFile back = ParamFile::parse(out.str(), "used.par");
    CHECK(back.warnings().empty());
    CHECK(back.get<float>("f1") == 0.1f);
    CHECK(back.get<float>("f2") == 1.0f / 3.0f);
    CHECK(back.get<double>("d1") == 0.1);
    CHECK(back.get<double>("d2") == 2.0 / 3.0);
    CHECK(back.get<float>("f3") == 3.4028235e38f);
    CHECK(back.get<float>("f4") == 1.17549435e-38f);
    CHECK(back.get<double>("d3") == -1.2345678901234567e-300);
    CHECK(back.get<int>("i1") == -2147483647 - 1);
    CHECK(back.get<long long>("l1") == 9223372036854775807LL);
    CHECK(back.get<std::string>("s1") == "a b");
  }
  SUBCASE("many random floats and doubles read back bit for bit") {
    std::mt19937 rng(12345);
    std::vector<float> floats;
    std::vector<double> doubles;
    for (int i = 0; i < 4000; ++i) {
      std::uint32_t fb = rng();
      std::uint64_t db = (std::uint64_t(rng()) << 32) | rng();
      float f;
      double d;
      std::memcpy(&f, &fb, 4);
      std::memcpy(&d, &db, 8);
      if (!std::isfinite(f)) f = float(i);
      if (!std::isfinite(d)) d = i;
      floats.push_back(f);
      doubles.push_back(d);
      p.get<float>("f" + std::to_string(i), f);
      p.get<double>("d" + std::to_string(i), d);
    }
    std::ostringstream out;
    p.write_used(out);
    ParamFile back = ParamFile::parse(out.str(), "used.par");
    int mismatches = 0;
    for (int i = 0; i < 4000; ++i) {
      float f = back.get<float>("f" + std::to_string(i));
      double d = back.get<double>("d" + std::to_string(i));
      mismatches += std::memcmp(&f, &floats[std::size_t(i)], 4) != 0;
      mismatches += std::memcmp(&d, &doubles[std::size_t(i)], 8) != 0;
    }
    CHECK(mismatches == 0);
  }
}
