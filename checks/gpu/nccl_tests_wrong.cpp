// ND6021 nccl-tests-wrong: nccl-tests found wrong results or out-of-bounds values.
#include <algorithm>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/gpu/gpu_rules.h"

namespace nd {
namespace {

class NcclTestsWrong final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND6021", "nccl-tests-wrong", Severity::Error, Needs::Log,
                                  "nccl-tests found wrong results or out-of-bounds values"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

std::string op_name(const NcclTestsRun& run) { return run.op.empty() ? "nccl-tests" : run.op + "_perf"; }

}  // namespace

void NcclTestsWrong::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& fact : ctx.model.gpu_side.nccl_tests) {
    const NcclTestsRun& run = fact.run;
    uint64_t wrong = 0;
    std::vector<const NcclTestsRow*> bad_rows;
    for (const auto& row : run.rows) {
      uint64_t n = row.oop_wrong.value_or(0) + row.ip_wrong.value_or(0);
      if (n == 0) continue;
      wrong += n;
      bad_rows.push_back(&row);
    }
    if (wrong == 0 && !run.out_of_bounds_failed) continue;
    std::string what = wrong > 0 ? fmt::format("{} wrong values in {} of {} sizes", wrong, bad_rows.size(), run.rows.size())
                                 : std::string();
    if (run.out_of_bounds_failed) {
      what += fmt::format("{}{} out-of-bounds values", what.empty() ? "" : " and ",
                          run.out_of_bounds.value_or(0));
    }
    Finding f = make_finding(kInfo, fmt::format("{} returned {}: the collective corrupted data; "
                                                "run it again on the same hosts and check GPU memory (ECC, "
                                                "dcgmi diag) and the fabric before trusting any result",
                                                op_name(run), what));
    for (const auto& r : run.ranks) {
      if (!r.host.empty() && std::find(f.hosts.begin(), f.hosts.end(), r.host) == f.hosts.end()) f.hosts.push_back(r.host);
    }
    for (const auto* row : bad_rows) cite(ctx.model, f, LineRef{fact.file, static_cast<uint32_t>(row->line)}, ctx.options.max_evidence);
    if (bad_rows.empty()) cite(ctx.model, f, fact.ref, ctx.options.max_evidence);
    f.subject = fmt::format("{}:{}", fact.file, fact.ref.line);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_nccl_tests_wrong() { return std::make_unique<NcclTestsWrong>(); }

}  // namespace nd
