#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "src/model/job_model.h"

namespace nd {

void OverlongLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.truncated_lines;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} line{} longer than 64 KiB; only the first 64 KiB of each was read", n,
                                          n == 1 ? " was" : "s were")));
}

}  // namespace nd
