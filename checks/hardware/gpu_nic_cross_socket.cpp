// ND4010 gpu-nic-cross-socket: a GPU whose nearest NIC is across the CPU socket (SYS).
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

namespace nd {
namespace {

class GpuNicCrossSocket final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4010", "gpu-nic-cross-socket", Severity::Warning, Needs::Node,
                                  "a GPU whose nearest NIC is across the CPU socket (SYS)"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void GpuNicCrossSocket::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& g : node.gpus) {
    if (g.nearest_path != "SYS") continue;
    Finding f = make_finding(kInfo, fmt::format("GPU {} (NUMA {}) has no NIC on its socket: nearest is {} "
                             "(SYS), so its inter-node traffic crosses the CPU interconnect without GPUDirect",
                             g.pci_bdf, g.numa_node, g.nearest_hca));
    add_evidence(f, "bus/pci/devices/" + g.pci_bdf + "/numa_node", std::to_string(g.numa_node));
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_gpu_nic_cross_socket() { return std::make_unique<GpuNicCrossSocket>(); }

}  // namespace nd
