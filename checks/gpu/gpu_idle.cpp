// ND6004 gpu-idle: a GPU runs nothing while the host's other GPUs work.
#include <algorithm>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"
#include "checks/gpu/process_spans_gpus.h"
#include "src/util/text.h"

namespace nd {
namespace {

class GpuIdle final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6004", "gpu-idle", Severity::Warning, Needs::Log,
                                  "a GPU runs nothing while the host's other GPUs work"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// Idle: utilisation below this in every sample.
constexpr double kIdleUtil = 5;
// Working by utilisation alone: a steady state at least this busy.
constexpr double kWorkUtil = GpuTrack::kLoaded;
// Without a process list, utilisation is the only evidence: an excerpt is not enough.
constexpr uint64_t kMinSamples = 5;
// Memory used above this on a GPU that lists no process: something holds it
// that the list does not show (another container's process, a leaked context).
constexpr double kHeldMib = 1024;
constexpr size_t kListed = 4;

bool lists_compute(const GpuTrack& g) { return std::any_of(g.processes.begin(), g.processes.end(), is_compute_client); }

}  // namespace

void GpuIdle::check(const CheckContext& ctx, FindingSink& out) const {
  for (HostGpus gpus : gpus_by_host(ctx.model.gpu_side)) {
    HostProcesses procs(gpus);
    // A host whose input lists any process had a process list to read; one
    // that lists none may have been cut before it (`| head`).
    bool listed = std::any_of(gpus.begin(), gpus.end(), [](const GpuTrack& g) { return !g.processes.empty(); });
    uint64_t min_samples = listed ? 1 : kMinSamples;
    std::vector<size_t> idle, working, shared;
    for (size_t i = 0; i < gpus.size(); ++i) {
      const GpuTrack& g = gpus[i];
      if (procs.residents(i).size() >= 2 && !mps_on(g)) shared.push_back(i);
      bool runs_rank = std::any_of(g.processes.begin(), g.processes.end(), [&](const GpuProcessFact& p) {
        return is_compute_client(p) && !(p.pid && procs.minor(i, *p.pid));
      });
      UtilStats st = steady_util(g.util_series, kWorkUtil);
      bool busy = g.util_samples >= kMinSamples && st.samples >= kMinSamples && st.mean >= kWorkUtil;
      // A rank that is there but not (yet) computing is no evidence of work.
      bool computing = g.util_samples == 0 || (g.util_max && *g.util_max >= kWorkUtil);
      if ((runs_rank && computing) || busy) {
        working.push_back(i);
      } else if (!lists_compute(g) && g.util_samples >= min_samples && g.util_max && *g.util_max < kIdleUtil &&
                 !(g.mem_used_mib && *g.mem_used_mib >= kHeldMib)) {
        idle.push_back(i);
      }
    }
    // One GPU at work: a single-GPU job on a bigger host leaves the others idle on purpose.
    if (idle.empty() || working.size() < 2) continue;

    double util = 0;
    uint64_t fewest = UINT64_MAX, most = 0;
    std::string names;
    for (size_t k = 0; k < idle.size(); ++k) {
      const GpuTrack& g = gpus[idle[k]];
      util = std::max(util, *g.util_max);
      fewest = std::min(fewest, g.util_samples);
      most = std::max(most, g.util_samples);
      if (k < kListed) names += (k ? ", " : "") + gpu_label(g);
    }
    if (idle.size() > kListed) names += fmt::format(" and {} more", idle.size() - kListed);
    std::string samples = fewest == most ? plural(most, "sample") : fmt::format("{} to {} samples", fewest, most);
    if (idle.size() > 1) samples += " each";
    std::string seen = fmt::format("{}{}{:.0f} % utilisation in {}", listed ? "no compute process, " : "",
                                   util > 0 ? "at most " : "", util, samples);
    std::string cause;
    if (!shared.empty()) {
      const GpuTrack& s = gpus[shared[0]];
      cause = fmt::format(
          "{} runs {} processes, a rank mapped twice; map each rank to its own GPU (check "
          "CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)",
          gpu_label(s), procs.residents(shared[0]).size());
    } else if (listed) {
      cause =
          "fewer ranks than GPUs, or a rank that exited; start one rank per GPU (check --nproc_per_node and "
          "CUDA_VISIBLE_DEVICES)";
    } else {
      cause =
          "fewer ranks than GPUs, a rank mapped twice or a rank that exited; start one rank per GPU (check "
          "--nproc_per_node and CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)";
    }
    const GpuTrack& first = gpus.front();
    Finding f = make_finding(kInfo, fmt::format("{}: {} of {} GPUs idle ({}: {}) while {} work: {}", host_label(first),
                                                idle.size(), gpus.size(), names, seen, working.size(), cause));
    if (!first.host.empty()) f.hosts.push_back(first.host);
    for (size_t i : idle) cite(ctx.model, f, gpus[i].first, ctx.options.max_evidence);
    for (size_t i : shared) {
      for (const auto* p : procs.residents(i)) {
        for (const auto& e : p->entries) {
          if (e.gpu == i) cite(ctx.model, f, e.fact->ref, ctx.options.max_evidence);
        }
      }
    }
    f.subject = host_label(first);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_gpu_idle() { return std::make_unique<GpuIdle>(); }

}  // namespace nd
