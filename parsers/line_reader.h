#pragma once
// Splits a byte stream into lines with bounded memory: a line longer than
// max_line is cut and flagged, the rest of it is skipped without being kept.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

struct Line {
  std::string_view text;  // without the trailing "\n" or "\r\n"
  uint64_t number = 0;    // 1-based
  bool truncated = false; // longer than max_line; text holds its start
};

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = 64 * 1024;
  static constexpr size_t kDefaultChunk = 1 << 20;

  explicit LineReader(int fd, size_t max_line = kDefaultMaxLine,
                      size_t chunk = kDefaultChunk);

  // Returns false at end of input or after a read error (see error()).
  bool next(Line& line);

  // Sees every byte as read() returns it, before any line is split off:
  // live mode copies the input through here.
  void set_tap(std::function<void(std::string_view)> tap) { tap_ = std::move(tap); }

  // errno of a failed read, 0 when none.
  int error() const { return error_; }
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t truncated_lines() const { return truncated_lines_; }
  bool ended_without_newline() const { return ended_without_newline_; }

 private:
  bool fill();

  int fd_;
  size_t max_line_;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  bool skipping_ = false;  // discarding the tail of an overlong line
  int error_ = 0;
  uint64_t number_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t truncated_lines_ = 0;
  bool ended_without_newline_ = false;
  std::function<void(std::string_view)> tap_;
};

}  // namespace nd
