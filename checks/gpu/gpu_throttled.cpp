// ND6006 gpu-throttled: a GPU under load hit power or thermal limits.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_labels.h"
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class GpuThrottled final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6006", "gpu-throttled", Severity::Warning, Needs::Log,
                                  "a GPU under load hit power or thermal limits"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;

  // Fewer loaded samples are an excerpt: a few seconds of a run.
  static constexpr uint64_t kMinLoaded = 10;
  // A violation (dmon pviol or tviol above 0) in this share of the loaded samples.
  static constexpr double kViolationShare = 0.10;
  // The SM clock below kLowClock of its maximum in this share of the loaded samples.
  static constexpr double kLowClock = 0.70;
  static constexpr double kLowClockShare = 0.20;
};


double percent(uint64_t part, uint64_t whole) { return 100.0 * static_cast<double>(part) / static_cast<double>(whole); }

}  // namespace

void GpuThrottled::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& g : ctx.model.gpu_side.gpus) {
    if (g.loaded_samples < kMinLoaded) continue;
    std::vector<std::string> seen;
    if (static_cast<double>(g.violation_samples) >= kViolationShare * static_cast<double>(g.loaded_samples)) {
      seen.push_back(fmt::format("power or thermal violation in {} of {} loaded samples ({:.0f} %)",
                                 g.violation_samples, g.loaded_samples,
                                 percent(g.violation_samples, g.loaded_samples)));
    }
    // loaded_sm_clocks keeps every clock_stride-th loaded sample that had a clock.
    if (g.max_sm_clock_mhz && g.loaded_sm_clocks.size() * g.clock_stride >= kMinLoaded) {
      uint64_t low = 0;
      for (float mhz : g.loaded_sm_clocks) low += mhz < kLowClock * *g.max_sm_clock_mhz;
      uint64_t all = g.loaded_sm_clocks.size();
      if (static_cast<double>(low) >= kLowClockShare * static_cast<double>(all)) {
        seen.push_back(fmt::format("SM clock below {:.0f} % of its {:.0f} MHz maximum in {} of {} loaded samples "
                                   "({:.0f} %)",
                                   kLowClock * 100, *g.max_sm_clock_mhz, low * g.clock_stride, all * g.clock_stride,
                                   percent(low, all)));
      }
    }
    if (seen.empty()) continue;
    std::string label = host_gpu_label(g);
    Finding f = make_finding(
        kInfo, fmt::format("{}: {}: the GPU lowers its clocks to stay within its limits; check power capping "
                           "(nvidia-smi -q -d PERFORMANCE,POWER), cooling, application clocks (nvidia-smi -rac) and "
                           "that nvidia-smi -pl was not lowered",
                           label, fmt::join(seen, "; ")));
    if (!g.host.empty()) f.hosts.push_back(g.host);
    cite(ctx.model, f, g.first_violation, ctx.options.max_evidence);
    cite(ctx.model, f, g.first, ctx.options.max_evidence);
    f.subject = label;
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_gpu_throttled() { return std::make_unique<GpuThrottled>(); }

}  // namespace nd
