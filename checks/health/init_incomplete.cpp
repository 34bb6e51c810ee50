#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/config/nccl_releases.h"
#include "checks/health/health_rules.h"
#include "src/util/ranges.h"

namespace nd {
namespace {

class InitIncomplete final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND1100", "init-incomplete", Severity::Error, Needs::Log,
                                  "ranks began communicator init and never completed it, or are missing",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// Lines that must follow both a process's last line and the last Init
// COMPLETE of the others, in the same file, before its silence counts as a
// hang rather than the end of an excerpt: at least this many, and a few per
// rank, since every rank prints its own lines at each step.
constexpr uint64_t kSilentLines = 200;
constexpr uint64_t kSilentLinesPerRank = 4;

using ProcessKey = std::pair<uint32_t, uint64_t>;  // host, pid

// What the input shows about the job besides Init lines: the facts that turn
// a missing Init COMPLETE from "the input ends here" into a hang.
struct HangEvidence {
  const JobModel& m;
  std::vector<LineRef> watchdog;  // PyTorch watchdog timeouts anywhere in the job
  std::multimap<ProcessKey, LineRef> error_warns;  // WARNs that mean a failure, per process
  std::map<ProcessKey, LineRef> failed_calls;      // tracebacks to the caller without a WARN
  std::map<ProcessKey, const ProcessRecord*> process;
  std::map<uint32_t, uint32_t> file_end;  // file -> last line any process printed

  // Live mode, input still open: silence so far may end with the next line.
  bool input_open = false;

  HangEvidence(const JobModel& model, bool open) : m(model), input_open(open) {
    for (const auto& r : m.framework_errors) {
      if (is_watchdog_report(r.kind)) watchdog.push_back(r.line);
    }
    // A plugin that fails over to IB or a retry that succeeds is no failure.
    for (const auto& w : m.warnings) {
      if (w.cls.severity == WarnSeverity::Error || w.returned_to_caller) {
        error_warns.emplace(ProcessKey{w.host, w.pid}, w.line);
      }
    }
    for (const auto& f : m.failed_calls) {
      if (f.reached_caller && !f.recovered) failed_calls.emplace(ProcessKey{f.host, f.pid}, f.first);
    }
    for (const auto& p : m.processes) {
      process[{p.host, p.pid}] = &p;
      uint32_t& end = file_end[p.last_line.file];
      end = std::max(end, p.last_line.line);
    }
  }

  // Why `who` (which printed `since`, its Init START or first init line, and
  // never completed) counts as stuck, citing `lines`; empty when nothing says
  // so. `others_done`: the last Init COMPLETE of other ranks of its
  // communicator, none when no other rank completed.
  std::string why_stuck(ProcessKey who, LineRef since, LineRef others_done, uint32_t nranks,
                        std::vector<LineRef>& lines) const {
    if (!watchdog.empty()) {
      lines.push_back(watchdog.front());
      return "PyTorch's watchdog reports a collective timeout";
    }
    for (const auto& stall : m.stalls) {
      if (std::find(stall.starts.begin(), stall.starts.end(), since) != stall.starts.end()) {
        if (stall.after.line != 0) lines.push_back(stall.after);
        return fmt::format("the live input stopped for {:.0f} s (--hang-after) while it was in init", stall.seconds);
      }
    }
    auto [first, last] = error_warns.equal_range(who);
    for (auto it = first; it != last; ++it) {
      if (since < it->second) {
        lines.push_back(it->second);
        return "the process printed an error WARN after it began init";
      }
    }
    if (auto failed = failed_calls.find(who); failed != failed_calls.end() && since < failed->second) {
      lines.push_back(failed->second);
      return "NCCL returned an error to the caller after it began init";
    }
    if (others_done.line == 0 || input_open) return {};
    auto it = process.find(who);
    if (it == process.end() || it->second->last_line.file != others_done.file) return {};
    const ProcessRecord& p = *it->second;
    uint32_t from = std::max(p.last_line.line, others_done.line);
    auto end = file_end.find(p.last_line.file);
    uint64_t needed = std::max<uint64_t>(kSilentLines, kSilentLinesPerRank * nranks);
    if (end != file_end.end() && end->second >= from + needed) {
      lines.push_back(p.last_line);
      return fmt::format("the other ranks completed init and the input goes on for {} lines after that and after "
                         "this process's last",
                         end->second - from);
    }
    return {};
  }
};

std::string rank_list(const JobModel& m, const Communicator& comm, const std::vector<uint32_t>& ranks) {
  std::vector<std::string> parts;
  for (uint32_t r : ranks) {
    if (parts.size() == 8) {
      parts.push_back(fmt::format("and {} more", ranks.size() - 8));
      break;
    }
    const RankInfo& info = comm.ranks[r];
    parts.push_back(fmt::format("rank {} ({})", r, m.process_name(info.host, info.pid)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Ranks and processes that began init and never completed it, with no sign
// of a hang: gathered over the whole input into one note.
struct Unfinished {
  std::map<std::string, std::vector<uint32_t>> comm_ranks;  // communicator -> ranks, in order seen
  std::vector<std::string> comm_order;
  std::vector<uint32_t> process_ranks;  // < 2.18.3: processes by their own rank
  size_t processes = 0;
  std::vector<std::string> absent;  // "ranks 2-3 of 4 of 0xabc"
  std::set<uint32_t> hosts;
  std::set<uint32_t> ranks;
  std::vector<LineRef> lines;

  bool empty() const { return comm_ranks.empty() && processes == 0; }
  // "ranks 0-15 of 0x52e9 and 2 processes (rank 3) on gpu-a, gpu-b"
  std::string who(const JobModel& m) const {
    std::vector<std::string> parts;
    for (const auto& key : comm_order) {
      const auto& r = comm_ranks.at(key);
      parts.push_back(fmt::format("rank{} {} of {}", r.size() == 1 ? "" : "s", format_ranges(r), key));
    }
    if (processes > 0) {
      parts.push_back(fmt::format("{} process{}{}", processes, processes == 1 ? "" : "es",
                                  process_ranks.empty() ? std::string()
                                                        : fmt::format(" (rank{} {})", process_ranks.size() == 1 ? "" : "s",
                                                                      format_ranges(process_ranks))));
    }
    std::vector<std::string> names;
    for (uint32_t h : hosts) {
      if (h != kNoHost) names.push_back(m.host_name(h));
    }
    std::sort(names.begin(), names.end());
    if (names.empty()) return fmt::format("{} (host unknown)", fmt::join(parts, " and "));
    size_t shown = std::min<size_t>(names.size(), 4);
    std::string on = fmt::format("{}", fmt::join(names.begin(), names.begin() + static_cast<long>(shown), ", "));
    if (names.size() > shown) on += fmt::format(" and {} more hosts", names.size() - shown);
    return fmt::format("{} on {}", fmt::join(parts, " and "), on);
  }
};

}  // namespace

// A hang needs positive evidence: a watchdog timeout, a WARN from the process,
// or its silence while others completed init and the input went on. Without
// it the input simply ends before init did (most pasted logs are excerpts).
// NCCL's init ends with allgathers over every rank, so one rank's Init
// COMPLETE also proves that all ranks joined: ranks absent from such a log
// are missing from the input, not stuck.
void InitIncomplete::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  HangEvidence evidence(m, ctx.input_open);
  Unfinished unfinished;
  std::set<ProcessKey> explained;  // processes named by a communicator's finding
  std::set<ProcessKey> completed_somewhere;
  std::set<ProcessKey> shown_partial;  // of ranks that a "the log is partial" finding names
  LineRef job_done;  // the last Init COMPLETE of the job
  uint32_t job_ranks = 0;
  for (const auto& comm : m.comms) {
    job_ranks = std::max(job_ranks, comm.size());
    for (const auto& r : comm.ranks) {
      if (!r.init_completed) continue;
      completed_somewhere.insert({r.host, r.pid});
      job_done = std::max(job_done, r.complete_line);
    }
  }
  for (const auto& comm : m.comms) {
    if (comm.synthetic || comm.nranks == 0) continue;
    std::vector<uint32_t> stuck, open, missing;
    std::vector<LineRef> cause_lines;
    std::string cause;
    bool any_completed = false;
    LineRef others_done;  // the last Init COMPLETE of the communicator
    for (uint32_t r = 0; r < comm.nranks && r < comm.ranks.size(); ++r) {
      any_completed |= comm.ranks[r].init_completed;
      if (comm.ranks[r].init_completed) others_done = std::max(others_done, comm.ranks[r].complete_line);
    }
    for (uint32_t r = 0; r < comm.nranks && r < comm.ranks.size(); ++r) {
      const RankInfo& info = comm.ranks[r];
      if (info.init_started && !info.init_completed) {
        explained.insert({info.host, info.pid});
        std::string why = evidence.why_stuck({info.host, info.pid}, info.init_line, others_done, comm.nranks,
                                             cause_lines);
        if (why.empty()) {
          open.push_back(r);
        } else {
          stuck.push_back(r);
          if (cause.empty()) cause = why;
        }
      } else if (!info.init_started && !info.init_completed) {
        missing.push_back(r);
      }
    }
    for (uint32_t r = static_cast<uint32_t>(std::min<size_t>(comm.ranks.size(), comm.nranks)); r < comm.nranks; ++r) {
      missing.push_back(r);
    }
    for (uint32_t r : open) {
      const RankInfo& info = comm.ranks[r];
      auto [it, fresh] = unfinished.comm_ranks.try_emplace(comm.key);
      if (fresh) unfinished.comm_order.push_back(comm.key);
      it->second.push_back(r);
      unfinished.hosts.insert(info.host);
      unfinished.ranks.insert(r);
      if (unfinished.lines.size() < ctx.options.max_evidence) unfinished.lines.push_back(info.init_line);
    }
    std::string missing_text = missing.empty() ? std::string()
                                               : fmt::format("rank{} {} of {}", missing.size() == 1 ? "" : "s",
                                                             format_ranges(missing), comm.nranks);
    if (stuck.empty() && !open.empty() && !missing.empty()) {
      unfinished.absent.push_back(fmt::format("{} of {}", missing_text, comm.key));
    }
    if (!stuck.empty()) {
      Finding f = make_finding(kInfo, "");
      f.comm = comm.key;
      f.subject = "stuck in init";
      f.message = fmt::format("communicator {} (nranks {}): {} printed Init START but no Init COMPLETE, and {}: "
                              "they hang (or failed) in init",
                              comm.key, comm.nranks, rank_list(m, comm, stuck), cause);
      if (!missing.empty()) {
        f.message += fmt::format("; {} never appeared in this input", missing_text);
      }
      std::set<uint32_t> hosts;
      for (uint32_t r : stuck) {
        hosts.insert(comm.ranks[r].host);
        cite(m, f, comm.ranks[r].init_line, ctx.options.max_evidence);
      }
      for (const auto& line : cause_lines) cite(m, f, line, ctx.options.max_evidence);
      f.ranks = stuck;
      f.hosts = host_names(m, hosts);
      out.add(std::move(f));
    } else if (any_completed && !missing.empty() && open.empty() && !ctx.input_open) {
      Finding f = make_finding(kInfo, "");
      f.severity = Severity::Info;
      f.comm = comm.key;
      f.message = fmt::format(
          "communicator {} (nranks {}): {} {} no Init line in this input, yet other ranks completed init, which "
          "needs every rank: the log is partial (output of only some ranks), not a hang",
          comm.key, comm.nranks, missing_text, missing.size() == 1 ? "has" : "have");
      f.ranks = missing;
      cite(m, f, comm.first_line, ctx.options.max_evidence);
      out.add(std::move(f));
      // Processes of these ranks that printed other lines need no "excerpt?" note of their own.
      for (uint32_t r : missing) {
        if (r < comm.ranks.size() && comm.ranks[r].pid != 0) shown_partial.insert({comm.ranks[r].host, comm.ranks[r].pid});
      }
    }
  }

  // NCCL < 2.18.3 prints no Init START: a process that printed init-phase
  // lines (network, rings, connections) and never Init COMPLETE is still in
  // init where its output ends.
  // From 2.18.3 every init prints its START, so a process without one is
  // outside this excerpt's init (a grep for WARNs, say), not stuck in it.
  bool prints_start = false;
  for (const auto& [text, who] : m.versions) {
    auto v = parse_nccl_version(text);
    prints_start |= v && *v >= NcclVersion{2, 18, 3};
  }
  std::vector<const ProcessRecord*> silent_stuck;
  std::vector<LineRef> silent_causes;
  std::string silent_cause;
  for (const auto& p : m.processes) {
    if (prints_start) break;
    if (!p.init_phase || p.init_completes > 0 || p.init_starts > 0) continue;
    if (explained.count({p.host, p.pid}) || completed_somewhere.count({p.host, p.pid})) continue;
    std::string why = evidence.why_stuck({p.host, p.pid}, p.init_phase_line, job_done, job_ranks, silent_causes);
    if (!why.empty()) {
      if (silent_cause.empty()) silent_cause = why;
      silent_stuck.push_back(&p);
      continue;
    }
    if (shown_partial.count({p.host, p.pid})) continue;
    ++unfinished.processes;
    unfinished.hosts.insert(p.host);
    if (p.own_rank >= 0) {
      unfinished.ranks.insert(static_cast<uint32_t>(p.own_rank));
      unfinished.process_ranks.push_back(static_cast<uint32_t>(p.own_rank));
    }
    if (unfinished.lines.size() < ctx.options.max_evidence) unfinished.lines.push_back(p.init_phase_line);
  }
  if (!silent_stuck.empty()) {
    Finding f = make_finding(kInfo, "");
    f.subject = "stuck in init";
    std::vector<std::string> parts;
    std::set<uint32_t> hosts, ranks;
    for (const auto* p : silent_stuck) {
      if (parts.size() < 8) {
        parts.push_back(p->own_rank >= 0 ? fmt::format("rank {} ({})", p->own_rank, m.process_name(p->host, p->pid))
                                         : m.process_name(p->host, p->pid));
      }
      if (p->own_rank >= 0) ranks.insert(static_cast<uint32_t>(p->own_rank));
      hosts.insert(p->host);
      cite(m, f, p->init_phase_line, ctx.options.max_evidence);
    }
    for (const auto& line : silent_causes) cite(m, f, line, ctx.options.max_evidence);
    if (silent_stuck.size() > parts.size()) parts.push_back(fmt::format("and {} more", silent_stuck.size() - parts.size()));
    f.message = fmt::format("{} process{} printed init lines but never Init COMPLETE: {}; {}: they hang (or failed) "
                            "in init",
                            silent_stuck.size(), silent_stuck.size() == 1 ? "" : "es", fmt::join(parts, ", "),
                            silent_cause);
    f.hosts = host_names(m, hosts);
    f.ranks.assign(ranks.begin(), ranks.end());
    out.add(std::move(f));
  }

  // What the input has not shown yet is no finding while it is still open.
  if (unfinished.empty() || ctx.input_open) return;
  std::sort(unfinished.process_ranks.begin(), unfinished.process_ranks.end());
  Finding f = make_finding(kInfo, "");
  f.severity = Severity::Info;
  f.message = fmt::format("the input ends before {} completed init: an excerpt?{} Nothing shows a hang (no watchdog "
                          "timeout, no WARN from these processes, no long silence while others went on); if the job "
                          "did hang, give its whole output",
                          unfinished.who(m),
                          unfinished.absent.empty()
                              ? std::string()
                              : fmt::format(" ({} have no line in it.)", fmt::join(unfinished.absent, "; ")));
  for (const auto& line : unfinished.lines) cite(m, f, line, ctx.options.max_evidence);
  f.hosts = host_names(m, unfinished.hosts);
  f.ranks.assign(unfinished.ranks.begin(), unfinished.ranks.end());
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_init_incomplete() { return std::make_unique<InitIncomplete>(); }

}  // namespace nd
