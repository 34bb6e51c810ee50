#include "src/util/numbers.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
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

namespace {

// Both readers on one text: the same error, the same end, the same value.
void check_like_from_chars(const std::string& text) {
  double expected = -12.5, got = -12.5;
  auto want = std::from_chars(text.data(), text.data() + text.size(), expected);
  auto have = read_double(text.data(), text.data() + text.size(), got);
  INFO("text: \"", text, "\"");
  CHECK(have.ec == want.ec);
  CHECK(have.ptr - text.data() == want.ptr - text.data());
  if (std::isnan(expected)) {
    CHECK(std::isnan(got));
  } else {
    CHECK(std::memcmp(&got, &expected, sizeof got) == 0);
  }
}

}  // namespace

TEST_CASE("read_double reads as from_chars does") {
  for (const char* text : {"0", "-0", "1", "62.35", "-3.5e-2", "1.2e+06", "4.6e+19", ".5", "-.5", "5.", "1e", "1e+",
                           "1e-", "1e5x", "12 MiB", "98%", "inf", "-inf", "infinity", "INFINITY", "infinit", "nan",
                           "-nan", "nan(123)", "nan(", "NaN", "1e400", "-1e400", "1e-400", "4.9e-324", "2e-310",
                           "0x1p3", "-0x1p3", "0X10", "+1", " 1", "--1", "-", "", ".", ".e5", "e5", "-e5", "i", "n",
                           "1.7976931348623157e308", "1.7976931348623159e308", "0.1", "123456789012345678901234567890",
                           "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899"}) {
    check_like_from_chars(text);
  }
  // Random texts over the characters a number is made of, and a few others.
  std::mt19937 random(7);
  const std::string alphabet = "0123456789..eE+-infatyINFATYx() %";
  for (int i = 0; i < 20000; ++i) {
    std::string text(random() % 14, ' ');
    for (char& ch : text) ch = alphabet[random() % alphabet.size()];
    check_like_from_chars(text);
  }
}

TEST_CASE("parse_double takes the whole text or nothing") {
  CHECK(parse_double("62.35") == 62.35);
  CHECK(parse_double("1.2e+06") == 1.2e6);
  CHECK_FALSE(parse_double(""));
  CHECK_FALSE(parse_double("62.35W"));
  CHECK_FALSE(parse_double(" 1"));
  CHECK_FALSE(parse_double("1e400"));
}
