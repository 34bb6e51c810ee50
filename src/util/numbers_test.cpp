#include "src/util/numbers.h"

#include <charconv>
#include <string>
#include <type_traits>
#include <vector>

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

namespace {

// What std::from_chars (base 10, the whole text) says, with the strict rules.
template <typename T>
std::optional<T> from_chars_reference(std::string_view s) {
  if (s.empty() || s.front() == '+' || s.front() == ' ') return std::nullopt;
  if (std::is_unsigned_v<T> && s.front() == '-') return std::nullopt;
  T value{};
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 10);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

}  // namespace

TEST_CASE("the decimal loop agrees with from_chars") {
  std::vector<std::string> texts = {"",
                                    "-",
                                    "0",
                                    "-0",
                                    "00042",
                                    "4294967295",
                                    "4294967296",
                                    "18446744073709551615",
                                    "18446744073709551616",
                                    "9223372036854775807",
                                    "9223372036854775808",
                                    "-9223372036854775808",
                                    "-9223372036854775809",
                                    "99999999999999999999999",
                                    "12 ",
                                    "1-2",
                                    "/",
                                    ":",
                                    "1\xb2"};
  // Random digit strings with the odd sign or stray byte, up to 22 characters.
  uint64_t seed = 88172645463325252ull;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  for (int n = 0; n < 20000; ++n) {
    std::string t;
    size_t len = next() % 23;
    for (size_t i = 0; i < len; ++i) {
      uint64_t r = next() % 40;
      t += r < 36 ? static_cast<char>('0' + r % 10) : "-+ x"[r - 36];
    }
    texts.push_back(t);
  }
  for (const auto& t : texts) {
    CAPTURE(t);
    CHECK(parse_u32(t) == from_chars_reference<uint32_t>(t));
    CHECK(parse_u64(t) == from_chars_reference<uint64_t>(t));
    CHECK(parse_i64(t) == from_chars_reference<int64_t>(t));
  }
}

TEST_CASE("digit runs read without a call agree with the strict readers") {
  std::vector<std::string> runs = {"",           "0",          "007",        "999999999",  "1000000000",
                                   "4294967295", "4294967296", "9999999999", "9999999999999999999",
                                   "18446744073709551615",      "18446744073709551616",
                                   "000000000000000000000001",  "99999999999999999999999"};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (size_t len = 1; len <= 22; ++len) {
    for (int k = 0; k < 50; ++k) {
      std::string run;
      for (size_t i = 0; i < len; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        run += static_cast<char>('0' + x % 10);
      }
      runs.push_back(run);
    }
  }
  for (const std::string& run : runs) {
    CAPTURE(run);
    CHECK(parse_digits_u32(run) == parse_u32(run));
    CHECK(parse_digits_u64(run) == parse_u64(run));
  }
}
