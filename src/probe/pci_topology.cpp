#include "src/probe/pci_topology.h"

#include <algorithm>

#include <fmt/format.h>

namespace nd {
namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

constexpr uint16_t kAcsCapId = 0x000d;
constexpr uint16_t kAcsReqRedir = 1u << 2;
constexpr uint16_t kAcsCmpltRedir = 1u << 3;

uint32_t le32(std::string_view s, size_t off) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(s[off + i])); };
  return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}

}  // namespace

std::string path_type_str(PathType t) {
  switch (t) {
    case PathType::PIX: return "PIX";
    case PathType::PXB: return "PXB";
    case PathType::PHB: return "PHB";
    case PathType::NODE: return "NODE";
    case PathType::SYS: return "SYS";
    case PathType::Unknown: return "unknown";
  }
  return fmt::format("unknown ({})", static_cast<int>(t));
}

std::optional<PathType> path_type_from_str(std::string_view s) {
  for (PathType t : {PathType::PIX, PathType::PXB, PathType::PHB, PathType::NODE, PathType::SYS,
                     PathType::Unknown}) {
    if (path_type_str(t) == s) return t;
  }
  return std::nullopt;
}

bool is_bdf(std::string_view s) {
  // dddd:bb:dd.f
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11}) {
    if (!is_hex(s[i])) return false;
  }
  return true;
}

std::optional<PciChain> parse_pci_path(std::string_view path) {
  PciChain chain;
  std::vector<std::string> bdfs;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    std::string_view comp = path.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    if (comp.starts_with("pci") && comp.size() > 3 && bdfs.empty()) {
      chain.host_bridge = std::string(comp);
    } else if (is_bdf(comp)) {
      if (chain.host_bridge.empty()) return std::nullopt;
      bdfs.emplace_back(comp);
    } else if (!bdfs.empty()) {
      break;  // past the device (e.g. ".../infiniband/mlx5_0")
    }
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  if (bdfs.empty()) return std::nullopt;
  chain.device = bdfs.back();
  bdfs.pop_back();
  chain.bridges = std::move(bdfs);
  return chain;
}

static size_t common_bridges(const PciChain& a, const PciChain& b) {
  size_t c = 0;
  while (c < a.bridges.size() && c < b.bridges.size() && a.bridges[c] == b.bridges[c]) ++c;
  return c;
}

PathType classify_path(const PciChain& a, int numa_a, const PciChain& b, int numa_b) {
  if (numa_a >= 0 && numa_b >= 0 && numa_a != numa_b) return PathType::SYS;
  if (a.host_bridge != b.host_bridge) return PathType::NODE;
  size_t c = common_bridges(a, b);
  if (c == 0) return PathType::PHB;
  if (a.bridges.size() - c <= 1 && b.bridges.size() - c <= 1) return PathType::PIX;
  return PathType::PXB;
}

std::vector<std::string> bridges_between(const PciChain& a, const PciChain& b) {
  std::vector<std::string> out;
  if (a.host_bridge != b.host_bridge) {
    out = a.bridges;
    out.insert(out.end(), b.bridges.begin(), b.bridges.end());
    return out;
  }
  size_t c = common_bridges(a, b);
  size_t from = c == 0 ? 0 : c - 1;
  for (size_t i = from; i < a.bridges.size(); ++i) out.push_back(a.bridges[i]);
  for (size_t i = c; i < b.bridges.size(); ++i) out.push_back(b.bridges[i]);
  return out;
}

std::string acs_state_str(AcsState s) {
  switch (s) {
    case AcsState::NoCapability: return "no ACS capability";
    case AcsState::Clear: return "no redirect";
    case AcsState::Redirect: return "redirect";
    case AcsState::Unknown: return "unknown, needs root";
  }
  return fmt::format("unknown ({})", static_cast<int>(s));
}

std::string acs_control_str(uint16_t c) {
  static constexpr const char* kNames[] = {"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
                                           "UpstreamFwd", "EgressCtrl", "DirectTrans"};
  std::string out;
  for (int bit = 0; bit < 7; ++bit) {
    if (!out.empty()) out += ' ';
    out += kNames[bit];
    out += (c >> bit) & 1 ? '+' : '-';
  }
  return out;
}

AcsInfo acs_from_config(std::string_view config) {
  AcsInfo info;
  if (config.size() <= 0x100) {
    info.state = AcsState::Unknown;
    info.detail = fmt::format("config space shows {} bytes (extended capabilities need root)", config.size());
    return info;
  }
  size_t off = 0x100;
  // The list is a linked list in untrusted data: bound the walk.
  for (int hops = 0; hops < 64 && off >= 0x100 && off + 8 <= config.size(); ++hops) {
    uint32_t hdr = le32(config, off);
    if (hdr == 0 || hdr == 0xffffffffu) break;
    if ((hdr & 0xffff) == kAcsCapId) {
      uint16_t control = static_cast<uint16_t>(le32(config, off + 4) >> 16);
      info.control = control;
      info.state = (control & (kAcsReqRedir | kAcsCmpltRedir)) ? AcsState::Redirect : AcsState::Clear;
      info.detail = acs_control_str(control);
      return info;
    }
    size_t next = (hdr >> 20) & 0xffc;
    if (next == 0 || next <= off) break;
    off = next;
  }
  info.state = AcsState::NoCapability;
  info.detail = "no ACS capability";
  return info;
}

}  // namespace nd
