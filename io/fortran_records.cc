#include "io/fortran_records.h"

#include "errors/user_error.h"

namespace splotch {

FortranRecords::FortranRecords(const std::string& path, bool whole) : file_(path) {
  if (whole && file_.size() > 0) {
    whole_.resize(file_.size());
    file_.read_at(whole_.data(), whole_.size(), 0);
  }
  if (file_.size() < 8)
    throw UserError("'" + path + "' is too short for a Fortran unformatted file (" + std::to_string(file_.size()) +
                    " bytes): is the output complete?");
  // The first marker in the host's order and swapped: the one that fits in the file, and whose
  // closing marker agrees, is the file's order.
  std::uint32_t m;
  read(&m, 4, 0);
  auto fits = [&](std::uint32_t length) {
    if (length > 0x7fffffffu || std::uint64_t(length) + 8 > file_.size()) return false;
    std::uint32_t end;
    read(&end, 4, 4 + std::uint64_t(length));
    return end == m;
  };
  if (fits(m)) {
    swap_ = false;
  } else {
    const std::uint32_t s = byte_swapped(m);
    std::uint32_t end;
    if (std::uint64_t(s) + 8 > file_.size() || s > 0x7fffffffu)
      throw UserError("'" + path + "' is not a Fortran unformatted file: its first record marker (" +
                      std::to_string(m) + ") does not fit in its " + std::to_string(file_.size()) + " bytes");
    read(&end, 4, 4 + std::uint64_t(s));
    if (byte_swapped(end) != s)
      throw UserError("'" + path + "' is not a Fortran unformatted file: its first record's closing marker does " +
                      "not match its opening one");
    swap_ = true;
  }
}

void FortranRecords::read(void* dest, std::size_t bytes, std::uint64_t offset) const {
  if (!whole_.empty()) {
    if (offset + bytes > whole_.size())
      throw UserError("cannot read '" + file_.path() + "' at byte " + std::to_string(offset) +
                      ": the file ended early (is the output complete?)");
    std::memcpy(dest, whole_.data() + offset, bytes);
    return;
  }
  file_.read_at(dest, bytes, offset);
}

std::int32_t FortranRecords::marker(std::uint64_t offset) const {
  std::uint32_t m;
  read(&m, 4, offset);
  if (swap_) m = byte_swapped(m);
  std::int32_t v;
  std::memcpy(&v, &m, 4);
  return v;
}

bool FortranRecords::index_next() {
  if (next_ >= file_.size()) return false;
  Record r;
  for (;;) {
    if (next_ + 8 > file_.size())
      throw UserError("'" + file_.path() + "' ends within record " + std::to_string(records_.size() + 1) +
                      " (at byte " + std::to_string(next_) + "): the file is truncated");
    const std::int32_t head = marker(next_);
    // gfortran: a negative marker opens a subrecord that more follow (its length is its absolute value).
    const bool more = head < 0;
    const std::uint64_t length = more ? std::uint64_t(-std::int64_t(head)) : std::uint64_t(head);
    if (next_ + 8 + length > file_.size())
      throw UserError("'" + file_.path() + "' ends within record " + std::to_string(records_.size() + 1) +
                      " (it says " + std::to_string(length) + " bytes at byte " + std::to_string(next_) +
                      "): the file is truncated");
    const std::int32_t tail = marker(next_ + 4 + length);
    if (tail != head && tail != -head && !(more && tail == std::int32_t(length)))
      throw UserError("'" + file_.path() + "': record " + std::to_string(records_.size() + 1) + " at byte " +
                      std::to_string(next_) + " has markers " + std::to_string(head) + " and " + std::to_string(tail) +
                      " that differ: the file is damaged or not Fortran unformatted");
    r.pieces.push_back({next_ + 4, length});
    r.bytes += length;
    next_ += 8 + length;
    if (!more) break;
  }
  records_.push_back(std::move(r));
  return true;
}

bool FortranRecords::has(std::size_t i) {
  while (records_.size() <= i)
    if (!index_next()) return false;
  return true;
}

void FortranRecords::throw_short(std::size_t i, const char* what) const {
  throw UserError("'" + file_.path() + "' ends before record " + std::to_string(i + 1) + " (" + what +
                  "): the file is truncated or not of this kind");
}

std::size_t FortranRecords::size(std::size_t i, const char* what) {
  if (!has(i)) throw_short(i, what);
  return std::size_t(records_[i].bytes);
}

std::vector<unsigned char> FortranRecords::bytes(std::size_t i, const char* what) {
  if (!has(i)) throw_short(i, what);
  const Record& r = records_[i];
  std::vector<unsigned char> out(r.bytes);
  std::size_t at = 0;
  for (const Piece& p : r.pieces) {
    if (p.bytes) read(out.data() + at, p.bytes, p.offset);
    at += p.bytes;
  }
  return out;
}

void FortranRecords::check_length(std::size_t i, std::size_t bytes, std::size_t value_bytes, std::size_t count,
                                  const char* what) const {
  if (bytes % value_bytes != 0 || (count != npos && bytes != count * value_bytes))
    throw UserError("'" + file_.path() + "': record " + std::to_string(i + 1) + " (" + what + ") holds " +
                    std::to_string(bytes) + " bytes" +
                    (count != npos
                         ? ", not " + std::to_string(count) + " values of " + std::to_string(value_bytes) + " bytes"
                         : ", not whole values of " + std::to_string(value_bytes) + " bytes") +
                    ": the file is damaged or of another layout");
}

std::vector<double> FortranRecords::reals(std::size_t i, std::size_t count, const char* what) {
  const std::size_t b = size(i, what);
  if (count > 0 && b == 4 * count) {
    const std::vector<float> f = values<float>(i, what, count);
    return std::vector<double>(f.begin(), f.end());
  }
  if (count == 0 && b == 0) return {};
  return values<double>(i, what, count);
}

std::vector<std::int64_t> FortranRecords::integers(std::size_t i, std::size_t count, const char* what) {
  const std::size_t b = size(i, what);
  if (count > 0 && b == count) {
    const std::vector<std::int8_t> v = values<std::int8_t>(i, what, count);
    return std::vector<std::int64_t>(v.begin(), v.end());
  }
  if (count > 0 && b == 4 * count) {
    const std::vector<std::int32_t> v = values<std::int32_t>(i, what, count);
    return std::vector<std::int64_t>(v.begin(), v.end());
  }
  if (count == 0 && b == 0) return {};
  return values<std::int64_t>(i, what, count);
}

}  // namespace splotch
