// Read hints (io/read_ahead.h, io/input_file.h, io/page_cache.h): the ranges a reader will read
// are hinted to the kernel a bounded stretch ahead of the reading, each once, whichever thread
// reads; a cached file gets none, a dropped one is cold however often it was opened before; and
// values read with hints on are the values in the file.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/input_file.h"
#include "io/page_cache.h"
#include "io/read_ahead.h"
#include "io/read_plan.h"
#include "tests/support/test_support.h"

using namespace splotch;

namespace {

// A file of `n` floats 0, 1, 2, ... (read back whole, so that it is in the page cache).
std::string float_file(const testing::TempDir& dir, std::size_t n) {
  const std::string path = dir.file("floats.bin");
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(4 * n));
  std::vector<char> back(4 * n);
  std::ifstream(path, std::ios::binary).read(back.data(), std::streamsize(back.size()));
  return path;
}

}  // namespace

TEST_CASE("read hints: ranges are hinted at most `ahead` bytes beyond the one being read, each once, in order") {
  testing::TempDir dir;
  const InputFile file(float_file(dir, 1024), InputFile::Hints::always);
  std::vector<ReadAhead::Range> ranges;
  for (std::size_t k = 0; k < 10; ++k) ranges.push_back({&file, 100 * k, 100});  // ends at 100, 200, ...
  std::vector<std::size_t> hinted;
  ReadAhead ahead(ranges, 250, [&](const ReadAhead::Range& r) { hinted.push_back(r.offset / 100); });
  // Before any reading: the ranges beginning within the first 250 bytes.
  CHECK(hinted == std::vector<std::size_t>{0, 1, 2});
  ahead.reading(0);  // ends at 100: those beginning before 350
  CHECK(hinted == std::vector<std::size_t>{0, 1, 2, 3});
  ahead.reading(1);  // (a range read again, or late, hints nothing twice)
  ahead.reading(0);
  CHECK(hinted == std::vector<std::size_t>{0, 1, 2, 3, 4});
  ahead.reading(6);  // a thread ahead of the others: up to the one beginning before 950
  CHECK(hinted == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  ahead.reading(9);
  ahead.reading(10);  // (past the end: nothing)
  CHECK(hinted.size() == 10);
}

TEST_CASE("read hints: threads reading at once hint every range exactly once") {
  testing::TempDir dir;
  const InputFile file(float_file(dir, 1024), InputFile::Hints::always);
  const std::size_t n = 5000;
  std::vector<ReadAhead::Range> ranges;
  for (std::size_t k = 0; k < n; ++k) ranges.push_back({&file, 8 * k, 8});
  std::mutex m;
  std::multiset<std::size_t> hinted;
  ReadAhead ahead(ranges, 64, [&](const ReadAhead::Range& r) {
    std::lock_guard<std::mutex> lock(m);
    hinted.insert(r.offset / 8);
  });
#pragma omp parallel for schedule(dynamic, 1) num_threads(4)
  for (long k = 0; k < long(n); ++k) ahead.reading(std::size_t(k));
  CHECK(hinted.size() == n);
  CHECK(std::set<std::size_t>(hinted.begin(), hinted.end()).size() == n);
}

TEST_CASE("read hints: a file in the page cache is not cold and gets no hint") {
  testing::TempDir dir;
  const std::string path = float_file(dir, 1 << 16);  // 256 KiB, just written and read
  // Looked at (from 0 bytes on, not the 64 MiB a reader waits for): all its pages are cached.
  CHECK_FALSE(InputFile(path, InputFile::Hints::when_cold, 0).cold());
  CHECK_FALSE(InputFile(path).cold());  // too small to be looked at
  CHECK(InputFile(path, InputFile::Hints::always).cold());
  std::vector<std::size_t> hinted;
  const InputFile cached(path, InputFile::Hints::when_cold, 0);
  ReadAhead ahead({{&cached, 0, 4096}, {&cached, 4096, 4096}}, 1 << 20,
                  [&](const ReadAhead::Range& r) { hinted.push_back(r.offset); });
  ahead.reading(0);
  ahead.reading(1);
  CHECK(hinted.empty());
}

TEST_CASE("read hints: a file whose pages were dropped is cold, however often it is opened first") {
  testing::TempDir dir;
  const std::string path = float_file(dir, std::size_t(16) << 20);  // 64 MiB
  {
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    ::fsync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    const std::optional<double> share = cached_share(fd, std::size_t(64) << 20, path, 1);
    ::close(fd);
    REQUIRE(share.has_value());
    if (*share > 0.1) {  // (tmpfs, say, keeps its pages)
      MESSAGE("skipped: this file system keeps the pages of " << path << " after POSIX_FADV_DONTNEED");
      return;
    }
  }
  // The openings before the read (the format, the header, the counts) look at nothing, and a look
  // leaves the file as cold as it was.
  for (int opening = 0; opening < 3; ++opening) {
    const InputFile header(path, InputFile::Hints::when_cold, 0);
    float first = -1;
    header.read_at(&first, 4, 0);
    CHECK(first == 0.0f);
  }
  const InputFile once(path, InputFile::Hints::when_cold, 0);
  CHECK(once.cold());
  const InputFile again(path, InputFile::Hints::when_cold, 0);
  CHECK(again.cold());
}

TEST_CASE("read hints: a look by reads takes other pages each time, one of each 64th, and finds a read file cached") {
  // Looked at by reads (as for a file this process may not write), the pages a look reads in are
  // not those the next one takes. (Whether a cold file's pages are found cached by reads depends on
  // how fast the disk serves them: a virtual disk over its host's cache can within the call. So
  // only a file just read is looked at here.)
  const std::size_t pages = 16384;
  const std::vector<std::size_t> first = looked_pages(pages, 1), second = looked_pages(pages, 2);
  REQUIRE(first.size() == 64);
  REQUIRE(second.size() == 64);
  std::size_t same = 0;
  for (std::size_t k = 0; k < 64; ++k) {
    CHECK(first[k] >= pages * k / 64);
    CHECK(first[k] < pages * (k + 1) / 64);
    CHECK(second[k] >= pages * k / 64);
    CHECK(second[k] < pages * (k + 1) / 64);
    same += first[k] == second[k] ? 1 : 0;
  }
  CHECK(same <= 2);
  CHECK(looked_pages(pages, 1) == first);  // a seed, the same pages
  CHECK(looked_pages(3, 5).size() == 64);  // (fewer pages than looks: pages again)
  testing::TempDir dir;
  const std::string path = float_file(dir, std::size_t(1) << 20);  // 4 MiB
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  std::vector<char> all(std::size_t(4) << 20);
  REQUIRE(::pread(fd, all.data(), all.size(), 0) == ssize_t(all.size()));
  const std::optional<double> look = cached_share_by_reads(fd, all.size(), 7);
  ::close(fd);
  if (!look) {
    MESSAGE("not looked at by reads: this file system does not take RWF_NOWAIT");
    return;
  }
  CHECK(*look == 1.0);
}

TEST_CASE("read hints: a read plan with every range hinted reads the file's values") {
  testing::TempDir dir;
  const std::size_t n = (std::size_t(3) << 20) + 12345;  // several pieces, the last short
  const InputFile file(float_file(dir, n), InputFile::Hints::always);
  REQUIRE(file.cold());
  ReadPlan plan;
  std::vector<float> out(n, -1.0f);
  const std::size_t piece = block_copy_piece(1, 4);
  for (std::size_t first = 0; first < n; first += piece) {
    const std::size_t count = std::min(piece, n - first);
    plan.copies.push_back(
        BlockCopy{&file, false, 4 * first, count, 1, 4, {out.data() + first, nullptr, nullptr}, 1.0f});
  }
  REQUIRE(plan.copies.size() == 4);
  run_read_plan(plan, nullptr);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != float(i);
  CHECK(wrong == 0);
}
