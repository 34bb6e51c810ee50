#include "parsers/line_reader.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace nd {

LineReader::LineReader(int fd, size_t max_line, size_t chunk)
    : fd_(fd), max_line_(max_line), buffer_(max_line + chunk) {}

bool LineReader::fill() {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  while (true) {
    ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n > 0) {
      if (tap_) tap_(std::string_view(buffer_.data() + end_, static_cast<size_t>(n)));
      end_ += static_cast<size_t>(n);
      bytes_read_ += static_cast<uint64_t>(n);
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    error_ = errno;
    eof_ = true;
    return false;
  }
}

bool LineReader::next(Line& line) {
  while (true) {
    const char* start = buffer_.data() + begin_;
    size_t avail = end_ - begin_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', avail));
    if (skipping_) {
      if (nl) {
        begin_ += static_cast<size_t>(nl - start) + 1;
        skipping_ = false;
        continue;
      }
      begin_ = end_ = 0;
      if (eof_ || !fill()) return false;
      continue;
    }
    if (nl) {
      size_t len = static_cast<size_t>(nl - start);
      begin_ += len + 1;
      bool overlong = len > max_line_;
      if (overlong) {
        len = max_line_;
        ++truncated_lines_;
      } else if (len > 0 && start[len - 1] == '\r') {
        --len;
      }
      line.text = std::string_view(start, len);
      line.number = ++number_;
      line.truncated = overlong;
      return true;
    }
    if (avail > max_line_) {
      // More than max_line bytes and no newline: an overlong line. Keep its
      // head; drop the rest up to its newline. (Exactly max_line bytes may
      // still be a whole line whose newline has not arrived.)
      line.text = std::string_view(start, max_line_);
      line.number = ++number_;
      line.truncated = true;
      ++truncated_lines_;
      begin_ = end_ = 0;
      skipping_ = true;
      return true;
    }
    if (!eof_ && fill()) continue;
    if (end_ > begin_) {
      start = buffer_.data() + begin_;
      size_t len = end_ - begin_;
      begin_ = end_;
      if (start[len - 1] == '\r') --len;
      line.text = std::string_view(start, len);
      line.number = ++number_;
      line.truncated = false;
      ended_without_newline_ = true;
      return true;
    }
    return false;
  }
}

}  // namespace nd
