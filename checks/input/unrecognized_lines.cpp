#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "checks/input/line_samples.h"
#include "src/model/job_model.h"

namespace nd {

void UnrecognizedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.unknown_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} of unrecognized shape (not used for the verdict)", n,
                                              n == 1 ? "" : "s"));
  f.evidence = line_samples(ctx.model, ctx.model.unknown_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

}  // namespace nd
