// ND4015 probe-read-failed: sysfs file unreadable or with unexpected contents.
#include "checks/hardware/hardware_rules.h"

#include <fmt/format.h>

namespace nd {
namespace {

class ProbeReadFailed final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4015", "probe-read-failed", Severity::Warning, Needs::Node,
                                  "sysfs file unreadable or with unexpected contents"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void ProbeReadFailed::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& i : node.issues) {
    Finding f = make_finding(kInfo, fmt::format("cannot use {}: {}", i.path, i.error));
    add_evidence(f, i.path, i.error);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_probe_read_failed() { return std::make_unique<ProbeReadFailed>(); }

}  // namespace nd
