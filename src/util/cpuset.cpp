#include "src/util/cpuset.h"

#include <fmt/format.h>

#include "src/util/numbers.h"

namespace nd {

std::string CpuSet::to_string() const {
  std::string out;
  size_t i = 0;
  while (i < kMaxCpus) {
    if (!bits_.test(i)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < kMaxCpus && bits_.test(j + 1)) ++j;
    if (!out.empty()) out += ',';
    out += i == j ? fmt::format("{}", i) : fmt::format("{}-{}", i, j);
    i = j + 1;
  }
  return out;
}

std::optional<CpuSet> parse_cpu_mask(std::string_view hex) {
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  CpuSet set;
  size_t bit = 0;
  bool any = false;
  for (size_t i = hex.size(); i-- > 0;) {
    char c = hex[i];
    if (c == ',') continue;
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else return std::nullopt;
    for (int b = 0; b < 4; ++b) {
      if (v & (1 << b)) set.add(bit + b);
    }
    bit += 4;
    any = true;
  }
  if (!any) return std::nullopt;
  return set;
}

std::optional<CpuSet> parse_cpu_list(std::string_view list) {
  CpuSet set;
  if (list.empty()) return std::nullopt;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    size_t dash = item.find('-');
    auto lo = parse_u32(item.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : parse_u32(item.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    for (uint32_t c = *lo; c <= *hi && c < CpuSet::kMaxCpus; ++c) set.add(c);
  }
  return set;
}

}  // namespace nd
