// ND4014 firmware-mismatch: HCAs of one type run different firmware.
#include "checks/hardware/hardware_rules.h"

#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nd {
namespace {

class FirmwareMismatch final : public NodeRule {
 public:
  static constexpr RuleInfo kInfo{"ND4014", "firmware-mismatch", Severity::Warning, Needs::Node,
                                  "HCAs of one type run different firmware"};
  const RuleInfo& info() const override { return kInfo; }

 protected:
  void check_node(const CheckContext& ctx, const NodeSnapshot& node, FindingSink& out) const override;
};

}  // namespace

void FirmwareMismatch::check_node(const CheckContext&, const NodeSnapshot& node, FindingSink& out) const {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> by_type;  // type → fw → names
  for (const auto& h : node.hcas) {
    if (!h.fw_ver.empty()) by_type[h.hca_type][h.fw_ver].push_back(h.name);
  }
  for (const auto& [type, fws] : by_type) {
    if (fws.size() < 2) continue;
    std::vector<std::string> parts;
    for (const auto& [fw, names] : fws) parts.push_back(fmt::format("{} on {}", fw, fmt::join(names, ",")));
    out.add(make_finding(kInfo, fmt::format("{} HCAs run different firmware: {}",
                         type.empty() ? "same-type" : type, fmt::join(parts, "; "))));
  }
}

std::unique_ptr<Rule> make_firmware_mismatch() { return std::make_unique<FirmwareMismatch>(); }

}  // namespace nd
