#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/topology/placement.h"
#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class DuplicateGpu final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2006", "duplicate-gpu", Severity::Error, Needs::Log,
                                  "two ranks of one communicator use the same GPU"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void DuplicateGpu::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  for (const auto& comm : m.comms) {
    if (comm.synthetic) continue;
    std::map<GpuKey, std::vector<uint32_t>> users;
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      if (auto k = gpu_of(comm.ranks[r])) users[*k].push_back(r);
    }
    for (const auto& [gpu, ranks] : users) {
      if (ranks.size() < 2) continue;
      Finding f = make_finding(kInfo, fmt::format("{} on {} all use the GPU with {}", ranks_text(ranks),
                                                  m.host_name(gpu.host), gpu_text(gpu)));
      f.comm = comm.key;
      f.hosts = {m.host_name(gpu.host)};
      f.ranks = ranks;
      std::vector<LineRef> lines;
      for (uint32_t r : ranks) lines.push_back(comm.ranks[r].init_line);
      f.evidence = evidence_of(m, lines, ctx.options.max_evidence);
      out.add(std::move(f));
    }
  }
  std::set<std::pair<uint32_t, std::string>> seen;
  for (const auto& w : m.warnings) {
    // NCCL's own verdict, in the words of any generation.
    if (w.cls.kind != WarnKind::DuplicateGpu || !seen.emplace(w.host, w.message).second) continue;
    Finding f = make_finding(kInfo, fmt::format("NCCL on {} reports two ranks on one GPU: {}", m.host_name(w.host),
                                                w.message));
    f.hosts = {m.host_name(w.host)};
    f.evidence = evidence_of(m, {w.line}, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_duplicate_gpu() { return std::make_unique<DuplicateGpu>(); }

}  // namespace nd
