// ND4011 port-error-counters: non-zero port error counters.
#include "checks/hardware/hardware_rules.h"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/hardware/hardware_util.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

class PortErrorCounters final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4011", "port-error-counters", Severity::Warning, Needs::Node,
                                  "non-zero port error counters"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void PortErrorCounters::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  for (const auto& h : node.hcas) {
    for (const auto& p : h.ports) {
      std::vector<std::string> bad;
      for (const auto& [name, value] : p.counters) {
        if (value != 0) bad.push_back(fmt::format("{}={}{}", name, value, counter_saturated(value) ? " (saturated)" : ""));
      }
      if (bad.empty()) continue;
      Finding f = make_finding(kInfo, fmt::format("{} error counters are not zero: {} (flapping link or bad "
                               "cable; compare again after clearing with perfquery -x)", port_name(h, p),
                               fmt::join(bad, ", ")));
      for (const auto& [name, value] : p.counters) {
        if (value != 0) add_evidence(f, port_dir(h, p) + "/counters/" + name, std::to_string(value));
      }
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_port_error_counters() { return std::make_unique<PortErrorCounters>(); }

}  // namespace nd
