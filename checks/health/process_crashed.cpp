// ND1101 process-crashed: a process of the job died on a signal (segmentation fault, abort, bus error).
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/health/health_rules.h"

namespace nd {
namespace {

class ProcessCrashed final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1101", "process-crashed", Severity::Error, Needs::Log,
                                  "a process of the job died on a signal (segmentation fault, abort, bus error)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// What each signal usually means for a distributed job.
std::string_view meaning_of(const CrashReport& c) {
  if (c.name == "SIGSEGV") return "segmentation fault: a bad memory access in the process";
  if (c.name == "SIGABRT") return "abort: a failed assertion, an uncaught C++ exception or a runtime's fatal error";
  if (c.name == "SIGBUS") return "bus error: in a container, usually /dev/shm too small for NCCL's shared memory";
  if (c.name == "SIGKILL") return "killed: the kernel's out-of-memory killer, or the scheduler";
  if (c.name == "SIGILL") return "illegal instruction: a binary built for another CPU";
  if (c.name == "SIGFPE") return "arithmetic error";
  if (c.name == "SIGTERM") return "terminated: the launcher or the scheduler stopped it, often after another process failed";
  return "";
}

struct Crashes {
  std::vector<const FrameworkRecord*> records;
  std::set<std::string> hosts;
  bool in_nccl = false;
};

}  // namespace

// One finding per signal: the launcher or runtime says a process died, which
// no NCCL line can say.
void ProcessCrashed::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::map<std::string, Crashes> by_signal;
  for (const auto& r : m.framework_errors) {
    if (r.kind != FrameworkKind::Crash || !r.crash) continue;
    Crashes& c = by_signal[r.crash->name];
    c.records.push_back(&r);
    if (r.host != kNoHost) c.hosts.insert(m.host_name(r.host));
    c.in_nccl = c.in_nccl || r.in_nccl;
  }
  for (const auto& [name, c] : by_signal) {
    const CrashReport& crash = *c.records.front()->crash;
    Finding f = make_finding(kInfo, "");
    // A terminated process was stopped by someone: the cause is elsewhere.
    if (name == "SIGTERM") f.severity = Severity::Info;
    f.subject = name;
    std::vector<std::string> hosts(c.hosts.begin(), c.hosts.end());
    std::string_view meaning = meaning_of(crash);
    f.message = fmt::format("{} report{} of a process that died on {}{}{}{}", c.records.size(),
                            c.records.size() == 1 ? "" : "s", name,
                            crash.signal ? fmt::format(" (signal {})", crash.signal) : std::string(),
                            hosts.empty() ? std::string() : fmt::format(" on {}", names_text(hosts, ctx.options)),
                            meaning.empty() ? std::string() : fmt::format(": {}", meaning));
    if (c.in_nccl) f.message += "; its backtrace runs through NCCL";
    f.hosts = hosts;
    for (const auto* r : c.records) cite(m, f, r->line, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_process_crashed() { return std::make_unique<ProcessCrashed>(); }

}  // namespace nd
