// ND4007 gdr-not-ready: GPUDirect RDMA not ready (no peermem, no dma-buf).
#include "checks/hardware/hardware_rules.h"

namespace nd {
namespace {

class GdrNotReady final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4007", "gdr-not-ready", Severity::Error, Needs::Node,
                                  "GPUDirect RDMA not ready (no peermem, no dma-buf)"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void GdrNotReady::check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const {
  bool wanted = ctx.options.expect.gdr.value_or(!node.gpus.empty() && !node.hcas.empty());
  if (!wanted || node.gdr.ready()) return;
  std::string msg = "GPUDirect RDMA is not ready: no nvidia_peermem / nv_peer_mem module";
  msg += node.gdr.dmabuf ? " and the RDMA stack refuses dma-buf" : " and dma-buf support was not detected";
  msg += "; NCCL will stage GPU buffers through host memory";
  if (node.gdr.peer_memory_api == false) {
    msg += " (this kernel's ib_core lacks the peer-memory API nvidia_peermem needs: use dma-buf, i.e. the open "
           "GPU kernel modules and rdma-core >= 34, or MLNX_OFED/DOCA)";
  } else {
    msg += " (modprobe nvidia-peermem)";
  }
  Finding f = make_finding(kInfo, msg);
  add_evidence(f, "module/nvidia_peermem/version", "(missing)");
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_gdr_not_ready() { return std::make_unique<GdrNotReady>(); }

}  // namespace nd
