// How much of a file is in the page cache, looked at before a long read: a cold file (a snapshot
// just written by another node, or dropped from memory) is worth hinting to the kernel
// (io/read_ahead.h), a cached one is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace splotch {

// The share of 64 pages spread over the file (`fd`, `size` bytes, at `path`) that are in the page
// cache. Looked at without reading (mincore on a mapping) where the kernel tells this caller: since
// Linux 5.0 mincore reports every page of a file the caller neither owns nor may write as cached.
// Otherwise by cached_share_by_reads. Nullopt where neither can tell.
std::optional<double> cached_share(int fd, std::size_t size, const std::string& path, std::uint64_t seed);

// The same by reads that take a page only from the cache (preadv2 with RWF_NOWAIT), at pages
// chosen by `seed`. A page not cached is then read in by the kernel all the same, so a second look
// at the same pages would find them cached: each look takes other pages (another seed). And a disk
// that serves the page within the call (a virtual one over its host's cache) has it counted as
// cached: there a cold file can seem warmer than it is. Nullopt where the file system does not
// take RWF_NOWAIT.
std::optional<double> cached_share_by_reads(int fd, std::size_t size, std::uint64_t seed);
// The pages such a look takes of a file of `pages` pages: one of each 64th, chosen by `seed`.
std::vector<std::size_t> looked_pages(std::size_t pages, std::uint64_t seed);

}  // namespace splotch
