#pragma once
// Bytes tested eight at a time in a 64-bit register (SWAR): the scalar paths
// of the byte scanners, on machines without vector code (see simd.h).

#include <bit>
#include <cstdint>
#include <cstring>

namespace nd::swar {

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
constexpr uint64_t kHigh = 0x8080808080808080ull;

// The eight bytes from p, byte i in bits 8i..8i+7 on any machine.
inline uint64_t load(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return x;
}

// 0x80 in every byte of `v` that is zero, exactly (no borrow between bytes).
inline uint64_t zero_bytes(uint64_t v) {
  uint64_t t = (v & kLow7) + kLow7;
  return ~(t | v | kLow7);
}

// Nonzero when some byte of `v` is zero (its bits are exact only up to the
// first zero byte: for a test, three operations instead of zero_bytes' five).
inline uint64_t has_zero_byte(uint64_t v) { return (v - kOnes) & ~v & kHigh; }

// 0x80 in each byte b of `x` with lo < b < hi (and b < 0x80), exactly: no
// carry or borrow crosses a byte (0 <= lo <= 127, 0 <= hi <= 128).
inline uint64_t bytes_between(uint64_t x, uint64_t lo, uint64_t hi) {
  uint64_t low7 = x & kLow7;
  return (kOnes * (127 + hi) - low7) & ~x & (low7 + kOnes * (127 - lo)) & kHigh;
}

// The high bit of byte i of `v` (only high bits set) becomes bit i.
inline uint64_t gather_high_bits(uint64_t v) { return ((v >> 7) * 0x0102040810204080ull) >> 56; }

}  // namespace nd::swar
