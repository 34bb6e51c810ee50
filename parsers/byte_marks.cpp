#include "parsers/byte_marks.h"

#include <bit>
#include <cstring>

#include "parsers/simd.h"
#include "parsers/swar.h"

namespace nd {
namespace {

// Eight bytes at a time in a 64-bit register: any machine. Most words hold no
// byte below 0x20 (a newline is one) and no `N`: one cheap test for each, and
// only a word that has one is looked at closely. Testing for newlines, `N`s
// and control bytes in full on every word took 290 instructions for 64 bytes,
// nine times the AVX2 code.
void scan_words_portable(const char* p, size_t words, uint64_t* nl, uint64_t* cap, uint64_t* ctl) {
  using namespace swar;
  for (size_t w = 0; w < words; ++w) {
    uint64_t n = 0, c = 0, k = 0;
#pragma GCC unroll 8
    for (unsigned part = 0; part < 8; ++part) {
      uint64_t x = load(p + w * 64 + part * 8);
      uint64_t below_0x20 = x & (kOnes * 0xe0);  // zero where a byte is below 0x20
      uint64_t not_n = x ^ (kOnes * 'N');        // zero where a byte is an `N`
      if (has_zero_byte(below_0x20)) {
        uint64_t newline = zero_bytes(x ^ (kOnes * '\n'));
        n |= gather_high_bits(newline) << (part * 8);
        k |= gather_high_bits(zero_bytes(below_0x20) & ~newline) << (part * 8);
      }
      if (has_zero_byte(not_n)) c |= gather_high_bits(zero_bytes(not_n)) << (part * 8);
    }
    nl[w] = n;
    cap[w] = c;
    ctl[w] = k;
  }
}

#ifdef ND_HAVE_SSE2
// x86-64 without AVX2: every x86-64 processor has SSE2.
void scan_words_sse2(const char* p, size_t words, uint64_t* nl, uint64_t* cap, uint64_t* ctl) {
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i capital_n = _mm_set1_epi8('N');
  const __m128i high3 = _mm_set1_epi8(static_cast<char>(0xe0));
  const __m128i zero = _mm_setzero_si128();
  auto bits = [](__m128i m) { return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(m))); };
  for (size_t w = 0; w < words; ++w) {
    uint64_t n = 0, c = 0, k = 0;
    for (unsigned part = 0; part < 4; ++part) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + w * 64 + part * 16));
      n |= bits(_mm_cmpeq_epi8(v, newline)) << (part * 16);
      c |= bits(_mm_cmpeq_epi8(v, capital_n)) << (part * 16);
      k |= bits(_mm_cmpeq_epi8(_mm_and_si128(v, high3), zero)) << (part * 16);
    }
    nl[w] = n;
    cap[w] = c;
    ctl[w] = k & ~n;
  }
}
#endif

#ifdef ND_HAVE_NEON
// aarch64: every such processor has NEON.
void scan_words_neon(const char* p, size_t words, uint64_t* nl, uint64_t* cap, uint64_t* ctl) {
  const uint8x16_t newline = vdupq_n_u8('\n'), capital_n = vdupq_n_u8('N'), space = vdupq_n_u8(0x20);
  for (size_t w = 0; w < words; ++w) {
    const auto* q = reinterpret_cast<const uint8_t*>(p + w * 64);
    uint8x16_t v0 = vld1q_u8(q), v1 = vld1q_u8(q + 16), v2 = vld1q_u8(q + 32), v3 = vld1q_u8(q + 48);
    uint64_t n = movemask_neon(vceqq_u8(v0, newline), vceqq_u8(v1, newline), vceqq_u8(v2, newline),
                               vceqq_u8(v3, newline));
    cap[w] = movemask_neon(vceqq_u8(v0, capital_n), vceqq_u8(v1, capital_n), vceqq_u8(v2, capital_n),
                           vceqq_u8(v3, capital_n));
    uint64_t k = movemask_neon(vcltq_u8(v0, space), vcltq_u8(v1, space), vcltq_u8(v2, space), vcltq_u8(v3, space));
    nl[w] = n;
    ctl[w] = k & ~n;
  }
}
#endif

#ifdef ND_HAVE_AVX2
__attribute__((target("avx2"))) void scan_words_avx2(const char* p, size_t words, uint64_t* nl, uint64_t* cap,
                                                     uint64_t* ctl) {
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i capital_n = _mm256_set1_epi8('N');
  const __m256i high3 = _mm256_set1_epi8(static_cast<char>(0xe0));
  const __m256i zero = _mm256_setzero_si256();
  for (size_t w = 0; w < words; ++w) {
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + w * 64));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + w * 64 + 32));
    uint64_t na = movemask_avx2(_mm256_cmpeq_epi8(a, newline)), nb = movemask_avx2(_mm256_cmpeq_epi8(b, newline));
    uint64_t ca = movemask_avx2(_mm256_cmpeq_epi8(a, capital_n)), cb = movemask_avx2(_mm256_cmpeq_epi8(b, capital_n));
    uint64_t ka = movemask_avx2(_mm256_cmpeq_epi8(_mm256_and_si256(a, high3), zero));
    uint64_t kb = movemask_avx2(_mm256_cmpeq_epi8(_mm256_and_si256(b, high3), zero));
    uint64_t n = na | (nb << 32);
    nl[w] = n;
    cap[w] = ca | (cb << 32);
    ctl[w] = (ka | (kb << 32)) & ~n;
  }
}

#endif

using ScanWords = void (*)(const char*, size_t, uint64_t*, uint64_t*, uint64_t*);

void scan_with(ScanWords fn, const char* data, size_t n, uint64_t* nl, uint64_t* cap, uint64_t* ctl) {
  size_t whole = n / 64;
  fn(data, whole, nl, cap, ctl);
  size_t rest = n % 64;
  if (rest == 0) return;
  // The tail through a zeroed block; the zeros it adds are not the input's.
  char block[64] = {};
  std::memcpy(block, data + whole * 64, rest);
  fn(block, 1, nl + whole, cap + whole, ctl + whole);
  uint64_t keep = (uint64_t{1} << rest) - 1;
  nl[whole] &= keep;
  cap[whole] &= keep;
  ctl[whole] &= keep;
}

}  // namespace

void ByteMarks::resize(size_t n) {
  size_ = n;
  size_t words = (n + 63) / 64;
  if (newline_.size() < words) {
    newline_.resize(words);
    capital_n_.resize(words);
    control_.resize(words);
  }
}

void ByteMarks::note_control() {
  uint64_t any = 0;
  for (size_t w = 0, words = (size_ + 63) / 64; w < words; ++w) any |= control_[w];
  any_control_ = any != 0;
}

void ByteMarks::scan(const char* data, size_t n) {
  resize(n);
#ifdef ND_HAVE_AVX2
  if (use_avx2()) {
    scan_with(scan_words_avx2, data, n, newline_.data(), capital_n_.data(), control_.data());
    return note_control();
  }
#endif
#ifdef ND_HAVE_SSE2
  if (use_sse2()) {
    scan_with(scan_words_sse2, data, n, newline_.data(), capital_n_.data(), control_.data());
    return note_control();
  }
#endif
#ifdef ND_HAVE_NEON
  if (use_neon()) {
    scan_with(scan_words_neon, data, n, newline_.data(), capital_n_.data(), control_.data());
    return note_control();
  }
#endif
  scan_with(scan_words_portable, data, n, newline_.data(), capital_n_.data(), control_.data());
  note_control();
}

namespace {

size_t count_bits_portable(const uint64_t* words, size_t n) {
  size_t count = 0;
  for (size_t w = 0; w < n; ++w) count += static_cast<size_t>(std::popcount(words[w]));
  return count;
}

#ifdef ND_HAVE_AVX2
// The baseline x86-64 target has no POPCNT instruction: std::popcount there
// is a library call per word. Every AVX2 processor has it.
__attribute__((target("popcnt"))) size_t count_bits_popcnt(const uint64_t* words, size_t n) {
  size_t count = 0;
  for (size_t w = 0; w < n; ++w) count += static_cast<size_t>(__builtin_popcountll(words[w]));
  return count;
}
#endif

size_t count_bits(const uint64_t* words, size_t n) {
#ifdef ND_HAVE_AVX2
  if (use_avx2()) return count_bits_popcnt(words, n);
#endif
  return count_bits_portable(words, n);
}

}  // namespace

size_t ByteMarks::newlines(size_t from) const {
  if (from >= size_) return 0;
  // The arrays keep their size across scans: only the bits of [from, size_) count.
  const size_t first = from / 64;
  const size_t last = (size_ - 1) / 64;
  const uint64_t head = newline_[first] & (~uint64_t{0} << (from % 64));
  const uint64_t tail_mask = size_ % 64 ? (uint64_t{1} << (size_ % 64)) - 1 : ~uint64_t{0};
  if (first == last) return static_cast<size_t>(std::popcount(head & tail_mask));
  return static_cast<size_t>(std::popcount(head)) + count_bits(newline_.data() + first + 1, last - first - 1) +
         static_cast<size_t>(std::popcount(newline_[last] & tail_mask));
}

void ByteMarks::scan_portable(const char* data, size_t n) {
  resize(n);
  scan_with(scan_words_portable, data, n, newline_.data(), capital_n_.data(), control_.data());
  note_control();
}

std::string_view ByteMarks::implementation() { return simd_implementation(); }

}  // namespace nd
