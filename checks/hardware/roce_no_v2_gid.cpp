// ND4006 roce-no-v2-gid: RoCE port without a RoCE v2 IPv4 GID.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

#include "checks/hardware/hardware_util.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

class RoceNoV2Gid final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4006", "roce-no-v2-gid", Severity::Error, Needs::Node,
                                  "RoCE port without a RoCE v2 IPv4 GID"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void RoceNoV2Gid::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      if (p.link_layer != "roce" || p.state != kPortActive) continue;
      bool v2 = false, v2_ipv4 = false;
      for (const auto& g : p.gids) {
        if (roce_version(g.type) != 2) continue;
        v2 = true;
        v2_ipv4 |= gid_is_ipv4_mapped(g.gid);
      }
      if (v2_ipv4) continue;
      // NCCL's default (NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) needs both.
      Finding f = make_finding(kInfo, v2
          ? fmt::format("{} has RoCE v2 GIDs but none with an IPv4 address: assign an IPv4 address to {} or set "
                        "NCCL_IB_ADDR_FAMILY=AF_INET6", port_name(h, p), h.netdevs.empty() ? "its netdev" : h.netdevs[0])
          : fmt::format("{} has no RoCE v2 GID (only RoCE v1 / IB): NCCL picks RoCE v2 by default", port_name(h, p)));
      add_evidence(f, port_dir(h, p) + "/gid_attrs/types", fmt::format("{} non-zero GIDs", p.gids.size()));
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_roce_no_v2_gid() { return std::make_unique<RoceNoV2Gid>(); }

}  // namespace nd
