#include "src/util/ranges.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("ranges compress runs and keep singles") {
  CHECK(format_ranges({8, 9, 10, 11, 12, 13, 14, 15}) == "8-15");
  CHECK(format_ranges({0, 7}) == "0,7");
  CHECK(format_ranges({3, 1, 2, 2, 9}) == "1-3,9");
  CHECK(format_ranges({}) == "");
}

TEST_CASE("channel ranges print with two digits") {
  CHECK(format_ranges({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 2) == "00-15");
  CHECK(format_ranges({2}, 2) == "02");
}

TEST_CASE("a long list is cut to fit a terminal, with its count") {
  std::vector<uint32_t> pairs;
  for (uint32_t i = 0; i < 64; ++i) {
    pairs.push_back(i * 8);
    pairs.push_back(i * 8 + 7);
  }
  CHECK(format_ranges_brief(pairs, 0, 20) == "0,7-8,15-16,23-24,... (128 in all)");
  CHECK(format_ranges_brief({0, 1, 2, 3}, 0, 20) == "0-3");
  CHECK(format_ranges_brief({0, 2}, 2, 2) == "00,... (2 in all)");
}
