// The server's bound on request rates (issue 21: "request sizes and rates bounded"): each peer
// address has a bucket of `burst` requests that refills at `per_second`; a request finding it empty
// is refused (HTTP 429). The page asks for at most one picture in flight and a few small requests
// besides, so the bound only stops a runaway script, which would otherwise keep the server's
// threads busy answering. Times are given by the caller (seconds on any steady clock), so that
// tests inject them.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace splotch {

class RequestRate {
 public:
  RequestRate(double per_second, double burst, std::size_t most_peers = 1024);
  // Whether `peer` may make a request at time `now` (and counts it when so).
  bool allow(const std::string& peer, double now);
  double per_second() const { return per_second_; }

 private:
  struct Bucket {
    double tokens, last;
  };
  double per_second_, burst_;
  std::size_t most_peers_;
  std::mutex mutex_;  // the HTTP threads ask at once
  std::map<std::string, Bucket> buckets_;
};

}  // namespace splotch
