#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/health/health_rules.h"
#include "checks/transport/edge_groups.h"
#include "src/model/networks.h"
#include "src/util/ranges.h"

namespace nd {
namespace {

class NcclWarning final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3120", "nccl-warning", Severity::Warning, Needs::Log,
                                  "NCCL (or PyTorch on its behalf) reported a warning or an error",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// One finding's worth of identical WARNs.
struct Group {
  WarnClass cls;
  std::string key;
  std::string text;  // first message as printed
  std::string location;
  LineRef first;
  size_t count = 0;
  size_t from_pytorch = 0;  // `Last error:` bodies
  std::map<std::string, size_t> per_host;
  std::set<std::string> peers;
  std::vector<LineRef> lines;
  const WarnRecord* failed_call = nullptr;  // the first whose traceback reached the caller
};

// ncclResult_t as ncclGetErrorString() names it.
std::string_view nccl_result_name(uint32_t code) {
  constexpr std::string_view kNames[] = {"success", "unhandled cuda error", "unhandled system error",
                                         "internal error", "invalid argument", "invalid usage",
                                         "remote error", "in progress", "timeout"};
  return code < std::size(kNames) ? kNames[code] : "an unknown error";
}

// "Got completion ... 10.1.0.8<49513>" -> "10.1.0.8 (gpu08)" when the log maps it.
std::string describe_peer(const JobModel& m, const std::string& peer) {
  auto it = m.ip_hosts.find(peer);
  if (it == m.ip_hosts.end()) return peer;
  return fmt::format("{} ({})", peer, m.host_name(it->second));
}

// Messages that differ only in numbers (sizes, ports, pointers) are one kind.
std::string mask_digits(std::string_view s) {
  std::string out;
  bool in_number = false;
  for (char c : s.substr(0, 200)) {
    bool digit = c >= '0' && c <= '9';
    if (digit && !in_number) out += '#';
    if (!digit) out += c;
    in_number = digit;
  }
  return out;
}

// One host named, no nNodes that says there are more, and every rank of
// every communicator seen there (one node's output of a larger job is not).
bool shows_one_host(const JobModel& m) {
  if (m.hosts.size() != 1 || m.unclaimed_shape_nnodes > 1) return false;
  // A NET link not known to stay inside the host may cross to another.
  bool net_out = false;
  for_each_edge(m, [&](const EdgeView& e) {
    net_out |= e.transport.family == TransportFamily::NET && e.locality != Locality::Intra;
  });
  if (net_out) return false;
  return std::none_of(m.comms.begin(), m.comms.end(), [](const Communicator& c) {
    size_t seen = static_cast<size_t>(std::count_if(c.ranks.begin(), c.ranks.end(), [](const RankInfo& r) {
      return r.init_started || r.init_completed;
    }));
    return c.nnodes > 1 || c.nranks > seen;
  });
}

Severity severity_of(WarnSeverity s) {
  switch (s) {
    case WarnSeverity::Info: return Severity::Info;
    case WarnSeverity::Warning: return Severity::Warning;
    case WarnSeverity::Error: return Severity::Error;
  }
  return Severity::Warning;
}

std::string counts(const Group& g) {
  std::vector<std::string> parts;
  for (const auto& [host, n] : g.per_host) {
    if (parts.size() == 6) {
      parts.push_back("...");
      break;
    }
    parts.push_back(fmt::format("{} {}", host, n));
  }
  std::string where = g.per_host.size() > 1 || g.count > 1 ? fmt::format(": {}", fmt::join(parts, ", ")) : "";
  size_t warns = g.count - g.from_pytorch;
  std::string what = warns == 0 ? std::string() : warns == 1 ? "1 WARN" : fmt::format("{} WARNs", warns);
  if (g.from_pytorch > 0) {
    what += fmt::format("{}{} PyTorch 'Last error'", what.empty() ? "" : " and ", g.from_pytorch);
  }
  return fmt::format("{}{}", what, where);
}

// The RDMA network the job runs on, from its inter-node links or NCCL's
// choice; empty when it shows none, or sockets too.
std::string rdma_in_use(const JobModel& m, const CheckOptions& options) {
  std::set<std::string> rdma;
  bool socket = false;
  auto note = [&](const std::string& name) {
    if (is_socket_network(name)) {
      socket = true;
    } else if (is_rdma_network(name, options)) {
      rdma.insert(name);
    }
  };
  for_each_edge(m, [&](const EdgeView& e) {
    if (e.transport.family == TransportFamily::NET && e.locality != Locality::Intra) note(e.transport.net_name);
  });
  for (const auto& c : chosen_networks(m)) note(c.name);
  if (socket || rdma.empty()) return {};
  return fmt::format("{}", fmt::join(rdma, ", "));
}

// What the failing CUDA, system or internal call was is in the lines NCCL
// prints at TRACE or in subsystems the log may lack; the code says which kind.
std::string_view failed_call_hint(uint32_t code) {
  switch (code) {
    case 1: return "a CUDA call failed inside NCCL (driver and CUDA versions, GPU memory, a faulty GPU)";
    case 2: return "a system call failed inside NCCL (sockets, shared memory, /dev/shm size, file limits)";
    case 3: return "NCCL hit an internal error";
    case 4:
    case 5: return "the application called NCCL wrongly";
    case 6: return "a peer process failed or went away";
    default: return "";
  }
}

// Tracebacks that no WARN introduces: NCCL returned an error to the caller
// without saying why (an INFO-level failure), one finding per error code.
void failed_call_findings(const JobModel& m, const RuleInfo& info, const CheckOptions& options, FindingSink& out) {
  std::set<std::pair<uint32_t, uint64_t>> warned;
  for (const auto& w : m.warnings) warned.emplace(w.host, w.pid);
  std::map<uint32_t, std::vector<const FailedCallRecord*>> by_code;
  for (const auto& r : m.failed_calls) {
    if (r.reached_caller && !r.recovered && !warned.count({r.host, r.pid})) by_code[r.code].push_back(&r);
  }
  // The application's own report of the error (PyTorch, nccl-tests) has its finding.
  auto reported_elsewhere = [&](uint32_t code) {
    std::string_view name = nccl_result_name(code);
    for (const auto& r : m.framework_errors) {
      if (r.nccl_error && r.nccl_error->error.find(name) != std::string::npos) return true;
    }
    for (const auto& fact : m.gpu_side.nccl_tests) {
      for (const auto& text : fact.run.failure_texts) {
        if (text.find(name) != std::string::npos) return true;
      }
    }
    return false;
  };
  for (const auto& [code, records] : by_code) {
    if (reported_elsewhere(code)) continue;
    Finding f = make_finding(info, "");
    f.severity = Severity::Error;
    f.subject = fmt::format("failed call {}", code);
    std::set<std::string> hosts;
    std::vector<std::string> host_list;
    for (const auto* r : records) {
      if (r->host != kNoHost && hosts.insert(m.host_name(r->host)).second) host_list.push_back(m.host_name(r->host));
    }
    // The longest traceback shows the most of the path.
    const FailedCallRecord& first = **std::max_element(
        records.begin(), records.end(), [](const auto* a, const auto* b) { return a->frames < b->frames; });
    std::string trace = first.frames > 1 ? fmt::format("{} ... {}", first.first_at, first.last_at) : first.first_at;
    std::string hint(failed_call_hint(code));
    f.message = fmt::format(
        "NCCL returned error {} ({}) to its caller {}without a WARN{}: {} process{}, traceback {}{}; the {} failed",
        code, nccl_result_name(code), first.in_init ? "during communicator init " : "",
        host_list.empty() ? std::string() : fmt::format(" on {}", names_text(host_list, options)), records.size(),
        records.size() == 1 ? "" : "es", trace, hint.empty() ? "" : "; " + hint, first.in_init ? "init" : "call");
    f.hosts.assign(hosts.begin(), hosts.end());
    for (const auto* r : records) {
      cite(m, f, r->first, options.max_evidence);
      if (r->last != r->first) cite(m, f, r->last, options.max_evidence);
    }
    out.add(std::move(f));
  }
}

void watchdog_findings(const JobModel& m, const RuleInfo& info, const CheckOptions& options, FindingSink& out) {
  using Timeout = WatchdogTimeout;
  std::map<int64_t, Timeout> by_rank;  // lowest SeqNum per rank (-1: unknown rank)
  Finding f = make_finding(info, "");
  f.severity = Severity::Error;
  f.subject = "watchdog timeout";
  std::set<uint32_t> hosts;
  for (const auto& r : m.framework_errors) {
    if (r.kind != FrameworkKind::WatchdogTimeout || !r.watchdog) continue;
    int64_t rk = -1;
    if (r.watchdog->rank) {
      rk = *r.watchdog->rank;
    } else if (r.launcher_rank) {
      rk = *r.launcher_rank;
    }
    const Timeout& t = *r.watchdog;
    auto [it, fresh] = by_rank.emplace(rk, t);
    if (!fresh && t.seq < it->second.seq) it->second = t;
    if (fresh) cite(m, f, r.line, options.max_evidence);
    hosts.insert(r.host);
  }
  if (by_rank.empty()) return;
  auto lowest = std::min_element(by_rank.begin(), by_rank.end(),
                                 [](const auto& a, const auto& b) { return a.second.seq < b.second.seq; });
  std::vector<uint32_t> ranks;
  std::set<uint64_t> seqs;
  for (const auto& [rk, t] : by_rank) {
    if (rk >= 0) ranks.push_back(static_cast<uint32_t>(rk));
    seqs.insert(t.seq);
  }
  const Timeout& t = lowest->second;
  std::string who = ranks.empty() ? std::string("a rank") : fmt::format("rank{} {}", ranks.size() == 1 ? "" : "s",
                                                                         format_ranges(ranks));
  f.message = fmt::format("PyTorch's NCCL watchdog timed out on {}: {} SeqNum={} ran for {} ms (timeout {} ms)", who,
                          t.op, t.seq, t.ran_ms, t.timeout_ms);
  if (seqs.size() > 1 && lowest->first >= 0) {
    f.message += fmt::format("; rank {} is furthest behind (lowest SeqNum {}): look at it first", lowest->first, t.seq);
  }
  f.message += "; NCCL prints no WARN for a hung collective: a rank that stopped calling it (crash, desync, data "
               "loader) or a stalled network link is the usual cause";
  f.ranks = ranks;
  f.hosts = host_names(m, hosts);
  out.add(std::move(f));
}

// PyTorch's heartbeat monitor found the watchdog thread itself blocked: one
// finding over every rank that says so.
void watchdog_stuck_findings(const JobModel& m, const RuleInfo& info, const CheckOptions& options, FindingSink& out) {
  Finding f = make_finding(info, "");
  f.severity = Severity::Error;
  f.subject = "watchdog stuck";
  std::set<uint32_t> hosts;
  std::set<uint32_t> ranks;
  uint64_t longest = 0;
  for (const auto& r : m.framework_errors) {
    if (r.kind != FrameworkKind::WatchdogStuck || !r.stuck) continue;
    longest = std::max(longest, r.stuck->seconds);
    if (r.stuck->rank) {
      ranks.insert(*r.stuck->rank);
    } else if (r.launcher_rank) {
      ranks.insert(*r.launcher_rank);
    }
    hosts.insert(r.host);
    cite(m, f, r.line, options.max_evidence);
  }
  if (f.evidence.empty()) return;
  std::vector<uint32_t> rank_list(ranks.begin(), ranks.end());
  std::string who = rank_list.empty() ? std::string("a rank")
                                      : fmt::format("rank{} {}", rank_list.size() == 1 ? "" : "s", format_ranges(rank_list));
  f.message = fmt::format(
      "PyTorch's NCCL watchdog got stuck for {} s on {}: a NCCL or CUDA call blocks it, so the process hangs (a "
      "collective some rank never joined, a stalled link, or a GPU fault); take stacks of the hung processes "
      "(py-spy dump --native) and look for the rank that is elsewhere",
      longest, who);
  f.ranks = rank_list;
  f.hosts = host_names(m, hosts);
  out.add(std::move(f));
}

// What ncclGetErrorString()'s text means for the user; empty when unknown.
std::string nccl_error_meaning(std::string_view error) {
  return error.starts_with("unhandled system error") ? "a system call or the network failed (the WARN or 'Last "
                                                       "error' lines say which)"
         : error.starts_with("unhandled cuda error") ? "a CUDA call failed"
         : error.starts_with("remote process exited") ? "a peer process exited or the network failed"
         : error.starts_with("internal error") ? "NCCL hit an internal check (often a remote failure seen late)"
         : error.starts_with("invalid") ? "the application called NCCL wrongly (NCCL_DEBUG=WARN says how)"
                                        : "";
}

// nccl-tests stops at its first failed call: `Test NCCL failure common.cu:961
// 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '`. One
// finding per error text, citing each failure line (the trace lines too).
void nccl_tests_failure_findings(const JobModel& m, const RuleInfo& info, const CheckOptions& options,
                                 FindingSink& out) {
  std::map<std::string, Finding> by_error;
  for (const auto& fact : m.gpu_side.nccl_tests) {
    const NcclTestsRun& run = fact.run;
    for (size_t i = 0; i < run.failure_texts.size() && i < run.failure_lines.size(); ++i) {
      std::string_view text = run.failure_texts[i];
      size_t open = text.find('\'');
      size_t close = text.rfind('\'');
      if (open == std::string_view::npos || close <= open) continue;  // a trace line of a failure cited
      std::string_view error = text.substr(open + 1, close - open - 1);
      error = error.substr(0, error.find(" (run with NCCL_DEBUG"));
      while (error.ends_with(' ') || error.ends_with('/')) error.remove_suffix(1);
      if (error.empty()) continue;
      auto [it, fresh] = by_error.try_emplace(std::string(error), make_finding(info, ""));
      Finding& f = it->second;
      if (fresh) {
        f.subject = "nccl-tests/" + std::string(error);
        f.severity = Severity::Error;
        std::string meaning = nccl_error_meaning(error);
        bool cuda = text.find("CUDA failure") != std::string_view::npos ||
                    text.find("Cuda failure") != std::string_view::npos;
        f.message = fmt::format("{} failed with {}: {}{}", run.op.empty() ? "nccl-tests" : run.op + "_perf",
                                cuda ? "a CUDA error" : "an NCCL error", error,
                                cuda || meaning.empty() ? std::string() : "; " + meaning);
      }
      cite(m, f, LineRef{fact.file, static_cast<uint32_t>(run.failure_lines[i])}, options.max_evidence);
    }
  }
  for (auto& [error, f] : by_error) out.add(std::move(f));
}

void backend_error_findings(const JobModel& m, const RuleInfo& info, const CheckOptions& options, FindingSink& out) {
  std::map<std::string, Finding> by_error;
  std::map<std::string, std::set<uint32_t>> ranks;
  for (const auto& r : m.framework_errors) {
    if (r.kind != FrameworkKind::NcclError || !r.nccl_error) continue;
    const auto& [error, version] = *r.nccl_error;
    auto [it, fresh] = by_error.try_emplace(error, make_finding(info, ""));
    Finding& f = it->second;
    if (fresh) {
      f.subject = error;
      f.severity = Severity::Error;
      std::string meaning = nccl_error_meaning(error);
      f.message = fmt::format("PyTorch raised an NCCL error{}: {}{}",
                              version.empty() ? std::string() : fmt::format(" (NCCL {})", version), error,
                              meaning.empty() ? std::string() : "; " + meaning);
    }
    if (r.launcher_rank) ranks[error].insert(*r.launcher_rank);
    if (r.host != kNoHost) f.hosts.push_back(m.host_name(r.host));
    cite(m, f, r.line, options.max_evidence);
  }
  for (auto& [error, f] : by_error) {
    std::sort(f.hosts.begin(), f.hosts.end());
    f.hosts.erase(std::unique(f.hosts.begin(), f.hosts.end()), f.hosts.end());
    f.ranks.assign(ranks[error].begin(), ranks[error].end());
    out.add(std::move(f));
  }
}

}  // namespace

void NcclWarning::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::map<std::string, Group> groups;
  auto add = [&](std::string_view message, std::string_view location, const std::string& who, LineRef line,
                 bool pytorch, const WarnClass& cls, const WarnRecord* warn) {
    std::string key = cls.group;
    if (cls.kind == WarnKind::Other) key += "/" + std::string(location) + "/" + mask_digits(message);
    auto [it, fresh] = groups.try_emplace(key);
    Group& g = it->second;
    if (fresh) {
      g.cls = cls;
      g.key = key;
      g.text = std::string(message);
      g.location = std::string(location);
      g.first = line;
    }
    ++g.count;
    if (pytorch) ++g.from_pytorch;
    ++g.per_host[who];
    if (!cls.peer.empty() && g.peers.size() < 16) g.peers.insert(cls.peer);
    if (g.lines.size() < ctx.options.max_evidence) g.lines.push_back(line);
    if (warn && warn->returned_to_caller && !g.failed_call) g.failed_call = warn;
  };
  for (const auto& w : m.warnings) add(w.message, w.location, m.host_name(w.host), w.line, false, w.cls, &w);
  for (const auto& r : m.framework_errors) {
    if (r.kind != FrameworkKind::LastError) continue;
    // PyTorch's copy of the WARN text: named by host when a launcher said, else by rank.
    std::string who = r.host != kNoHost ? m.host_name(r.host)
                      : r.launcher_rank ? fmt::format("rank{}", *r.launcher_rank)
                                        : std::string("?");
    add(r.text, "", who, r.line, true, r.cls, nullptr);
  }

  // The first completion error that is not a flush is the cause of the flushes.
  const Group* first_cause = nullptr;
  for (const auto& [key, g] : groups) {
    if (g.cls.kind == WarnKind::IbCompletion && !g.cls.consequence && (!first_cause || g.first < first_cause->first)) {
      first_cause = &g;
    }
  }

  std::vector<const Group*> ordered;
  for (const auto& [key, g] : groups) ordered.push_back(&g);
  std::sort(ordered.begin(), ordered.end(), [](const Group* a, const Group* b) { return a->first < b->first; });
  for (const Group* g : ordered) {
    Finding f = make_finding(kInfo, "");
    f.severity = severity_of(g->cls.severity);
    f.subject = g->key;
    std::vector<std::string> peers;
    std::set<std::string> hosts;
    std::vector<std::string> local_hosts;
    for (const auto& [host, n] : g->per_host) {
      if (host == "?" || (host.starts_with("rank") && !m.hosts.find(host))) continue;
      hosts.insert(host);
      local_hosts.push_back(host);
    }
    for (const auto& p : g->peers) {
      peers.push_back(describe_peer(m, p));
      if (auto it = m.ip_hosts.find(p); it != m.ip_hosts.end()) hosts.insert(m.host_name(it->second));
    }
    std::string local = local_hosts.empty() ? std::string() : fmt::format(" on {}", names_text(local_hosts, ctx.options));
    std::string peer_text = peers.empty() ? std::string()
                                          : fmt::format(" from peer{} {}", peers.size() == 1 ? "" : "s",
                                                        fmt::join(peers, ", "));
    switch (g->cls.kind) {
      case WarnKind::IbCompletion:
        f.message = fmt::format("NET/IB completion error{}{}: {}", local, peer_text, g->cls.explanation);
        if (g->cls.consequence) {
          f.message += first_cause ? fmt::format("; the first error is status {} at {}", first_cause->cls.status,
                                                 m.where(first_cause->first))
                                   : "; the first error is not in this log: look at the peer's log";
        }
        break;
      case WarnKind::Other:
        f.message = fmt::format("NCCL WARN{}{}: {}", g->location.empty() ? "" : " at " + g->location, local, g->text);
        break;
      default:
        f.message = fmt::format("{}{}{}: {}", g->text, local, peer_text, g->cls.explanation);
        if (g->cls.kind == WarnKind::NetPlugin && g->cls.severity == WarnSeverity::Warning && !g->failed_call) {
          std::string rdma = rdma_in_use(m, ctx.options);
          if (!m.using_network.count("Socket") && !rdma.empty() &&
              !(g->text.starts_with("NET/OFI") && rdma.find("Libfabric") != std::string::npos)) {
            // A plugin that loads and fails is harmless once NCCL runs on its own IB.
            f.severity = Severity::Info;
            f.message += fmt::format("; harmless here: NCCL uses network {}", rdma);
          } else if (shows_one_host(m) && (!m.using_network.count("Socket") || !m.comms.empty())) {
            // No traffic between hosts seen, nothing that a network could slow;
            // after a fall back to sockets, only where Init lines show whole
            // communicators on the host.
            f.severity = Severity::Info;
            f.message += "; no cost seen: the input shows one host, and NCCL needs a network only between hosts";
          } else if (m.using_network.count("Socket")) {
            f.message += "; this job did fall back to network Socket ('Using network Socket')";
            f.related = {"ND3001"};
          } else if (ctx.input_open) {
            continue;  // harmless or not depends on the network NCCL takes next
          }
        }
        break;
    }
    if (const WarnRecord* w = g->failed_call) {
      // Whatever the message, NCCL did not get past it.
      f.severity = Severity::Error;
      f.message += fmt::format("; NCCL returned the error to its caller ({} -> {}: {}), so the call failed",
                               w->returned_at, w->returned_code, nccl_result_name(w->returned_code));
    }
    f.message += fmt::format(" ({})", counts(*g));
    f.hosts.assign(hosts.begin(), hosts.end());
    for (LineRef ref : g->lines) cite(m, f, ref, ctx.options.max_evidence);
    if (g->cls.kind == WarnKind::VersionMismatch) f.related = {"ND3100"};
    if (g->cls.kind == WarnKind::SocketConfig || g->cls.kind == WarnKind::Socket) f.related = {"ND3110", "ND1100"};
    out.add(std::move(f));
  }
  failed_call_findings(m, kInfo, ctx.options, out);
  watchdog_findings(m, kInfo, ctx.options, out);
  watchdog_stuck_findings(m, kInfo, ctx.options, out);
  backend_error_findings(m, kInfo, ctx.options, out);
  nccl_tests_failure_findings(m, kInfo, ctx.options, out);
  if (m.warnings_dropped > 0) {
    Finding f = make_finding(kInfo, fmt::format("{} more WARN lines past the first {} were counted but not classified",
                                                m.warnings_dropped, JobModel::kMaxWarnings));
    f.severity = Severity::Info;
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_nccl_warning() { return std::make_unique<NcclWarning>(); }

}  // namespace nd
