#pragma once
// Golden-file comparison for the unit tests. A golden is rewritten only when
// ND_GOLDEN_UPDATE is exactly "1": any other value (`0`, empty) compares.

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

namespace nd {

inline bool golden_update_requested() {
  const char* v = std::getenv("ND_GOLDEN_UPDATE");
  return v != nullptr && std::string_view(v) == "1";
}

inline void check_golden(const std::string& path, const std::string& actual) {
  if (golden_update_requested()) {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "missing golden " << path);
  std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_MESSAGE(actual == expected, "golden " << path);
}

}  // namespace nd
