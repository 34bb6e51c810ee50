#include "parsers/simd.h"

#include <cstdlib>
#include <cstring>

namespace nd {

bool use_avx2() {
  static const bool yes = [] {
    const char* forced = std::getenv("ND_SIMD");
    if (forced && std::strcmp(forced, "portable") == 0) return false;
#ifdef ND_HAVE_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
  }();
  return yes;
}

}  // namespace nd
