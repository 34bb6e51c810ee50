// ND4009 acs-redirect: ACS redirect on a bridge between a GPU and a NIC.
#include "checks/hardware/hardware_rules.h"

#include <set>

#include <fmt/format.h>

namespace nd {
namespace {

class AcsRedirect final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4009", "acs-redirect", Severity::Error, Needs::Node,
                                  "ACS redirect on a bridge between a GPU and a NIC"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void AcsRedirect::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  std::set<std::string> reported, unknown;
  for (const auto& p : node.paths) {
    for (const auto& b : p.bridges) {
      if (b.state == "redirect" && reported.insert(b.bdf).second) {
        Finding f = make_finding(kInfo, fmt::format("ACS redirects peer traffic at bridge {} between GPU {} "
                                 "and {}: GPUDirect traffic goes through the root complex (slow or hangs); disable "
                                 "ACS in the BIOS or with setpci -s {} ECAP_ACS+0x6.w=0000", b.bdf, p.gpu, p.hca,
                                 b.bdf));
        add_evidence(f, "bus/pci/devices/" + b.bdf + "/config", b.detail);
        out.add(std::move(f));
      } else if (b.state == "unknown, needs root") {
        unknown.insert(b.bdf);
      }
    }
  }
  if (!unknown.empty()) {
    out.add(make_finding(kInfo, fmt::format("ACS on {} bridge(s) between GPUs and NICs is unknown: reading "
                         "PCI extended config space needs root (run the probe as root to check)", unknown.size()),
                         Severity::Info));
  }
}

std::unique_ptr<Rule> make_acs_redirect() { return std::make_unique<AcsRedirect>(); }

}  // namespace nd
