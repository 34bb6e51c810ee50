#include "parsers/simd.h"

#include <cstdlib>
#include <cstring>

namespace nd {

bool use_avx2() {
  static const bool yes = [] {
    const char* forced = std::getenv("ND_SIMD");
    if (forced && std::strcmp(forced, "portable") == 0) return false;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
  }();
  return yes;
}

}  // namespace nd
