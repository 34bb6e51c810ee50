#include "src/util/duration.h"

namespace nd {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double total_ms = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = pos;
    double value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') value = value * 10 + (text[pos++] - '0');
    if (pos == start) return std::nullopt;
    std::string_view unit = text.substr(pos);
    double scale = 0;
    size_t len = 0;
    if (unit.starts_with("ms")) scale = 1, len = 2;
    else if (unit.starts_with("s")) scale = 1e3, len = 1;
    else if (unit.starts_with("m")) scale = 60e3, len = 1;
    else if (unit.starts_with("h")) scale = 3600e3, len = 1;
    else if (unit.empty() && start == 0) scale = 1e3, len = 0;  // a bare number is seconds
    else return std::nullopt;
    total_ms += value * scale;
    pos += len;
  }
  if (total_ms <= 0 || total_ms > 1e12) return std::nullopt;
  return std::chrono::milliseconds(static_cast<int64_t>(total_ms));
}

}  // namespace nd
