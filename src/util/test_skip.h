#pragma once
// For test cases that need something this machine or build may lack (an RDMA
// device, the verbs backend, mpirun). Meson reports a test program that exits
// with 77 as SKIP, so the gap shows in the results instead of passing quietly.
// Such cases live in their own test program (suite 'hw' or 'integration'):
// one skip must never hide the other cases of a program.

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace nd {

[[noreturn]] inline void skip_test(std::string_view why) {
  std::fprintf(stderr, "SKIP: %.*s\n", static_cast<int>(why.size()), why.data());
  std::fflush(nullptr);
  std::_Exit(77);
}

}  // namespace nd
