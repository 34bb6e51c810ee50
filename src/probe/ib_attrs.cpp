#include "src/probe/ib_attrs.h"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
std::optional<int> parse_state_line(std::string_view s) {
  s = trim(s);
  size_t colon = s.find(':');
  auto n = parse_u32(colon == std::string_view::npos ? s : s.substr(0, colon));
  if (!n || *n > 255) return std::nullopt;
  return static_cast<int>(*n);
}

std::string port_state_str(int state) {
  switch (state) {
    case 0: return "NOP";
    case kPortDown: return "DOWN";
    case kPortInit: return "INIT";
    case kPortArmed: return "ARMED";
    case kPortActive: return "ACTIVE";
    case kPortActiveDefer: return "ACTIVE_DEFER";
  }
  return fmt::format("unknown ({})", state);
}

std::string phys_state_str(int state) {
  switch (state) {
    case kPhysSleep: return "Sleep";
    case kPhysPolling: return "Polling";
    case kPhysDisabled: return "Disabled";
    case kPhysTraining: return "PortConfigurationTraining";
    case kPhysLinkUp: return "LinkUp";
    case kPhysErrorRecovery: return "LinkErrorRecovery";
    case kPhysPhyTest: return "Phy Test";
  }
  return fmt::format("unknown ({})", state);
}

std::optional<LinkRate> parse_rate(std::string_view s) {
  s = trim(s);
  LinkRate r;
  // Leading number, possibly "2.5".
  size_t i = 0;
  while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  std::string number(s.substr(0, i));
  char* end = nullptr;
  r.gbps = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  std::string_view rest = trim(s.substr(i));
  if (!rest.starts_with("Gb/sec") && !rest.starts_with("GB/sec")) return std::nullopt;
  size_t open = rest.find('(');
  if (open == std::string_view::npos) return r;
  size_t close = rest.find(')', open);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view inside = rest.substr(open + 1, close - open - 1);  // "4X NDR"
  size_t x = inside.find('X');
  if (x == std::string_view::npos) return std::nullopt;
  auto w = parse_u32(inside.substr(0, x));
  if (!w) return std::nullopt;
  r.width = *w;
  r.speed = std::string(trim(inside.substr(x + 1)));
  return r;
}

std::string link_layer_key(std::string_view v) {
  v = trim(v);
  if (v == "InfiniBand") return "ib";
  if (v == "Ethernet") return "roce";
  if (v.empty()) return "unknown";
  return std::string(v);
}

int roce_version(std::string_view t) {
  t = trim(t);
  if (t == "RoCE v2") return 2;
  if (t == "IB/RoCE v1" || t == "RoCE v1") return 1;
  return 0;
}

bool gid_is_zero(std::string_view gid) {
  for (char c : gid) {
    if (c != '0' && c != ':') return false;
  }
  return true;
}

bool gid_is_ipv4_mapped(std::string_view gid) {
  return gid.size() == 39 && gid.substr(0, 30) == "0000:0000:0000:0000:0000:ffff:";
}

bool gid_is_link_local(std::string_view gid) {
  return gid.size() == 39 && (gid.starts_with("fe80:0000:0000:0000:"));
}

std::string gid_ipv4(std::string_view gid) {
  if (!gid_is_ipv4_mapped(gid)) return "";
  auto hi = parse_hex64(gid.substr(30, 4));
  auto lo = parse_hex64(gid.substr(35, 4));
  if (!hi || !lo) return "";
  return fmt::format("{}.{}.{}.{}", *hi >> 8, *hi & 0xff, *lo >> 8, *lo & 0xff);
}

bool counter_saturated(uint64_t v) {
  return v == 0xff || v == 0xffff || v == 0xffffffffull || v == 0xffffffffffffffffull;
}

}  // namespace nd
