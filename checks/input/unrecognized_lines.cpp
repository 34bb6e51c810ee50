#include <fmt/format.h>

#include "checks/input/input_rules.h"
#include "src/model/job_model.h"

namespace nd {
namespace {

std::vector<Evidence> samples(const JobModel& model, const std::vector<LineRef>& refs, size_t max) {
  std::vector<Evidence> out;
  for (const auto& ref : refs) {
    if (out.size() >= max) break;
    const std::string* text = model.text_of(ref);
    out.push_back({model.files[ref.file], ref.line, text ? *text : ""});
  }
  return out;
}

}  // namespace

void UnrecognizedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.unknown_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} of unrecognized shape (not used for the verdict)", n,
                                              n == 1 ? "" : "s"));
  f.evidence = samples(ctx.model, ctx.model.unknown_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

void MalformedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.malformed_lines;
  if (n == 0) return;
  Finding f = make_finding(kInfo, fmt::format("{} NCCL line{} with out-of-range ranks, channels or counts {} skipped",
                                              n, n == 1 ? "" : "s", n == 1 ? "was" : "were"));
  f.evidence = samples(ctx.model, ctx.model.malformed_samples, ctx.options.max_evidence);
  out.add(std::move(f));
}

void TruncatedLines::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.truncated_lines;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} line{} longer than 64 KiB; only the first 64 KiB of each was read", n,
                                          n == 1 ? " was" : "s were")));
}

void AmbiguousCommunicator::check(const CheckContext& ctx, FindingSink& out) const {
  uint64_t n = ctx.model.counters.ambiguous_assignments;
  if (n == 0) return;
  out.add(make_finding(kInfo, fmt::format("{} connection line{} matched several communicators of the same process "
                                          "(runtime connections without a communicator id); each was assigned to "
                                          "the most recently created one",
                                          n, n == 1 ? "" : "s")));
}

}  // namespace nd
