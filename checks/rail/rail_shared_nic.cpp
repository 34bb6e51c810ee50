#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/rail/rail_rules.h"
#include "src/model/rail_map.h"

namespace nd {
namespace {

class RailSharedNic final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2100", "rail-shared-nic", Severity::Warning, Needs::Log,
                                  "two or more GPUs of a host send inter-node traffic through one NIC while "
                                  "another NIC of that host carries none"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

std::string gpu_list(const std::vector<int>& gpus) {
  std::vector<std::string> names;
  for (int g : gpus) names.push_back(g >= 0 ? fmt::format("GPU {}", g) : "a GPU of unknown index");
  if (names.size() == 2) return names[0] + " and " + names[1];
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

// One finding per pattern (which GPUs share which NIC, which NICs sit idle);
// hosts with the same pattern are folded into one finding.
void RailSharedNic::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  struct Group {
    std::vector<std::string> hosts;
    std::vector<LineRef> lines;
  };
  std::map<std::string, Group> groups;
  for (const HostRails& h : build_rail_map(m)) {
    if (h.idle_devs.empty()) continue;
    std::map<std::pair<std::string, int>, std::vector<const RailUse*>> by_nic;
    for (const auto& u : h.uses) by_nic[{u.net, u.dev}].push_back(&u);
    std::vector<std::string> idle;
    for (int d : h.idle_devs) idle.push_back(nic_name(m, h.host, h.listed->net, d));
    for (const auto& [nic, uses] : by_nic) {
      std::set<int> gpus;
      for (const RailUse* u : uses) gpus.insert(u->gpu);
      if (gpus.size() < 2) continue;
      std::string what = fmt::format("{} send inter-node traffic through NIC {} (NET/{}/{}) while {} {} none",
                                     gpu_list({gpus.begin(), gpus.end()}), uses.front()->nic, nic.first, nic.second,
                                     fmt::join(idle, ", "), idle.size() == 1 ? "carries" : "carry");
      Group& g = groups[what];
      g.hosts.push_back(m.host_name(h.host));
      for (const RailUse* u : uses) {
        if (g.lines.size() < 16 && !u->lines.empty()) g.lines.push_back(u->lines.front());
      }
    }
  }
  for (auto& [what, g] : groups) {
    constexpr size_t kShown = 4;
    std::string where = g.hosts.size() == 1 ? g.hosts[0]
                        : g.hosts.size() <= kShown
                            ? fmt::format("{} hosts ({})", g.hosts.size(), fmt::join(g.hosts, ", "))
                            : fmt::format("{} hosts ({}, ...)", g.hosts.size(),
                                          fmt::join(g.hosts.begin(), g.hosts.begin() + kShown, ", "));
    Finding f = make_finding(kInfo, fmt::format("{}: {}", where, what));
    f.hosts = g.hosts;
    std::sort(g.lines.begin(), g.lines.end());
    for (const LineRef& ref : g.lines) {
      if (f.evidence.size() >= ctx.options.max_evidence) break;
      auto text = m.text_of(ref);
      f.evidence.push_back({m.files[ref.file], ref.line, text ? std::string(*text) : std::string()});
    }
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_rail_shared_nic() { return std::make_unique<RailSharedNic>(); }

}  // namespace nd
