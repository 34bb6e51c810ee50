#pragma once
// What a line is, written once for every reader: the bytes before a "\n",
// without a "\r" just before it; a line longer than max_line bytes (a "\r"
// included) keeps its first max_line bytes and is flagged truncated. A last
// line without "\n" is a line too.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace nd {

struct Line {
  std::string_view text;  // without the trailing "\n" or "\r\n"
  uint64_t number = 0;    // 1-based
  bool truncated = false; // longer than max_line; text holds its start
};

// Lines longer than this are cut: enough for any NCCL line, small enough that
// a log without newlines cannot take the memory.
inline constexpr size_t kDefaultMaxLine = 64 * 1024;

// The line of the `len` bytes at `data`, its "\n" not counted.
inline Line make_line(const char* data, size_t len, size_t max_line, uint64_t number) {
  if (len > max_line) return Line{std::string_view(data, max_line), number, true};
  if (len > 0 && data[len - 1] == '\r') --len;
  return Line{std::string_view(data, len), number, false};
}

// How much of a line still without its "\n" a bounded reader must keep:
// once it holds more than max_line bytes, it is cut whatever follows, and
// these bytes are all make_line() needs to flag it.
inline constexpr size_t overlong_head(size_t max_line) { return max_line + 1; }

// Calls fn(const Line&) for every line of `buffer`, numbered from 1, and
// returns how many there were.
template <typename Fn>
uint64_t split_lines(std::string_view buffer, size_t max_line, Fn&& fn) {
  const char* p = buffer.data();
  const char* end = p + buffer.size();
  uint64_t n = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    fn(make_line(p, static_cast<size_t>(stop - p), max_line, ++n));
    p = nl ? nl + 1 : end;
  }
  return n;
}

}  // namespace nd
