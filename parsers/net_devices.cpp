#include "parsers/net_devices.h"

#include <algorithm>
#include <optional>

#include <re2/re2.h>

#include "parsers/char_classes.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

std::string_view sv(re2::StringPiece p) { return {p.data(), p.size()}; }

// A number of at most `digits` digits, else -1. The patterns take digits and
// names unbounded and the lengths are checked here: counted repetitions
// ({1,64}) make RE2 compile a program per count, which costs more at start-up
// than a short log takes to read.
int bounded_number(std::string_view p, size_t digits) {
  std::optional<uint32_t> v = p.size() <= digits ? parse_u32(p) : std::nullopt;
  return v ? static_cast<int>(*v) : -1;
}

// The longest run of `pred` bytes from `at`: where it ends.
template <typename Pred>
size_t run_end(std::string_view s, size_t at, Pred pred) {
  while (at < s.size() && pred(s[at])) ++at;
  return at;
}


struct ItemCaptures {
  std::string_view index, name, port, rail, plane, layer, address;
  size_t end = 0;
};

// `\[(\d+)\]` at `at`: where its digits end, or npos.
size_t index_end(std::string_view s, size_t at, ItemCaptures& c) {
  if (at >= s.size() || s[at] != '[') return std::string_view::npos;
  size_t e = run_end(s, at + 1, is_digit);
  if (e == at + 1 || e >= s.size() || s[e] != ']') return std::string_view::npos;
  c.index = s.substr(at + 1, e - at - 1);
  return e + 1;
}

// `\[(\d+)\]\s?([A-Za-z0-9_.\-]+):(\d+)(?::(\d+))?(?::(\d+))?/([A-Za-z]+)` at
// `at`. Every run stops at a byte the next step needs, so no backtracking
// changes the match.
bool ib_item_at(std::string_view s, size_t at, ItemCaptures& c) {
  size_t i = index_end(s, at, c);
  if (i == std::string_view::npos) return false;
  if (i < s.size() && is_re2_space(s[i])) ++i;
  size_t e = run_end(s, i, is_name_char);
  if (e == i || e >= s.size() || s[e] != ':') return false;
  c.name = s.substr(i, e - i);
  i = e + 1;
  e = run_end(s, i, is_digit);
  if (e == i) return false;
  c.port = s.substr(i, e - i);
  for (std::string_view* extra : {&c.rail, &c.plane}) {
    if (e < s.size() && s[e] == ':') {
      size_t d = run_end(s, e + 1, is_digit);
      if (d > e + 1) {
        *extra = s.substr(e + 1, d - e - 1);
        e = d;
      }
    }
  }
  if (e >= s.size() || s[e] != '/') return false;
  i = e + 1;
  e = run_end(s, i, is_alpha);
  if (e == i) return false;
  c.layer = s.substr(i, e - i);
  c.end = e;
  return true;
}

// `\[(\d+)\]([A-Za-z0-9_.@\-]+):([^\s<>\[\]]+<\d+>)` at `at`.
bool socket_item_at(std::string_view s, size_t at, ItemCaptures& c) {
  size_t i = index_end(s, at, c);
  if (i == std::string_view::npos) return false;
  size_t e = run_end(s, i, [](char ch) { return is_name_char(ch) || ch == '@'; });
  if (e == i || e >= s.size() || s[e] != ':') return false;
  c.name = s.substr(i, e - i);
  i = e + 1;
  e = run_end(s, i, [](char ch) { return !is_re2_space(ch) && ch != '<' && ch != '>' && ch != '[' && ch != ']'; });
  if (e == i || e >= s.size() || s[e] != '<') return false;
  size_t d = run_end(s, e + 1, is_digit);
  if (d == e + 1 || d >= s.size() || s[d] != '>') return false;
  c.address = s.substr(i, d + 1 - i);
  c.end = d + 1;
  return true;
}

// RE2's FindAndConsume: the leftmost item from `from` (every item starts with '[').
template <typename ItemAt>
bool find_item(std::string_view s, size_t& from, ItemAt item_at, ItemCaptures& c) {
  for (size_t at = s.find('[', from); at != std::string_view::npos; at = s.find('[', at + 1)) {
    c = {};
    if (item_at(s, at, c)) {
      from = c.end;
      return true;
    }
  }
  return false;
}

constexpr size_t kMaxDevices = 64;
constexpr size_t kMaxName = 64;

}  // namespace

namespace {

// 2.21-2.23 print NICs fused into one device as `[0]={[0] mlx5_2:1/RoCE,
// [1] mlx5_3:1/RoCE}` and a device alone under its HCA's number
// (`[2]mlx5_0:1/RoCE` may be device 1): the netDev of connection lines is the
// position among the items at brace depth 0, which every member gets.
void number_fused_devices(std::string_view list, std::vector<NetDeviceEntry>& devices) {
  if (list.find("={") == std::string_view::npos) return;
  std::vector<size_t> starts;
  int depth = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == '[' && depth == 0 && i + 1 < list.size() && is_digit(list[i + 1])) starts.push_back(i);
  }
  for (auto& d : devices) {
    auto at = static_cast<size_t>(d.name.data() - list.data());
    auto after = std::upper_bound(starts.begin(), starts.end(), at);
    d.index = after == starts.begin() ? -1 : static_cast<int>(after - starts.begin()) - 1;
  }
}

}  // namespace

std::vector<NetDeviceEntry> parse_net_devices(std::string_view list) {
  std::vector<NetDeviceEntry> out;
  if (size_t oob = list.find(';'); oob != std::string_view::npos) list = list.substr(0, oob);
  ItemCaptures c;
  size_t from = 0;
  bool any_ib = false;
  while (out.size() < kMaxDevices && find_item(list, from, ib_item_at, c)) {
    int i = bounded_number(c.index, 6);
    int p = bounded_number(c.port, 5);
    bool rail_ok = c.rail.empty() || bounded_number(c.rail, 6) >= 0;
    bool plane_ok = c.plane.empty() || bounded_number(c.plane, 6) >= 0;
    if (i < 0 || p < 0 || !rail_ok || !plane_ok || c.name.size() > kMaxName) continue;
    any_ib = true;
    // The link layer: its first 16 letters, as the pattern took them before.
    out.push_back({i, c.name, p, c.layer.substr(0, 16), {}});
  }
  if (any_ib) {
    number_fused_devices(list, out);
    return out;
  }
  from = 0;
  while (out.size() < kMaxDevices && find_item(list, from, socket_item_at, c)) {
    int i = bounded_number(c.index, 6);
    // `addr<port>`: at most 64 characters before a port of at most 6 digits.
    std::string_view addr = c.address;
    size_t open = addr.rfind('<');
    if (i < 0 || c.name.size() > kMaxName || open > kMaxName ||
        bounded_number(addr.substr(open + 1, addr.size() - open - 2), 6) < 0) {
      continue;
    }
    out.push_back({i, c.name, -1, {}, c.address});
  }
  return out;
}

std::vector<NetDeviceEntry> parse_net_devices_re2(std::string_view list) {
  // IB items: index, HCA, port, optional rail/plane, link layer.
  // Bytes, as the hand scan and every other pattern read them (Latin-1).
  static const re2::RE2::Options kBytes = [] {
    re2::RE2::Options o;
    o.set_encoding(re2::RE2::Options::EncodingLatin1);
    return o;
  }();
  static const re2::RE2 kIbItem(R"(\[(\d+)\]\s?([A-Za-z0-9_.\-]+):(\d+)(?::(\d+))?(?::(\d+))?/([A-Za-z]+))", kBytes);
  // Socket items: index, interface, address.
  static const re2::RE2 kSocketItem(R"(\[(\d+)\]([A-Za-z0-9_.@\-]+):([^\s<>\[\]]+<\d+>))", kBytes);
  std::vector<NetDeviceEntry> out;
  if (size_t oob = list.find(';'); oob != std::string_view::npos) list = list.substr(0, oob);
  re2::StringPiece input(list.data(), list.size());
  re2::StringPiece index, port, name, layer, rail, plane;
  bool any_ib = false;
  while (out.size() < kMaxDevices &&
         re2::RE2::FindAndConsume(&input, kIbItem, &index, &name, &port, &rail, &plane, &layer)) {
    int i = bounded_number(sv(index), 6);
    int p = bounded_number(sv(port), 5);
    bool rail_ok = rail.empty() || bounded_number(sv(rail), 6) >= 0;
    bool plane_ok = plane.empty() || bounded_number(sv(plane), 6) >= 0;
    if (i < 0 || p < 0 || !rail_ok || !plane_ok || name.size() > kMaxName) continue;
    any_ib = true;
    // The link layer: its first 16 letters, as the pattern took them before.
    out.push_back({i, sv(name), p, sv(layer).substr(0, 16), {}});
  }
  if (any_ib) {
    number_fused_devices(list, out);
    return out;
  }
  input = re2::StringPiece(list.data(), list.size());
  re2::StringPiece address;
  while (out.size() < kMaxDevices && re2::RE2::FindAndConsume(&input, kSocketItem, &index, &name, &address)) {
    int i = bounded_number(sv(index), 6);
    // `addr<port>`: at most 64 characters before a port of at most 6 digits.
    std::string_view addr = sv(address);
    size_t open = addr.rfind('<');
    if (i < 0 || name.size() > kMaxName || open > kMaxName ||
        bounded_number(addr.substr(open + 1, addr.size() - open - 2), 6) < 0) {
      continue;
    }
    out.push_back({i, sv(name), -1, {}, sv(address)});
  }
  return out;
}

SocketReach socket_reach(std::string_view interface, std::string_view address) {
  address = address.substr(0, address.find('<'));
  address = address.substr(0, address.find('%'));  // an IPv6 scope
  auto lower_starts = [](std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
      char c = s[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != prefix[i]) return false;
    }
    return true;
  };
  SocketReach r;
  r.ipv6 = address.find(':') != std::string_view::npos;
  r.loopback = address.starts_with("127.") || address == "::1";
  // fe80::/10 is fe80 to febf.
  r.link_local = address.starts_with("169.254.") ||
                 (address.size() > 4 && address[4] == ':' &&
                  (lower_starts(address, "fe8") || lower_starts(address, "fe9") || lower_starts(address, "fea") ||
                   lower_starts(address, "feb")));
  // Bridges whose addresses the host NATs for its containers or VMs. Overlay
  // interfaces (flannel, cni, calico) route between hosts and are not here.
  for (std::string_view prefix : {"docker", "br-", "veth", "virbr", "lxcbr", "podman"}) {
    r.host_bridge |= interface.starts_with(prefix);
  }
  return r;
}

uint32_t count_net_devices(std::string_view list) {
  // `[0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]`: an index at brace depth 0 (the
  // 2.20-2.23 merged NICs print `[0]={[0] mlx5_0:1/IB, ...}`).
  uint32_t n = 0;
  int depth = 0;
  for (size_t i = 0; i < list.size() && list[i] != ';'; ++i) {
    char c = list[i];
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == '[' && depth == 0 && i + 1 < list.size() && list[i + 1] >= '0' && list[i + 1] <= '9') ++n;
  }
  return n;
}

std::string_view socket_interface(std::string_view text, std::string_view address) {
  if (address.data() <= text.data() || address.data() > text.data() + text.size()) return {};
  size_t colon = static_cast<size_t>(address.data() - text.data()) - 1;
  if (text[colon] != ':') return {};
  size_t start = colon;
  while (start > 0 && text[start - 1] != ' ' && text[start - 1] != ']') --start;
  return text.substr(start, colon - start);
}

std::vector<std::string_view> socket_addresses(std::string_view text) {
  std::vector<std::string_view> out;
  auto ip_char = [](char c) { return (c >= '0' && c <= '9') || c == '.'; };
  size_t pos = 0;
  while ((pos = text.find('<', pos)) != std::string_view::npos) {
    size_t start = pos;
    while (start > 0 && ip_char(text[start - 1])) --start;
    std::string_view ip = text.substr(start, pos - start);
    ++pos;
    if (ip.size() < 7 || std::count(ip.begin(), ip.end(), '.') != 3 || start == 0 || text[start - 1] != ':') continue;
    out.push_back(ip);
  }
  return out;
}

SocketEndpoint first_listed_endpoint(std::string_view text) {
  size_t pos = text.find("Using");
  if (pos == std::string_view::npos) return {};
  std::string_view rest = text.substr(pos + 5);
  rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
  if (rest.starts_with('[')) {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return {};
    rest.remove_prefix(close + 1);
  }
  size_t colon = rest.find(':');
  size_t port = rest.find('<');
  size_t space = rest.find(' ');
  // An interface name has no space; the address runs to its `<port>`.
  if (colon == 0 || colon == std::string_view::npos || port == std::string_view::npos || port <= colon + 1 ||
      space < port) {
    return {};
  }
  return {rest.substr(0, colon), rest.substr(colon + 1, port - colon - 1)};
}

}  // namespace nd
