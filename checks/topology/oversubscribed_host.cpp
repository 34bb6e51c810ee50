#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/topology/placement.h"
#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class OversubscribedHost final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2007", "oversubscribed-host", Severity::Warning, Needs::Log,
                                  "a host runs more NCCL processes than it has distinct GPUs in use"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// Counts NCCL processes per host (over all communicators) against the
// distinct GPUs those processes use. One process may drive several GPUs
// (ncclCommInitAll), so only more processes than GPUs is a finding.
void OversubscribedHost::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  struct HostUse {
    std::set<uint64_t> pids;
    std::set<GpuKey> gpus;
    std::vector<LineRef> lines;
    bool unknown_gpu = false;
  };
  std::map<uint32_t, HostUse> hosts;
  for (const auto& comm : m.comms) {
    if (comm.synthetic) continue;
    for (const auto& r : comm.ranks) {
      if (r.host == kNoHost || r.pid == 0 || r.init_line.line == 0) continue;
      HostUse& h = hosts[r.host];
      auto k = gpu_of(r);
      if (!k) {
        h.unknown_gpu = true;
        continue;
      }
      if (h.pids.insert(r.pid).second && h.lines.size() < 8) h.lines.push_back(r.init_line);
      h.gpus.insert(*k);
    }
  }
  for (const auto& [host, use] : hosts) {
    if (use.unknown_gpu || use.pids.size() <= use.gpus.size()) continue;
    Finding f = make_finding(kInfo, fmt::format("{} runs {} NCCL processes on {} distinct GPU{}", m.host_name(host),
                                                use.pids.size(), use.gpus.size(), use.gpus.size() == 1 ? "" : "s"));
    f.hosts = {m.host_name(host)};
    f.evidence = evidence_of(m, use.lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_oversubscribed_host() { return std::make_unique<OversubscribedHost>(); }

}  // namespace nd
