#include "src/util/numbers.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("decimal parsing is strict") {
  CHECK(parse_u32("0") == 0u);
  CHECK(parse_u32("4294967295") == 4294967295u);
  CHECK_FALSE(parse_u32("4294967296"));
  CHECK_FALSE(parse_u32("-1"));
  CHECK_FALSE(parse_u32("+1"));
  CHECK_FALSE(parse_u32(" 1"));
  CHECK_FALSE(parse_u32("1a"));
  CHECK_FALSE(parse_u32(""));
  CHECK_FALSE(parse_u64("99999999999999999999999"));
}

TEST_CASE("hex parsing accepts busId and commId shapes") {
  CHECK(parse_hex64("1a000") == 0x1a000u);
  CHECK(parse_hex64("0x52e965372ad155ed") == 0x52e965372ad155edull);
  CHECK_FALSE(parse_hex64("0x1ffffffffffffffff"));
  CHECK_FALSE(parse_hex64("xyz"));
}

TEST_CASE("signed parsing keeps the -1 sentinel") {
  CHECK(parse_i64("-1") == -1);
  CHECK(parse_i64("17") == 17);
  CHECK_FALSE(parse_i64("--1"));
}
