// ND6003 gpu-shared: two or more compute processes share one GPU.
#include <algorithm>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"
#include "checks/gpu/process_spans_gpus.h"

namespace nd {
namespace {

class GpuShared final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6003", "gpu-shared", Severity::Warning, Needs::Log,
                                  "two or more compute processes share one GPU"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

constexpr size_t kListed = 4;

// The pids whose own GPU gpus[i] is, largest memory first, and their rows.
std::vector<std::pair<const HostProcesses::Pid*, const GpuProcessFact*>> sharing(const HostProcesses& procs, size_t i) {
  std::vector<std::pair<const HostProcesses::Pid*, const GpuProcessFact*>> out;
  for (const auto* p : procs.residents(i)) {
    for (const auto& e : p->entries) {
      if (e.gpu == i) out.emplace_back(p, e.fact);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return *a.second->mem_mib > *b.second->mem_mib; });
  return out;
}

// One GPU shared without MPS: a warning naming its processes. GPUs shared
// through MPS: one note.
void report(const CheckContext& ctx, const RuleInfo& info, HostGpus gpus, const HostProcesses& procs,
            const std::vector<size_t>& shared, FindingSink& out) {
  const GpuTrack& first = gpus[shared.front()];
  bool mps = mps_on(first);
  std::string message;
  std::vector<LineRef> refs;
  if (shared.size() == 1) {
    auto rows = sharing(procs, shared[0]);
    std::string listed;
    for (size_t r = 0; r < std::min(rows.size(), kListed); ++r) {
      listed += fmt::format("{}pid {} {}", r ? ", " : "", rows[r].first->pid, format_mib(rows[r].second->mem_mib));
    }
    if (rows.size() > kListed) listed += fmt::format(" and {} more", rows.size() - kListed);
    for (const auto& row : rows) refs.push_back(row.second->ref);
    message = mps ? fmt::format(
                        "{} {}: {} compute processes share it through MPS ({}): sharing is deliberate; "
                        "nothing to do if the job meant to run several processes per GPU",
                        host_label(first), gpu_label(first), rows.size(), listed)
                  : fmt::format(
                        "{} {}: {} compute processes share it ({}): ranks compete for SMs and memory; "
                        "run one process per GPU (check CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)",
                        host_label(first), gpu_label(first), rows.size(), listed);
  } else {
    std::string listed;
    for (size_t k = 0; k < std::min(shared.size(), kListed); ++k) {
      auto rows = sharing(procs, shared[k]);
      listed += fmt::format("{}{} {} processes", k ? ", " : "", gpu_label(gpus[shared[k]]), rows.size());
      refs.push_back(rows.front().second->ref);
    }
    if (shared.size() > kListed) listed += fmt::format(" and {} more", shared.size() - kListed);
    message = fmt::format(
        "{}: {} GPUs shared through MPS ({}): sharing is deliberate; nothing to do if the job "
        "meant to run several processes per GPU",
        host_label(first), shared.size(), listed);
  }
  Finding f = mps ? make_finding(info, std::move(message), Severity::Info) : make_finding(info, std::move(message));
  if (!first.host.empty()) f.hosts.push_back(first.host);
  std::sort(refs.begin(), refs.end());
  for (LineRef ref : refs) cite(ctx.model, f, ref, ctx.options.max_evidence);
  f.subject = shared.size() == 1 ? host_label(first) + " " + gpu_label(first) : host_label(first) + " MPS";
  out.add(std::move(f));
}

}  // namespace

void GpuShared::check(const CheckContext& ctx, FindingSink& out) const {
  for (HostGpus gpus : gpus_by_host(ctx.model.gpu_side)) {
    HostProcesses procs(gpus);
    // Sharing through MPS is deliberate: one note for the host, after its warnings.
    std::vector<size_t> mps;
    for (size_t i = 0; i < gpus.size(); ++i) {
      // A rank's stray context here is ND6005's; it does not make a second rank.
      if (procs.residents(i).size() < 2) continue;
      if (mps_on(gpus[i])) {
        mps.push_back(i);
      } else {
        report(ctx, kInfo, gpus, procs, {i}, out);
      }
    }
    if (!mps.empty()) report(ctx, kInfo, gpus, procs, mps, out);
  }
}

std::unique_ptr<Rule> make_gpu_shared() { return std::make_unique<GpuShared>(); }

}  // namespace nd
