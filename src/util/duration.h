#pragma once
// Durations as users type them on the command line.

#include <chrono>
#include <optional>
#include <string_view>

namespace nd {

// "90s", "5m", "1h30m", "250ms", a bare number of seconds; nullopt when not a
// duration or not positive.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

}  // namespace nd
