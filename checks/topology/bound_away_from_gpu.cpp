#include <algorithm>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class BoundAwayFromGpu final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2013", "bound-away-from-gpu", Severity::Warning, Needs::Log,
                                  "a rank is bound to CPUs that are not local to its GPU"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

std::string process_text(const JobModel& m, uint32_t host, uint64_t pid) {
  for (const auto& comm : m.comms) {
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      if (comm.ranks[r].host == host && comm.ranks[r].pid == pid) {
        // A line without `host:pid:tid` has no pid to show.
        if (is_synthetic_pid(pid)) return fmt::format("rank {} ({})", r, m.process_name(host, pid));
        return fmt::format("rank {} (pid {}) on {}", r, pid, m.host_name(host));
      }
    }
  }
  if (is_synthetic_pid(pid)) return m.process_name(host, pid);
  return fmt::format("pid {} on {}", pid, m.host_name(host));
}

}  // namespace

// Needs both sets in OS CPU ids: NCCL 2.28+ prints the GPU's local CPUs and
// the process's binding in one line (and "empty, ignoring" when they do not
// meet); a Slurm mask can stand in for the binding when NCCL printed only the
// GPU side. Open MPI's logical ids are not compared with OS ids.
void BoundAwayFromGpu::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  for (const auto& a : m.affinities) {
    if (!a.gpu_set || a.gpu_set->empty()) continue;
    std::optional<CpuSet> bound = a.cpu_set;
    std::vector<LineRef> lines{a.line};
    if (!bound) {
      for (const auto& b : m.bindings) {
        if (b.source == BindingSource::Slurm && !b.unbound && b.host == a.host && b.pid == a.pid) {
          bound = b.cpus;
          lines.push_back(b.line);
          break;
        }
      }
    }
    if (!bound || bound->empty() || bound->intersects(*a.gpu_set)) continue;
    Finding f = make_finding(kInfo, fmt::format("{} is bound to CPUs {}, none of them local to its GPU {} (local CPUs "
                                                "{}): host memory and proxy threads sit on the far socket",
                                                process_text(m, a.host, a.pid), bound->to_string(), a.gpu,
                                                a.gpu_set->to_string()));
    f.hosts = {m.host_name(a.host)};
    f.evidence = evidence_of(m, lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_bound_away_from_gpu() { return std::make_unique<BoundAwayFromGpu>(); }

}  // namespace nd
