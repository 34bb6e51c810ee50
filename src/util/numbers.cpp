#include "src/util/numbers.h"

#include <charconv>

namespace nd {
namespace {

template <typename T>
std::optional<T> parse_whole(std::string_view s, int base) {
  if (s.empty() || s.front() == '+' || s.front() == ' ') return std::nullopt;
  T value{};
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<uint32_t> parse_u32(std::string_view s) {
  if (!s.empty() && s.front() == '-') return std::nullopt;
  return parse_whole<uint32_t>(s, 10);
}
std::optional<uint64_t> parse_u64(std::string_view s) {
  if (!s.empty() && s.front() == '-') return std::nullopt;
  return parse_whole<uint64_t>(s, 10);
}
std::optional<uint64_t> parse_hex64(std::string_view s) {
  if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
  if (!s.empty() && s.front() == '-') return std::nullopt;
  return parse_whole<uint64_t>(s, 16);
}
std::optional<int64_t> parse_i64(std::string_view s) { return parse_whole<int64_t>(s, 10); }

}  // namespace nd
