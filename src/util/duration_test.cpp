#include "src/util/duration.h"

#include <doctest/doctest.h>

using namespace nd;
using std::chrono::milliseconds;

TEST_CASE("durations in the units users type") {
  CHECK(parse_duration("90s") == milliseconds(90000));
  CHECK(parse_duration("5m") == milliseconds(300000));
  CHECK(parse_duration("1h30m") == milliseconds(5400000));
  CHECK(parse_duration("250ms") == milliseconds(250));
  CHECK(parse_duration("2") == milliseconds(2000));  // a bare number is seconds
}

TEST_CASE("what is not a positive duration") {
  CHECK(!parse_duration(""));
  CHECK(!parse_duration("soon"));
  CHECK(!parse_duration("0s"));
  CHECK(!parse_duration("5x"));
  CHECK(!parse_duration("m"));
  CHECK(!parse_duration("10m5"));  // a bare number only alone
}
