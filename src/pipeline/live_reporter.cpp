#include "src/pipeline/live_reporter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/report/job_links.h"
#include "src/report/text_renderer.h"

namespace nd {

LiveReporter::LiveReporter(ModelBuilder& builder, const Registry& rules, const RuleSelection& selection,
                           const CheckOptions& options, std::function<void(std::string_view)> emit,
                           std::set<std::string_view> only)
    : builder_(builder), options_(options), emit_(std::move(emit)) {
  for (const auto& rule : rules.rules()) {
    const RuleInfo& info = rule->info();
    if (info.decided != Decided::AsSeen || !selection.enabled(info.id)) continue;
    if (!only.empty() && !only.count(info.id)) continue;
    rules_.push_back(rule.get());
  }
}

uint64_t LiveReporter::progress() const {
  const JobModel& m = builder_.model();
  const InputCounters& c = m.counters;
  return c.connection_lines + c.init_lines + c.warn_lines + m.framework_errors.size() + m.stalls.size() +
         m.using_network.size() + m.env.size();
}

void LiveReporter::after_merge(bool more_input) {
  if (progress() == judged_progress_) return;
  // A fast writer sends more before the model could be judged again: judge
  // at most a tenth of the time then; a writer that pauses gets it at once.
  if (more_input && Clock::now() - judged_at_ < kMaxShare * judge_cost_) return;
  judge();
}

void LiveReporter::on_silence(LineRef last, Clock::duration quiet) {
  if (builder_.add_stall(std::chrono::duration<double>(quiet).count(), last)) judge();
}

void LiveReporter::judge() {
  auto start = Clock::now();
  judged_progress_ = progress();
  builder_.settle();
  FindingList found;
  CheckContext ctx{.model = builder_.model(), .options = options_, .input_open = true};
  for (const Rule* rule : rules_) rule->check(ctx, found);
  for (const Finding& f : found.findings) {
    // Notes wait for the report: live output is for what costs something.
    if (f.severity != Severity::Info) tell(f);
  }
  announce_complete_communicators();
  judged_at_ = Clock::now();
  judge_cost_ = judged_at_ - start;
}

void LiveReporter::tell(const Finding& f) {
  std::string key = finding_key(f);
  if (told_.count(key)) return;
  size_t& count = per_rule_[f.id];
  if (count > kMaxPerRule) return;
  told_.insert(std::move(key));
  if (count++ == kMaxPerRule) {
    emit_(fmt::format("nccl-doctor: note: more {} {} findings; the report at end of input lists them\n", f.id,
                      f.slug));
    return;
  }
  ++reported_;
  emit_("nccl-doctor: " + render_finding(f, TextStyle{false}));
}

void LiveReporter::announce_complete_communicators() {
  const JobModel& m = builder_.model();
  for (const Communicator& comm : m.comms) {
    if (comm.synthetic || comm.nranks == 0 || comm.ranks.size() < comm.nranks || announced_.count(comm.key)) continue;
    std::set<uint32_t> hosts;
    bool all = true;
    for (uint32_t r = 0; r < comm.nranks && all; ++r) {
      all = comm.ranks[r].init_completed;
      hosts.insert(comm.ranks[r].host);
    }
    if (!all) continue;
    announced_.insert(comm.key);
    std::set<std::string> links;
    for (const Edge& e : comm.edges) {
      if (links.size() >= 16) break;
      links.insert(link_label(m, e));
    }
    std::string seen = links.empty() ? std::string("none yet (NCCL 2.22+ connects at the first collective)")
                                     : fmt::format("{}", fmt::join(links, ", "));
    emit_(fmt::format("nccl-doctor: note: communicator {}: Init COMPLETE on all {} ranks ({} host{}); links so far: "
                      "{}\n",
                      display(comm.key), comm.nranks, hosts.size(), hosts.size() == 1 ? "" : "s", display(seen, 256)));
  }
}

}  // namespace nd
