// ND6002 gpu-memory-unused: a busy GPU uses well under its memory: room for a larger batch.
#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_labels.h"
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuMemoryUnused final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6002", "gpu-memory-unused", Severity::Info, Needs::Log,
                                  "a busy GPU uses well under its memory: room for a larger batch"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;

  // Busy: at least this many steady samples whose mean is at least
  // GpuTrack::kLoaded, the job running on the GPU rather than a snapshot.
  static constexpr uint64_t kMinSamples = 10;
  // Well below capacity: the peak under this share of the GPU's memory.
  static constexpr double kUsedShare = 0.5;
};

}  // namespace

void GpuMemoryUnused::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& g : ctx.model.gpu_side.gpus) {
    if (!g.mem_used_peak_mib || !g.mem_total_mib || *g.mem_total_mib <= 0) continue;
    if (*g.mem_used_peak_mib >= kUsedShare * *g.mem_total_mib) continue;
    UtilStats st = steady_util(g.util_series, ctx.options.min_gpu_util);
    if (st.samples < kMinSamples || st.mean < GpuTrack::kLoaded) continue;
    std::string label = host_gpu_label(g);
    Finding f = make_finding(
        kInfo, fmt::format("{}: uses at most {:.0f} of {:.0f} MiB of memory ({:.0f} %) while busy {:.0f} % over {} "
                           "steady-state samples: room for a larger batch (or a larger model shard)",
                           label, *g.mem_used_peak_mib, *g.mem_total_mib,
                           100 * *g.mem_used_peak_mib / *g.mem_total_mib, st.mean, st.samples * g.util_stride));
    if (!g.host.empty()) f.hosts.push_back(g.host);
    cite(ctx.model, f, g.first, ctx.options.max_evidence);
    for (const auto& p : g.processes) cite(ctx.model, f, p.ref, ctx.options.max_evidence);
    f.subject = label;
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_gpu_memory_unused() { return std::make_unique<GpuMemoryUnused>(); }

}  // namespace nd
