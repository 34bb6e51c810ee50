#pragma once
// Strict decimal/hex parsing: no sign, no whitespace, no overflow.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nd {

std::optional<uint32_t> parse_u32(std::string_view s);
std::optional<uint64_t> parse_u64(std::string_view s);
std::optional<uint64_t> parse_hex64(std::string_view s);
// Accepts a leading '-'; used for `-1` sentinels in tree lines.
std::optional<int64_t> parse_i64(std::string_view s);

// parse_u32() and parse_u64() of a run a matcher already found to hold only
// decimal digits: the short numbers of a setup line (ranks, channels,
// devices), a few instructions each instead of a call.
inline std::optional<uint32_t> parse_digits_u32(std::string_view digits) {
  if (digits.empty() || digits.size() > 9) return parse_u32(digits);  // 9 digits cannot overflow
  uint32_t value = 0;
  for (char c : digits) value = value * 10 + static_cast<uint32_t>(c - '0');
  return value;
}
inline std::optional<uint64_t> parse_digits_u64(std::string_view digits) {
  if (digits.empty() || digits.size() > 19) return parse_u64(digits);  // nor can 19
  uint64_t value = 0;
  for (char c : digits) value = value * 10 + static_cast<uint64_t>(c - '0');
  return value;
}

// std::from_chars for a double (general format: no '+', no leading space,
// no hex; "inf" and "nan" taken), the same result and end. GCC 12's
// from_chars for floating point alone makes the binary load libm at every
// start (0.3 ms in a virtual machine); this reads through strtod_l.
std::from_chars_result read_double(const char* first, const char* last, double& value);
// The whole of `s` as read_double() reads it; nullopt for anything else.
std::optional<double> parse_double(std::string_view s);

}  // namespace nd
