#pragma once
// Which vector instructions the hot paths use: AVX2 where the CPU has it
// (checked once, at run time), else the portable code: SSE2 on x86-64, NEON
// on aarch64 (both part of the architecture's base), plain C++ elsewhere.
// ND_SIMD=portable forces the portable code and ND_SIMD=scalar the plain
// C++, which every build compiles, so the tests hold all of them to the same
// answers on any machine.

#include <cstdint>

// A build with -Dsimd=scalar (ND_SIMD_SCALAR_ONLY) compiles no vector code
// at all, as on a CPU without these instructions.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(ND_SIMD_SCALAR_ONLY)
#include <immintrin.h>
#define ND_HAVE_AVX2 1
#endif
#if defined(__SSE2__) && !defined(ND_SIMD_SCALAR_ONLY)
#include <emmintrin.h>
#define ND_HAVE_SSE2 1
#endif
// Little-endian only: movemask_neon() reads its lanes in that order.
#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(__AARCH64EB__) && !defined(ND_SIMD_SCALAR_ONLY)
#include <arm_neon.h>
#define ND_HAVE_NEON 1
#endif

namespace nd {

bool use_avx2();
// SSE2 where compiled in, unless ND_SIMD=scalar.
bool use_sse2();
// NEON where compiled in (aarch64), unless ND_SIMD=scalar.
bool use_neon();
// "avx2", "sse2", "neon" or "scalar": what the 64-byte scans run.
const char* simd_implementation();

#ifdef ND_HAVE_AVX2
// The top bit of each of the 32 bytes of `m`, as bits 0-31.
__attribute__((target("avx2"))) inline uint64_t movemask_avx2(__m256i m) {
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(m)));
}
#endif

#ifdef ND_HAVE_NEON
// NEON has no movemask: four compare results (each byte 0xff or 0), bytes
// 0-63 as bits 0-63. Each byte keeps the bit of its place in its group of
// eight, and pairwise additions sum each group into one byte.
inline uint64_t movemask_neon(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
  const uint8x16_t weights = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t ab = vpaddq_u8(vandq_u8(a, weights), vandq_u8(b, weights));
  uint8x16_t cd = vpaddq_u8(vandq_u8(c, weights), vandq_u8(d, weights));
  uint8x16_t abcd = vpaddq_u8(ab, cd);
  return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
}
#endif

}  // namespace nd
