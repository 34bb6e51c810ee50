#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "checks/input/line_samples.h"
#include "src/model/job_model.h"

namespace nd {

void MalformedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.malformed_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} with out-of-range ranks, channels or counts {} skipped",
                                              n, n == 1 ? "" : "s", n == 1 ? "was" : "were"));
  f.evidence = line_samples(ctx.model, ctx.model.malformed_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

}  // namespace nd
