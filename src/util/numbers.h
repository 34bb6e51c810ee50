#pragma once
// Strict decimal/hex parsing: no sign, no whitespace, no overflow.

#include <cstdint>
#include <optional>
#include <string_view>

namespace nd {

std::optional<uint32_t> parse_u32(std::string_view s);
std::optional<uint64_t> parse_u64(std::string_view s);
std::optional<uint64_t> parse_hex64(std::string_view s);
// Accepts a leading '-'; used for `-1` sentinels in tree lines.
std::optional<int64_t> parse_i64(std::string_view s);

}  // namespace nd
