// ND4002 verbs-unusable: RDMA device in sysfs that libibverbs cannot use.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

namespace nd {
namespace {

class VerbsUnusable final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4002", "verbs-unusable", Severity::Error, Needs::Node,
                                  "RDMA device in sysfs that libibverbs cannot use"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void VerbsUnusable::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  if (node.hcas.empty() || node.verbs.status == "skipped" || node.verbs.status == "not-captured") return;
  const std::string& st = node.verbs.status;
  if (st == "not-installed" || st == "backend-missing" || st == "backend-broken" || st == "error") {
    Finding f = make_finding(kInfo, fmt::format("{} RDMA device(s) in sysfs but libibverbs is not usable: {}",
                                                node.hcas.size(), node.verbs.message));
    out.add(std::move(f));
    return;
  }
  if (!node.uverbs_abi) {
    Finding f = make_finding(kInfo, "no ib_uverbs: /sys/class/infiniband_verbs is missing (modprobe ib_uverbs)");
    add_evidence(f, "class/infiniband_verbs/abi_version", "(missing)");
    out.add(std::move(f));
  }
  for (const auto& h : node.hcas) {
    if (h.verbs_state == "ok" || h.verbs_state.empty()) continue;
    std::string why = h.verbs_state == "not listed"
        ? (h.has_uverbs ? "libibverbs does not list it (no user-space provider such as libmlx5 for this device, "
                          "or /dev/infiniband/uverbsN is not accessible in this container)"
                        : "it has no uverbs character device")
        : h.verbs_state;
    out.add(make_finding(kInfo, fmt::format("{} is in sysfs but not usable through verbs: {}", h.name, why)));
  }
}

std::unique_ptr<Rule> make_verbs_unusable() { return std::make_unique<VerbsUnusable>(); }

}  // namespace nd
