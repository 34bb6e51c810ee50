#pragma once
// Which vector instructions the hot paths use: AVX2 where the CPU has it
// (checked once, at run time), else the portable code: SSE2 on x86-64, plain
// C++ elsewhere (aarch64). ND_SIMD=portable forces the portable code and
// ND_SIMD=scalar the plain C++, which every build compiles, so the tests hold
// all three to the same answers on any machine.

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

namespace nd {

bool use_avx2();
// SSE2 where compiled in, unless ND_SIMD=scalar.
bool use_sse2();
// "avx2", "sse2" or "scalar": what the 64-byte scans run.
const char* simd_implementation();

#ifdef ND_HAVE_AVX2
// The top bit of each of the 32 bytes of `m`, as bits 0-31.
__attribute__((target("avx2"))) inline uint64_t movemask_avx2(__m256i m) {
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(m)));
}
#endif

}  // namespace nd
