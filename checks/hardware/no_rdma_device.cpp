// ND4001 no-rdma-device: no RDMA device on the node: NCCL falls back to sockets.
#include "checks/hardware/hardware_rules.h"

namespace nd {
namespace {

class NoRdmaDevice final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4001", "no-rdma-device", Severity::Error, Needs::Node,
                                  "no RDMA device on the node: NCCL falls back to sockets"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void NoRdmaDevice::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  if (!node.hcas.empty() || ctx.options.expect.hcas == 0u) return;
  Finding f = make_finding(kInfo, "no RDMA device in /sys/class/infiniband: NCCL will use TCP sockets between nodes");
  if (node.verbs.status == "not-installed") f.message += " (and rdma-core is not installed)";
  add_evidence(f, "class/infiniband", "(empty)");
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_no_rdma_device() { return std::make_unique<NoRdmaDevice>(); }

}  // namespace nd
