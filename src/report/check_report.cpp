#include "src/report/check_report.h"

#include <algorithm>
#include <optional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/transport/edge_groups.h"
#include "src/model/ring_graph.h"

namespace nd {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Inconclusive: return "inconclusive";
  }
  return "unknown";
}

namespace {

// Orders versions numerically: 2.4.8 < 2.18.3.
bool version_less(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& v) {
    std::vector<int> out;
    size_t pos = 0;
    while (pos <= v.size()) {
      size_t dot = v.find('.', pos);
      out.push_back(std::atoi(v.substr(pos, dot - pos).c_str()));
      if (dot == std::string::npos) break;
      pos = dot + 1;
    }
    return out;
  };
  return parts(a) < parts(b);
}

}  // namespace

JobSummary summarize(const JobModel& model, const CheckOptions& options) {
  (void)options;
  JobSummary s;
  s.files = model.files;
  s.counters = model.counters;
  s.communicators = model.comms.size();
  uint32_t max_nodes = 0;
  for (const auto& c : model.comms) {
    max_nodes = std::max(max_nodes, c.nnodes);
    s.ranks = std::max<size_t>(s.ranks, c.size());
    CommSummary cs;
    cs.key = c.key;
    cs.nranks = c.size();
    cs.nnodes = c.nnodes;
    cs.synthetic = c.synthetic;
    std::set<uint32_t> hosts, channels;
    for (const auto& r : c.ranks) {
      if (r.host != kNoHost) hosts.insert(r.host);
    }
    for (const auto& e : c.edges) channels.insert(e.channel);
    cs.hosts = hosts.size();
    cs.channels = channels.size();
    cs.edges = c.edges.size();
    s.comms.push_back(cs);
  }
  s.hosts = max_nodes ? max_nodes : model.hosts.size();
  s.named_hosts = model.hosts.size();
  for (const auto& p : model.processes) s.host_unknown_processes += p.host == kNoHost;
  for (const auto& [v, _] : model.versions) s.nccl_versions.push_back(v);
  std::sort(s.nccl_versions.begin(), s.nccl_versions.end(), version_less);
  for (const auto& [n, _] : model.using_network) s.networks.push_back(n);

  std::set<std::string> intra, inter;
  size_t net_edges = 0, gdr_edges = 0;
  for_each_edge(model, [&](const EdgeView& e) {
    bool is_net = e.transport.family == TransportFamily::NET;
    if (e.locality == Locality::Intra) {
      if (e.transport.family != TransportFamily::Unknown && e.transport.family != TransportFamily::CollNet) {
        intra.insert(family_name(e.transport.family));
      }
    } else if (is_net) {
      inter.insert(e.transport.net_name);
    }
    if (is_net && e.locality != Locality::Intra) {
      ++net_edges;
      gdr_edges += e.gdr ? 1 : 0;
    }
  });
  if (model.max_nvls_channels > 0 || model.nvls_connected) intra.insert("NVLS");
  s.intra.assign(intra.begin(), intra.end());
  s.inter.assign(inter.begin(), inter.end());
  s.gdr = net_edges == 0 ? "na" : gdr_edges == net_edges ? "yes" : gdr_edges == 0 ? "no" : "mixed";
  return s;
}

namespace {

struct GapInput {
  const JobModel& model;
  const JobSummary& summary;
  const InputCounters& c;
  std::string newest;  // newest NCCL version in the log, "" when unknown
};

// One kind of missing evidence: when it applies, what it says, and which
// rules it leaves undecided. Checked in order; a `last` entry that applies
// ends the list, because every later entry presumes the lines it lacks.
struct GapRule {
  std::optional<Gap> (*applies)(const GapInput& in);
  bool last;
};

std::optional<Gap> no_nccl_lines(const GapInput& in) {
  if (in.c.nccl_lines != 0) return std::nullopt;
  return Gap{"the input holds no NCCL debug lines", "NCCL_DEBUG=INFO"};
}

std::optional<Gap> warn_only(const GapInput& in) {
  if (in.c.info_lines != 0) return std::nullopt;
  return Gap{"the log holds only NCCL WARN lines (NCCL_DEBUG=WARN)", "NCCL_DEBUG=INFO"};
}

std::optional<Gap> no_connection_lines(const GapInput& in) {
  if (in.c.connection_lines != 0) return std::nullopt;
  if (in.c.init_lines == 0) {
    return Gap{"the log has no INIT lines: no communicator setup and no connection lines "
               "(NCCL_DEBUG_SUBSYS leaves out INIT)",
               "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV (or unset NCCL_DEBUG_SUBSYS)"};
  }
  if (!in.newest.empty() && !version_less(in.newest, "2.22.0")) {
    return Gap{fmt::format("the log has no connection lines: NCCL {} connects at the first collective, and "
                           "the log ends before one",
                           in.newest),
               "NCCL_RUNTIME_CONNECT=0 (connect at init), or log past the first collective"};
  }
  return Gap{"the log has no connection lines (`Channel NN : a -> b via ...`)",
             "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET"};
}

std::optional<Gap> unplaced_connections(const GapInput& in) {
  size_t known = 0;
  for_each_edge(in.model, [&](const EdgeView& e) { known += e.locality != Locality::Unknown; });
  if (known != 0) return std::nullopt;
  if (in.summary.host_unknown_processes > 0) {
    return Gap{"no connection's two ranks can be placed on hosts: the log's lines name no host (their "
               "`host:pid:tid` prefix is missing or anonymised)",
               "the log as NCCL wrote it, `host:pid:tid` prefixes included"};
  }
  return Gap{"no connection's two ranks can be placed on hosts: the log lacks the Init lines "
             "(`comm ... rank ... - Init COMPLETE`)",
             "NCCL_DEBUG=INFO with INIT in NCCL_DEBUG_SUBSYS, and every rank's output"};
}

std::optional<Gap> no_inter_node_lines(const GapInput& in) {
  if (in.summary.hosts <= 1) return std::nullopt;
  size_t inter = 0;
  for_each_edge(in.model, [&](const EdgeView& e) {
    inter += e.locality == Locality::Inter ||
             (e.locality == Locality::Unknown && e.transport.family == TransportFamily::NET);
  });
  if (inter != 0) return std::nullopt;
  return Gap{fmt::format("the job spans {} hosts but the log has no inter-node connection lines", in.summary.hosts),
             "every rank's output (all hosts), NCCL_DEBUG_SUBSYS=INIT,NET; with NCCL 2.22+ also "
             "NCCL_RUNTIME_CONNECT=0"};
}

// 2.22+ connects a ring only when an algorithm first uses it, so connection
// lines show part of the rings; only the GRAPH lines show all of them. Older
// versions connect every ring at init and need no GRAPH lines.
std::optional<Gap> no_graph_lines(const GapInput& in) {
  if (in.newest.empty() || version_less(in.newest, "2.22.0")) return std::nullopt;
  for (const auto& comm : in.model.comms) {
    if (!comm.graph_rings.empty() || !comm.listings.empty()) return std::nullopt;
  }
  return Gap{fmt::format("the log has no GRAPH lines (`Ring NN : p -> r -> n`) and no ring listings: NCCL {} "
                         "connects rings at their first use, so ring and tree checks see only part of them",
                         in.newest),
             "NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH", {"ND2"}};
}

constexpr GapRule kGapRules[] = {
    {no_nccl_lines, true},        {warn_only, true},           {no_connection_lines, true},
    {unplaced_connections, false}, {no_inter_node_lines, false}, {no_graph_lines, false},
};

}  // namespace

std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary) {
  GapInput in{model, summary, model.counters,
              summary.nccl_versions.empty() ? std::string() : summary.nccl_versions.back()};
  std::vector<Gap> gaps;
  for (const auto& rule : kGapRules) {
    auto gap = rule.applies(in);
    if (!gap) continue;
    gaps.push_back(std::move(*gap));
    if (rule.last) break;
  }
  return gaps;
}

std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary, const Registry& registry,
                           const RuleSelection& selection) {
  std::vector<Gap> gaps = find_gaps(model, summary);
  // A gap that leaves only disabled or absent rules undecided is no gap.
  std::erase_if(gaps, [&](const Gap& g) {
    if (g.affects.empty()) return false;
    for (const auto& rule : registry.rules()) {
      std::string_view id = rule->info().id;
      if (!selection.enabled(id)) continue;
      for (const auto& prefix : g.affects) {
        if (id.starts_with(prefix)) return false;
      }
    }
    return true;
  });
  return gaps;
}

namespace {

bool fails(Severity s, FailOn fail_on) {
  switch (fail_on) {
    case FailOn::Error: return s == Severity::Error;
    case FailOn::Warning: return s != Severity::Info;
    case FailOn::Info:
    case FailOn::Inconclusive: return true;
  }
  return false;
}

}  // namespace

Verdict decide(const std::vector<Finding>& findings, const std::vector<Gap>& gaps, FailOn fail_on) {
  for (const auto& f : findings) {
    if (fails(f.severity, fail_on)) return Verdict::Fail;
  }
  return gaps.empty() ? Verdict::Pass : Verdict::Inconclusive;
}

int exit_code(const CheckReport& report, FailOn fail_on) {
  if (!report.input_errors.empty()) return 2;
  if (report.verdict == Verdict::Fail) return 1;
  if (report.verdict == Verdict::Inconclusive && fail_on == FailOn::Inconclusive) return 1;
  return 0;
}

void link_related(std::vector<Finding>& findings) {
  std::set<std::string> fired;
  for (const auto& f : findings) fired.insert(f.id);
  for (auto& f : findings) {
    std::erase_if(f.related, [&](const std::string& id) { return !fired.count(id) || id == f.id; });
  }
  std::map<std::string, std::set<std::string>> back;
  for (const auto& f : findings) {
    for (const auto& id : f.related) back[id].insert(f.id);
  }
  for (auto& f : findings) {
    auto it = back.find(f.id);
    if (it == back.end()) continue;
    for (const auto& id : it->second) {
      if (std::find(f.related.begin(), f.related.end(), id) == f.related.end()) f.related.push_back(id);
    }
    std::sort(f.related.begin(), f.related.end());
  }
}

}  // namespace nd
