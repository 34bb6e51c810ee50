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
