#pragma once
// Which vector instructions the hot paths use: AVX2 where the CPU has it
// (checked once, at run time), else the portable code. ND_SIMD=portable
// forces the portable code, so the tests can hold both to the same answers.

namespace nd {

bool use_avx2();

}  // namespace nd
