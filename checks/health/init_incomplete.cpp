#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/health/health_rules.h"
#include "src/util/ranges.h"

namespace nd {
namespace {

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

}  // namespace

// NCCL's init ends with allgathers over every rank, so one rank's Init
// COMPLETE proves that all ranks joined: ranks absent from such a log are
// missing from the input, not stuck.
void InitIncomplete::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::set<std::pair<uint32_t, uint64_t>> explained;  // processes named by a communicator finding
  std::set<std::pair<uint32_t, uint64_t>> completed_somewhere;
  for (const auto& comm : m.comms) {
    for (const auto& r : comm.ranks) {
      if (r.init_completed) completed_somewhere.insert({r.host, r.pid});
    }
  }
  for (const auto& comm : m.comms) {
    if (comm.synthetic || comm.nranks == 0) continue;
    std::vector<uint32_t> stuck, missing;
    bool any_completed = false;
    for (uint32_t r = 0; r < comm.nranks && r < comm.ranks.size(); ++r) {
      const RankInfo& info = comm.ranks[r];
      any_completed |= info.init_completed;
      if (info.init_started && !info.init_completed) {
        stuck.push_back(r);
        explained.insert({info.host, info.pid});
      } else if (!info.init_started && !info.init_completed) {
        missing.push_back(r);
      }
    }
    if (stuck.empty() && missing.empty()) continue;
    Finding f = make_finding(kInfo, "");
    f.comm = comm.key;
    std::set<uint32_t> hosts;
    std::string missing_text = missing.empty() ? std::string()
                                               : fmt::format("rank{} {} of {}", missing.size() == 1 ? "" : "s",
                                                             format_ranges(missing), comm.nranks);
    if (!stuck.empty()) {
      f.message = fmt::format("communicator {} (nranks {}): {} printed Init START but no Init COMPLETE", comm.key,
                              comm.nranks, rank_list(m, comm, stuck));
      if (!missing.empty()) {
        f.message += fmt::format(
            "; {} never appeared: they did not reach NCCL init (crashed, not launched, or a different NCCL_COMM_ID), "
            "or their output is not in this input",
            missing_text);
      } else if (any_completed) {
        f.message += "; other ranks completed, so these hung after bootstrap (connection setup)";
      } else {
        f.message += "; no rank completed: the job hangs in init";
      }
      for (uint32_t r : stuck) {
        hosts.insert(comm.ranks[r].host);
        cite(m, f, comm.ranks[r].init_line, ctx.options.max_evidence);
      }
      f.ranks = stuck;
    } else if (any_completed) {
      f.severity = Severity::Info;
      f.message = fmt::format(
          "communicator {} (nranks {}): {} have no Init line in this input, yet other ranks completed init, which "
          "needs every rank: the log is partial (output of only some ranks), not a hang",
          comm.key, comm.nranks, missing_text);
      f.ranks = missing;
      cite(m, f, comm.first_line, ctx.options.max_evidence);
    } else {
      continue;
    }
    f.hosts = host_names(m, hosts);
    out.add(std::move(f));
  }

  // NCCL < 2.18.3 prints no Init START: a process that printed init-phase
  // lines (network choice, rings, connections) and never Init COMPLETE is
  // stuck in init, or was killed there.
  std::vector<const ProcessRecord*> silent;
  for (const auto& p : m.processes) {
    if (!p.init_phase || p.init_completes > 0 || p.init_starts > 0) continue;
    if (explained.count({p.host, p.pid}) || completed_somewhere.count({p.host, p.pid})) continue;
    silent.push_back(&p);
  }
  if (silent.empty()) return;
  Finding f = make_finding(kInfo, "");
  std::vector<std::string> parts;
  std::set<uint32_t> hosts;
  std::set<uint32_t> ranks;
  for (const auto* p : silent) {
    if (parts.size() < 8) {
      parts.push_back(p->own_rank >= 0 ? fmt::format("rank {} ({})", p->own_rank, m.process_name(p->host, p->pid))
                                       : m.process_name(p->host, p->pid));
    }
    if (p->own_rank >= 0) ranks.insert(static_cast<uint32_t>(p->own_rank));
    hosts.insert(p->host);
    cite(m, f, p->init_phase_line, ctx.options.max_evidence);
  }
  if (silent.size() > parts.size()) parts.push_back(fmt::format("and {} more", silent.size() - parts.size()));
  size_t completed = completed_somewhere.size();
  f.message = fmt::format("{} process{} printed init lines but never Init COMPLETE: {}{}", silent.size(),
                          silent.size() == 1 ? "" : "es", fmt::join(parts, ", "),
                          completed ? fmt::format("; {} other process{} completed init", completed,
                                                  completed == 1 ? "" : "es")
                                    : std::string("; no process completed init: the job hangs (or died) in init"));
  f.hosts = host_names(m, hosts);
  f.ranks.assign(ranks.begin(), ranks.end());
  out.add(std::move(f));
}

}  // namespace nd
