#pragma once
// Which vector instructions the hot paths use: AVX2 where the CPU has it
// (checked once, at run time), else the portable code. ND_SIMD=portable
// forces the portable code, so the tests can hold both to the same answers.

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ND_HAVE_AVX2 1
#endif

namespace nd {

bool use_avx2();

#ifdef ND_HAVE_AVX2
// The top bit of each of the 32 bytes of `m`, as bits 0-31.
__attribute__((target("avx2"))) inline uint64_t movemask_avx2(__m256i m) {
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(m)));
}
#endif

}  // namespace nd
