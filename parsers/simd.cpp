#include "parsers/simd.h"

#include <cstdlib>
#include <cstring>

namespace nd {

namespace {

bool forced(const char* level) {
  const char* value = std::getenv("ND_SIMD");
  return value != nullptr && std::strcmp(value, level) == 0;
}

}  // namespace

bool use_avx2() {
  static const bool yes = [] {
    if (forced("portable") || forced("scalar")) return false;
#ifdef ND_HAVE_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
  }();
  return yes;
}

bool use_sse2() {
#ifdef ND_HAVE_SSE2
  static const bool yes = !forced("scalar");
  return yes;
#else
  return false;
#endif
}

bool use_neon() {
#ifdef ND_HAVE_NEON
  static const bool yes = !forced("scalar");
  return yes;
#else
  return false;
#endif
}

const char* simd_implementation() {
  return use_avx2() ? "avx2" : use_sse2() ? "sse2" : use_neon() ? "neon" : "scalar";
}

}  // namespace nd
