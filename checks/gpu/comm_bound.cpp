// ND6030 comm-bound: collectives keep Horovod busy most of the timeline: the job is communication-bound.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"
#include "parsers/gpu/horovod_timeline.h"

namespace nd {
namespace {

class CommBound final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6030", "comm-bound", Severity::Warning, Needs::Log,
                                  "collectives keep Horovod busy most of the timeline: the job is communication-bound"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// Less than this is an excerpt of start-up, not the steady state of training.
constexpr double kMinSpanUs = 100'000;
constexpr uint64_t kMinCollectives = 20;
// Collectives under way for half the wall time or more are worth a note:
// the backward pass may still hide much of it, since allreduces overlap it.
// From kExposedShare on they cannot all be hidden: the forward pass and the
// optimizer step, which no gradient allreduce overlaps in synchronous
// training, must fit in what is left.
constexpr double kCommShare = 0.5;
constexpr double kExposedShare = 0.8;
// Collectives this short on average are latency, not bandwidth: too many
// too small operations.
constexpr double kSmallOpUs = 1000;
// A straggler: the last ready in at least half the negotiations that show
// rank ticks (at least kMinNegotiations), and the others' wait for it at
// least a tenth of the wall time.
constexpr uint64_t kMinNegotiations = 5;
constexpr double kStragglerShare = 0.10;
constexpr size_t kTopTensors = 3;

std::string duration(double us) {
  if (us < 1000) return fmt::format("{:.0f} us", us);
  if (us < 1e6) return fmt::format("{:.1f} ms", us / 1000);
  return fmt::format("{:.2f} s", us / 1e6);
}

std::string pct(double part, double whole) { return fmt::format("{:.0f} %", whole > 0 ? 100 * part / whole : 0); }

bool is_broadcast(std::string_view activity) { return activity.ends_with("_BCAST"); }

// The tensors longest in collectives, longest first (the queue before them
// is not theirs: it waits on the tensors before).
std::vector<std::pair<std::string, double>> top_tensors(const HorovodTimeline& t) {
  std::map<std::string, double> by_tensor;
  for (const HorovodActivity& a : t.activities) {
    if (horovod_phase(a.activity) == HorovodPhase::Collective) by_tensor[a.tensor] += a.total_us;
  }
  std::vector<std::pair<std::string, double>> top(by_tensor.begin(), by_tensor.end());
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (top.size() > kTopTensors) top.resize(kTopTensors);
  return top;
}

std::string fusion_text(const HorovodTimeline& t) {
  const HorovodBusy& b = t.busy;
  if (b.fusion_copies_in == 0) return "none through the fusion buffer";
  uint64_t tensors = 0;
  for (const HorovodActivity& a : t.activities) {
    if (a.activity == "MEMCPY_IN_FUSION_BUFFER") tensors += a.count;
  }
  return fmt::format("{} through the fusion buffer, {:.1f} tensors each", b.fusion_copies_in,
                     static_cast<double>(tensors) / static_cast<double>(b.fusion_copies_in));
}

void comm_bound(const CheckContext& ctx, const TimelineFact& fact, FindingSink& out) {
  const HorovodTimeline& t = fact.timeline;
  const HorovodBusy& b = t.busy;
  double span = t.last_us - t.first_us;
  if (span < kMinSpanUs || b.collectives < kMinCollectives || b.comm_us < kCommShare * span) return;
  // The start-up broadcast of the weights is all communication, and says
  // nothing about the steps.
  double all = 0, broadcast = 0;
  for (const HorovodActivity& a : t.activities) {
    if (horovod_phase(a.activity) != HorovodPhase::Collective) continue;
    all += a.total_us;
    if (is_broadcast(a.activity)) broadcast += a.total_us;
  }
  if (broadcast >= 0.5 * all) return;

  double average = b.collective_us / static_cast<double>(b.collectives);
  std::string tensors;
  for (const auto& [name, us] : top_tensors(t)) tensors += fmt::format("{}{} ({})", tensors.empty() ? "" : ", ", name, duration(us));
  std::string fix;
  if (average < kSmallOpUs) {
    fix = fmt::format(
        "operations this short pay latency, not bandwidth: fuse more tensors into each (raise "
        "HOROVOD_FUSION_THRESHOLD{}, default 128 MiB, and HOROVOD_CYCLE_TIME, default 1 ms; or let HOROVOD_AUTOTUNE=1 "
        "choose them)",
        b.fusion_copies_in == 0 ? ", which 0 turns off" : "");
  } else {
    fix =
        "each step sends more than the links carry while the GPUs compute: send less per step (gradient "
        "accumulation or a larger batch per GPU, hvd.Compression.fp16) and measure the fabric with "
        "all_reduce_perf (ND6020)";
  }
  bool exposed = b.comm_us >= kExposedShare * span;
  Finding f = make_finding(
      CommBound::kInfo,
      fmt::format("Horovod timeline: collectives under way {} of its {}{} (the operations themselves {}, one "
                  "queued behind another {}, fusion-buffer copies {}); waiting for the GPUs' data {}, for other ranks {}; "
                  "most time in {}; {} collectives of {} on average, {}: {}",
                  pct(b.comm_us, span), duration(span),
                  exposed ? ", more than the backward pass can hide" : ", part of it perhaps hidden under the backward pass",
                  pct(b.collective_us, span), pct(b.queue_us, span),
                  pct(b.fusion_copy_us, span), pct(b.data_wait_us, span),
                  pct(std::max(b.comm_negotiate_us - b.comm_us, 0.0), span), tensors, b.collectives,
                  duration(average), fusion_text(t), fix),
      exposed ? Severity::Warning : Severity::Info);
  cite(ctx.model, f, fact.ref, ctx.options.max_evidence);
  f.related = {"ND6020"};
  f.subject = fmt::format("{}:{}", fact.ref.file, fact.ref.line);
  out.add(std::move(f));
}

void straggler(const CheckContext& ctx, const TimelineFact& fact, FindingSink& out) {
  const HorovodTimeline& t = fact.timeline;
  double span = t.last_us - t.first_us;
  uint64_t negotiations = 0;
  for (const auto& [rank, n] : t.last_ready) negotiations += n;
  if (span < kMinSpanUs || negotiations < kMinNegotiations) return;
  // The rank the others waited on longest.
  const std::pair<const uint32_t, double>* worst = nullptr;
  for (const auto& entry : t.last_ready_wait_us) {
    if (!worst || entry.second > worst->second) worst = &entry;
  }
  if (!worst || worst->second < kStragglerShare * span) return;
  uint32_t rank = worst->first;
  auto last = t.last_ready.find(rank);
  uint64_t times = last == t.last_ready.end() ? 0 : last->second;
  if (2 * times < negotiations) return;
  Finding f = make_finding(
      CommBound::kInfo,
      fmt::format("Horovod timeline: rank {} was the last ready in {} of {} negotiations, and the others waited "
                  "{} for it ({} of the timeline's {}): a straggler; check rank {}'s GPU (clocks, throttling: "
                  "ND6006), its host's CPU load and its input pipeline",
                  rank, times, negotiations, duration(worst->second), pct(worst->second, span), duration(span),
                  rank));
  cite(ctx.model, f, fact.ref, ctx.options.max_evidence);
  f.related = {"ND6006"};
  f.subject = fmt::format("{}:{} rank {}", fact.ref.file, fact.ref.line, rank);
  out.add(std::move(f));
}

}  // namespace

void CommBound::check(const CheckContext& ctx, FindingSink& out) const {
  for (const TimelineFact& fact : ctx.model.gpu_side.timelines) {
    comm_bound(ctx, fact, out);
    straggler(ctx, fact, out);
  }
}

std::unique_ptr<Rule> make_comm_bound() { return std::make_unique<CommBound>(); }

}  // namespace nd
