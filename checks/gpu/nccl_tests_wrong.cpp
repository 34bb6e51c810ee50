// ND6021 nccl-tests-wrong: nccl-tests found wrong results or out-of-bounds values.
#include <algorithm>
#include <optional>
#include <string_view>

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

// What the layouts before `#wrong` let pass in their `error` column (the
// largest absolute difference from the expected value): nccl-tests' per-type
// limit times (ranks - 1). nullopt for a type it did not check so.
std::optional<double> error_limit(std::string_view type, std::optional<size_t> ranks) {
  if (type.find("int") != std::string_view::npos) return 0.0;  // integers are exact at any size
  if (!ranks || *ranks < 2) return std::nullopt;
  double per_rank = type == "float" ? 1e-5 : type == "double" ? 1e-12 : type == "half" || type == "bfloat16" ? 1e-2 : 0;
  if (per_rank == 0) return std::nullopt;
  return per_rank * static_cast<double>(*ranks - 1);
}

// In-place sendrecv is not a valid use (nccl-tests prints N/A there since
// 2.13; before, its check reported errors that mean nothing). A run whose
// op is unknown and whose table has no redop column may be one.
bool in_place_checked(const NcclTestsRun& run) {
  if (run.op == "sendrecv") return false;
  if (!run.op.empty()) return true;
  return std::any_of(run.rows.begin(), run.rows.end(), [](const NcclTestsRow& r) { return !r.redop.empty(); });
}

// A row's error over its limit: the largest of its two.
std::optional<double> error_over(const NcclTestsRow& row, std::optional<size_t> ranks, bool in_place) {
  auto limit = error_limit(row.type, ranks);
  if (!limit) return std::nullopt;
  std::optional<double> worst;
  for (auto e : {row.oop_error, in_place ? row.ip_error : std::nullopt}) {
    if (e && *e > *limit && (!worst || *e > *worst)) worst = e;
  }
  return worst;
}

}  // namespace

void NcclTestsWrong::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& fact : ctx.model.gpu_side.nccl_tests) {
    const NcclTestsRun& run = fact.run;
    const bool in_place = in_place_checked(run);
    uint64_t wrong = 0;
    std::vector<const NcclTestsRow*> bad_rows;
    for (const auto& row : run.rows) {
      uint64_t n = row.oop_wrong.value_or(0) + (in_place ? row.ip_wrong.value_or(0) : 0);
      if (n == 0) continue;
      wrong += n;
      bad_rows.push_back(&row);
    }
    // Without the footer, the older layouts' error column is all there is.
    double worst_error = 0;
    size_t error_rows = 0;
    if (wrong == 0 && !run.out_of_bounds) {
      for (const auto& row : run.rows) {
        auto e = error_over(row, run.rank_count(), in_place);
        if (!e) continue;
        ++error_rows;
        worst_error = std::max(worst_error, *e);
        bad_rows.push_back(&row);
      }
    }
    if (wrong == 0 && error_rows == 0 && !run.out_of_bounds_failed) continue;
    std::string what = wrong > 0 ? fmt::format("{} wrong values in {} of {} sizes", wrong, bad_rows.size(), run.rows.size())
                       : error_rows > 0
                           ? fmt::format("an error of up to {:g} in {} of {} sizes, over what {} allows",
                                         worst_error, error_rows, run.rows.size(), bad_rows.front()->type)
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
