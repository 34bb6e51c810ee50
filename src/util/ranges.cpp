#include "src/util/ranges.h"

#include <algorithm>

#include <fmt/format.h>

namespace nd {

std::string format_ranges(std::vector<uint32_t> values, int width) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += fmt::format("{:0{}}", values[i], width);
    if (j > i) out += fmt::format("-{:0{}}", values[j], width);
    i = j + 1;
  }
  return out;
}

std::string format_ranges_brief(std::vector<uint32_t> values, int width, size_t max_chars) {
  std::string full = format_ranges(values, width);
  if (full.size() <= max_chars) return full;
  std::sort(values.begin(), values.end());
  size_t count = static_cast<size_t>(std::unique(values.begin(), values.end()) - values.begin());
  size_t cut = full.rfind(',', max_chars);
  return fmt::format("{},... ({} in all)", full.substr(0, cut == std::string::npos ? 0 : cut), count);
}

}  // namespace nd
