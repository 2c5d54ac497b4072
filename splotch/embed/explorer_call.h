// The browser explorer (bin/splotch --serve) started by a caller in another language (the Python
// module's splotch.explore): the parameter file, snapshot or arrays of a picture call served from
// this process on threads of its own, until stop() or the explorer's end, so that a notebook shows
// the page beside the code (an IFrame of its URL) and goes on running cells.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "splotch/embed/picture_call.h"

namespace splotch {

struct ExplorerCall {
  PictureCall picture;             // what is served, and the keys over it
  std::string host = "127.0.0.1";  // the address listened on (this machine only)
  int port = 0;                    // 0: any free one
  std::string palette_directory;   // the palettes offered besides the .par's
};

class Explorer {
 public:
  // Reads the snapshot and draws the first view; its errors are bin/splotch --serve's (UserError),
  // and no server starts. `stop`, set while the first view is read or drawn, abandons it (a
  // UserError saying so). Then serves, on a thread of its own, until stop().
  explicit Explorer(const ExplorerCall& call, const std::atomic<bool>* stop = nullptr);
  ~Explorer();  // stop()
  Explorer(const Explorer&) = delete;
  Explorer& operator=(const Explorer&) = delete;

  int port() const;
  const std::string& token() const;
  std::string url() const;  // with the token, as bin/splotch --serve prints it
  // The first view's warnings, each as bin/splotch says it without "splotch: warning: ".
  const std::vector<std::string>& warnings() const;
  std::size_t drawn() const;  // pictures drawn so far, the first view's among them
  bool serving() const;

  // A movie being written is cancelled (its frame being drawn is finished), the views waiting are
  // refused, and the server stops listening; returns once its threads are done. Again: nothing.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace splotch
