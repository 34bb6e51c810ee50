#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class RankUnbound final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2011", "rank-unbound", Severity::Warning, Needs::Log,
                                  "the launcher reports a rank that is not bound to CPUs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// `MCW rank N is not bound (or bound to all available processors)` (Open MPI
// 3/4), `Rank N is not bound ...` (5.x), `cpu-bind=NONE|NULL` (Slurm).
void RankUnbound::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::map<std::pair<BindingSource, uint32_t>, std::pair<std::vector<uint32_t>, std::vector<LineRef>>> groups;
  for (const auto& b : m.bindings) {
    if (!b.unbound) continue;
    auto& g = groups[{b.source, b.host}];
    g.first.push_back(b.task);
    if (g.second.size() < 8) g.second.push_back(b.line);
  }
  for (const auto& [key, g] : groups) {
    const auto& [source, host] = key;
    std::string who = source == BindingSource::Slurm ? "task" : "MPI rank";
    std::string list = ranks_text(g.first);
    list = list.substr(list.find(' ') + 1);
    Finding f = make_finding(kInfo, fmt::format("{} reports {}{} {}{} not bound to CPUs (free to run on any core)",
                                                binding_source_name(source), who, g.first.size() == 1 ? "" : "s", list,
                                                host == kNoHost ? "" : " on " + m.host_name(host)));
    if (host != kNoHost) f.hosts = {m.host_name(host)};
    f.evidence = evidence_of(m, g.second, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_rank_unbound() { return std::make_unique<RankUnbound>(); }

}  // namespace nd
