#pragma once
// Stage one of the chunked reader: a single vectorised pass over a block of
// bytes that marks, one bit a byte, where lines end, where an 'N' stands (the
// start of every " NCCL " marker) and where any other control byte is. The
// per-line fast path then asks these bits instead of reading each line three
// times over with memchr.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace nd {

class ByteMarks {
 public:
  static constexpr size_t npos = std::string_view::npos;

  // Marks data[0, n); positions below are offsets from `data`.
  void scan(const char* data, size_t n);
  size_t size() const { return size_; }

  // How many newlines the bytes from `from` on hold.
  size_t newlines(size_t from = 0) const;
  // The first newline at or after `from`, or size() when none.
  size_t next_newline(size_t from) const { return first(newline_, from, size_); }
  // The first 'N' in [from, to), or npos.
  size_t next_capital_n(size_t from, size_t to) const {
    size_t at = first(capital_n_, from, to);
    return at == to ? npos : at;
  }
  // True when [from, to) holds a byte below 0x20 other than '\n': ESC, NUL,
  // CR, TAB and the rest.
  bool has_control(size_t from, size_t to) const { return any_control_ && first(control_, from, to) != to; }

  // Which implementation scan() uses ("avx2", "sse2", "neon", "scalar"; see simd.h).
  static std::string_view implementation();
  // The plain C++ implementation, whatever the machine:
  // for the tests, which hold the others to the same bits.
  void scan_portable(const char* data, size_t n);

 private:
  // Inline: the fast path asks this several times a line.
  static size_t first(const std::vector<uint64_t>& mask, size_t from, size_t to) {
    if (from >= to) return to;
    size_t w = from / 64;
    size_t last = (to - 1) / 64;
    uint64_t bits = mask[w] & (~uint64_t{0} << (from % 64));
    while (bits == 0) {
      if (w == last) return to;
      bits = mask[++w];
    }
    size_t at = w * 64 + static_cast<size_t>(std::countr_zero(bits));
    return at < to ? at : to;
  }
  void resize(size_t n);
  void note_control();

  std::vector<uint64_t> newline_, capital_n_, control_;
  size_t size_ = 0;
  // Whether the block holds a control byte at all: most hold none, and then
  // no line's range needs reading (a tenth of the feeder's work a line).
  bool any_control_ = false;
};

}  // namespace nd
