#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "src/model/job_model.h"

namespace nd {

void AmbiguousCommunicator::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.ambiguous_assignments;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} connection line{} matched several communicators of the same process "
                                          "(runtime connections without a communicator id); each was assigned to "
                                          "the most recently created one",
                                          n, n == 1 ? "" : "s")));
}

}  // namespace nd
