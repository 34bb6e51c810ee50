#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class SharedCores final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2012", "shared-cores", Severity::Warning, Needs::Log,
                                  "ranks of one host are bound to the same CPUs, more ranks than CPUs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// Ranks with the same CPU set on one host. Sharing a socket or NUMA node
// (`--map-by socket`, `--bind-to socket`) is by design, so a group counts
// only when it has more ranks than CPUs, or (Open MPI 3/4, whose map shows
// whole sockets) when the shared set is not a whole socket.
void SharedCores::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  struct Group {
    std::vector<const BindingRecord*> ranks;
  };
  std::map<std::tuple<BindingSource, uint32_t, CpuUnit, std::string>, Group> groups;
  for (const auto& b : m.bindings) {
    if (b.unbound || b.cpus.empty()) continue;
    groups[{b.source, b.host, b.unit, b.cpus.to_string()}].ranks.push_back(&b);
  }
  for (const auto& [key, g] : groups) {
    if (g.ranks.size() < 2) continue;
    const BindingRecord& first = *g.ranks.front();
    bool crowded = g.ranks.size() > first.cpus.count();
    bool core_level = first.source == BindingSource::OpenMpi && !first.whole_sockets;
    if (!crowded && !core_level) continue;
    const auto& [source, host, unit, cpus] = key;
    std::vector<uint32_t> tasks;
    std::vector<LineRef> lines;
    for (const auto* b : g.ranks) {
      tasks.push_back(b->task);
      if (lines.size() < 8) lines.push_back(b->line);
    }
    std::string list = ranks_text(tasks);
    list = list.substr(list.find(' ') + 1);
    const char* unit_name = unit == CpuUnit::OsCpu        ? "CPU"
                            : unit == CpuUnit::LogicalCore ? "core"
                                                           : "hardware thread";
    Finding f = make_finding(
        kInfo, fmt::format("{} binds {} {}{} to the same {}{} {} ({} ranks on {} {}{})",
                           binding_source_name(source), source == BindingSource::Slurm ? "tasks" : "MPI ranks", list,
                           host == kNoHost ? "" : " on " + m.host_name(host), unit_name,
                           first.cpus.count() == 1 ? "" : "s", cpus, g.ranks.size(), first.cpus.count(), unit_name,
                           first.cpus.count() == 1 ? "" : "s"));
    if (host != kNoHost) f.hosts = {m.host_name(host)};
    f.evidence = evidence_of(m, lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_shared_cores() { return std::make_unique<SharedCores>(); }

}  // namespace nd
