// ND6001 gpu-busy-low: a GPU is busy less than the --min-gpu-util share of the steady state.
#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_labels.h"
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuBusyLow final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6001", "gpu-busy-low", Severity::Warning, Needs::Log,
                                  "a GPU is busy less than the --min-gpu-util share of the steady state"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;

  // Fewer steady samples are an excerpt, not a run: a table or two.
  static constexpr uint64_t kMinSamples = 10;
  // A GPU never busier than this is not used at all: ND6004 (gpu-idle).
  static constexpr double kIdleMax = 5;
};

}  // namespace

void GpuBusyLow::check(const CheckContext& ctx, FindingSink& out) const {
  const double threshold = ctx.options.min_gpu_util;
  for (const auto& g : ctx.model.gpu_side.gpus) {
    if (g.util_series.empty() || g.util_max.value_or(0) < kIdleMax) continue;
    UtilStats st = steady_util(g.util_series, threshold);
    // Past GpuTrack::kMaxSeries the series keeps every util_stride-th sample.
    uint64_t samples = st.samples * g.util_stride;
    if (st.samples < kMinSamples || st.mean >= threshold) continue;
    std::string label = host_gpu_label(g);
    Finding f = make_finding(
        kInfo, fmt::format("{}: busy {:.0f} % on average over {} steady-state samples (10th percentile {:.0f} %; "
                           "below {:.0f} % in {:.0f} % of them): the GPU waits on input, the host or communication; "
                           "profile a step (data loader workers, NCCL time in the Horovod timeline or nsys)",
                           label, st.mean, samples, st.p10, threshold, st.dips * 100));
    if (!g.host.empty()) f.hosts.push_back(g.host);
    cite(ctx.model, f, g.first, ctx.options.max_evidence);
    f.subject = label;
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_gpu_busy_low() { return std::make_unique<GpuBusyLow>(); }

}  // namespace nd
