// ND6020 busbw-low: nccl-tests bus bandwidth at the largest size is well below what the hardware allows.
#include <algorithm>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"
#include "src/model/busbw_expectation.h"

namespace nd {
namespace {

class BusbwLow final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6020", "busbw-low", Severity::Warning, Needs::Log,
                                  "nccl-tests bus bandwidth at the largest size is well below what the hardware allows"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// Below this share of the expected figure the shortfall is not noise.
constexpr double kLowShare = 0.75;

std::string size_text(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30) && bytes % (uint64_t{1} << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} B", bytes);
}

// What the NCCL log beside the run says about why it is slow.
std::string cause_in_log(const JobModel& model, size_t hosts) {
  if (hosts > 1 && model.using_network.count("Socket")) {
    return "; the NCCL log shows inter-node traffic on NET/Socket (ND3001): TCP, not RDMA";
  }
  bool shm = std::any_of(model.transports.begin(), model.transports.end(),
                         [](const Transport& t) { return t.family == TransportFamily::SHM; });
  if (hosts == 1 && shm) return "; the NCCL log shows links inside the host through SHM (ND3002): host memory, not NVLink";
  return {};
}

}  // namespace

void BusbwLow::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& fact : ctx.model.gpu_side.nccl_tests) {
    const NcclTestsRun& run = fact.run;
    const NcclTestsRow* row = largest_row(run);
    if (!row || row->size_bytes < kPeakBusbwBytes) continue;
    auto busbw = row_busbw(*row);
    if (!busbw) continue;
    std::optional<BusbwExpectation> expected;
    if (ctx.options.expect_busbw_gbs) {
      expected = BusbwExpectation{*ctx.options.expect_busbw_gbs, "--expect-busbw"};
    } else {
      expected = expected_busbw(run, ctx.model);
    }
    if (!expected || *busbw >= kLowShare * expected->gbs) continue;
    std::vector<std::string> hosts;
    for (const auto& r : run.ranks) {
      if (!r.host.empty() && std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
    }
    std::string op = run.op.empty() ? "nccl-tests" : run.op + "_perf";
    std::string where = run.ranks.empty() ? std::string()
                                          : fmt::format(" on {} rank{}, {} host{}", run.ranks.size(),
                                                        run.ranks.size() == 1 ? "" : "s", hosts.size(),
                                                        hosts.size() == 1 ? "" : "s");
    Finding f = make_finding(
        kInfo, fmt::format("{}{}: busbw {:.1f} GB/s at {}, {:.2f}x the {:.0f} GB/s expected ({}){}; "
                           "compare with a run of NCCL_DEBUG=INFO beside it (`nccl-doctor check`) to see which "
                           "link is slow",
                           op, where, *busbw, size_text(row->size_bytes), *busbw / expected->gbs, expected->gbs,
                           expected->source, cause_in_log(ctx.model, hosts.size())));
    f.hosts = hosts;
    cite(ctx.model, f, LineRef{fact.file, static_cast<uint32_t>(row->line)}, ctx.options.max_evidence);
    f.related = {"ND3001", "ND3002", "ND3003", "ND3004"};
    f.subject = fmt::format("{}:{}", fact.file, fact.ref.line);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_busbw_low() { return std::make_unique<BusbwLow>(); }

}  // namespace nd
