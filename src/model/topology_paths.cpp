#include "src/model/topology_paths.h"

#include <array>

#include "src/model/job_model.h"
#include "src/util/numbers.h"

namespace nd {

std::optional<int> pci_path_rank(std::string_view link) {
  static constexpr std::array<std::string_view, 5> kOrder = {"PIX", "PXB", "PHB", "NODE", "SYS"};
  for (size_t i = 0; i < kOrder.size(); ++i) {
    if (link == kOrder[i]) return static_cast<int>(i);
  }
  return std::nullopt;
}

bool is_nvlink(std::string_view link) { return nvlink_count(link).has_value(); }

std::optional<uint32_t> nvlink_count(std::string_view link) {
  if (!link.starts_with("NV")) return std::nullopt;
  auto n = parse_u32(link.substr(2));
  return n && *n > 0 ? n : std::nullopt;
}

const TopologyFact* topology_of_host(const GpuSide& side, std::string_view host) {
  const TopologyFact* unnamed = nullptr;
  bool ambiguous = false;
  for (const auto& t : side.topologies) {
    if (t.host.empty()) {
      ambiguous = ambiguous || (unnamed && unnamed->matrix.links != t.matrix.links);
      if (!unnamed) unnamed = &t;
    } else if (!host.empty() && same_host_name(t.host, host)) {
      return &t;
    }
  }
  return ambiguous ? nullptr : unnamed;
}

std::string topo_link(const TopoMatrix& m, const std::string& a, const std::string& b) {
  auto row = m.links.find(a);
  if (row == m.links.end()) return {};
  auto cell = row->second.find(b);
  return cell == row->second.end() ? std::string() : cell->second;
}

std::optional<NicPath> nearest_nic(const TopoMatrix& m, const std::string& gpu) {
  auto row = m.links.find(gpu);
  if (row == m.links.end()) return std::nullopt;
  std::optional<NicPath> best;
  std::optional<int> best_rank;
  for (const auto& device : m.devices) {  // column order: ties go to the first
    if (device.starts_with("GPU")) continue;
    auto cell = row->second.find(device);
    if (cell == row->second.end()) continue;
    auto rank = pci_path_rank(cell->second);
    if (rank && (!best_rank || *rank < *best_rank)) {
      best_rank = rank;
      best = NicPath{device, cell->second};
    }
  }
  return best;
}

}  // namespace nd
