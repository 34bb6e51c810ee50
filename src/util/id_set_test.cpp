#include "src/util/id_set.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("IdSet holds each key once, zero and all-ones among them") {
  IdSet set;
  CHECK_FALSE(set.contains(0));
  CHECK(set.insert(0));
  CHECK_FALSE(set.insert(0));
  CHECK(set.insert(~uint64_t{0}));
  for (uint64_t k = 1; k <= 10000; ++k) CHECK(set.insert(k << 40 | k));
  for (uint64_t k = 1; k <= 10000; ++k) CHECK_FALSE(set.insert(k << 40 | k));
  CHECK(set.size() == 10002);
  CHECK(set.contains(0));
  CHECK(set.contains(~uint64_t{0}));
  CHECK(set.contains(uint64_t{77} << 40 | 77));
  CHECK_FALSE(set.contains(uint64_t{77} << 40 | 78));
}
