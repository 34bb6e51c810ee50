#include "src/pipeline/tee.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

namespace nd {

bool Tee::write(std::string_view bytes) {
  while (!closed_ && !bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // A non-blocking stdout inherited from the shell: wait until it drains.
      pollfd pfd{fd_, POLLOUT, 0};
      ::poll(&pfd, 1, -1);
      continue;
    }
    int err = n < 0 ? errno : EIO;
    closed_ = true;
    fmt::print(stderr, "nccl-doctor: note: standard output {} ({}); still reading and checking the input\n",
               err == EPIPE ? "was closed" : "failed", std::strerror(err));
  }
  return !closed_;
}

}  // namespace nd
