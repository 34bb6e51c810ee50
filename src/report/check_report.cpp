#include "src/report/check_report.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "checks/config/nccl_releases.h"
#include "checks/transport/edge_groups.h"
#include "src/model/ring_graph.h"
#include "src/util/text.h"

namespace nd {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Warn: return "warn";
    case Verdict::Fail: return "fail";
    case Verdict::Inconclusive: return "inconclusive";
  }
  return "unknown";
}

namespace {

struct GapInput {
  const JobModel& model;
  const JobSummary& summary;
  const InputCounters& c;
  std::string newest;  // newest NCCL version in the log, "" when unknown
  bool busbw_expected = false;  // --expect-busbw
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
  // nvidia-smi or nccl-tests output alone is judged on its own: only the
  // rules that read the NCCL log stay undecided.
  const GpuSideSummary& side = in.summary.gpu_side;
  // nccl-tests output alone, whose bandwidth nothing says what to expect of
  // (a run across hosts without their NIC list): nothing was judged.
  bool tests_only = side.gpus.empty() && side.topology.empty() && side.timelines == 0 && side.probe_records.empty();
  bool unjudged = !in.busbw_expected && std::none_of(side.nccl_tests.begin(), side.nccl_tests.end(),
                                                     [](const NcclTestsSummary& t) { return t.expected_gbs.has_value(); });
  bool failed = std::any_of(side.nccl_tests.begin(), side.nccl_tests.end(), [](const NcclTestsSummary& t) {
    return t.wrong > 0 || t.out_of_bounds_failed || t.failures > 0;
  });
  if (side.any() && tests_only && unjudged && !failed) {
    return Gap{"the input holds no NCCL debug lines, and nothing says what bus bandwidth the nccl-tests run should "
               "reach (a run across hosts needs their NICs)",
               "--expect-busbw GB/s, or the same run with NCCL_DEBUG=INFO (its NET/IB : Using lines) or nvidia-smi "
               "topo -m"};
  }
  if (side.any()) {
    return Gap{"the input holds no NCCL debug lines", "NCCL_DEBUG=INFO", {"ND2", "ND3"}, false};
  }
  return Gap{"the input holds no NCCL debug lines", "NCCL_DEBUG=INFO"};
}

std::optional<Gap> warn_only(const GapInput& in) {
  if (in.c.info_lines != 0) return std::nullopt;
  return Gap{"the log holds only NCCL WARN lines (NCCL_DEBUG=WARN)", "NCCL_DEBUG=INFO"};
}

// NCCL_DEBUG_SUBSYS as NCCL reads it: a comma list, any case, ALL for
// every subsystem, a leading `^` for all but those listed.
bool subsys_includes_init(std::string_view value) {
  bool except = value.starts_with('^');
  if (except) value.remove_prefix(1);
  bool listed = false;
  while (!value.empty()) {
    std::string_view item = value.substr(0, value.find(','));
    value.remove_prefix(std::min(value.size(), item.size() + 1));
    std::string upper(trim(item));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    listed |= upper == "INIT" || upper == "ALL";
  }
  return except != listed;
}

std::optional<Gap> no_connection_lines(const GapInput& in) {
  if (in.c.connection_lines != 0) return std::nullopt;
  // NCCL prints connection lines late in init: an input that stops before
  // any Init COMPLETE is the head of a log, whatever the subsystems were.
  bool completed = false, in_init = false;
  for (const auto& comm : in.model.comms) {
    for (const auto& r : comm.ranks) {
      completed |= r.init_completed;
      in_init |= r.init_started;
    }
  }
  // Before 2.18.3 no Init START: init-phase lines stand for it.
  auto newest = parse_nccl_version(in.newest);
  if (!newest || *newest < NcclVersion{2, 18, 3}) {
    for (const auto& p : in.model.processes) in_init |= p.init_phase;
  }
  if (!completed && in_init) {
    return Gap{"the log has no connection lines: it ends during communicator init, before NCCL printed them "
               "(an excerpt?)",
               "the job's output past its `Init COMPLETE` lines (with NCCL 2.22+, past its first collective)"};
  }
  bool init_phase = false;
  for (const auto& p : in.model.processes) init_phase |= p.init_phase;
  if (in.c.init_lines == 0 && init_phase) {
    return Gap{"the log has no Init and no connection lines, though it has other lines of NCCL's init (network, "
               "rings): an excerpt, or lines picked out by grep?",
               "the job's whole output"};
  }
  if (in.c.init_lines == 0) {
    // Only a subsystem list the log shows explains it; else a paste is
    // most often an excerpt.
    bool subsys_without_init = std::any_of(in.model.env.begin(), in.model.env.end(), [](const auto& e) {
      return e.name == "NCCL_DEBUG_SUBSYS" && !subsys_includes_init(e.value);
    });
    if (subsys_without_init) {
      return Gap{"the log has no INIT lines: no communicator setup and no connection lines "
                 "(NCCL_DEBUG_SUBSYS leaves out INIT)",
                 "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV (or unset NCCL_DEBUG_SUBSYS)"};
    }
    return Gap{"the log has no communicator setup and no connection lines (`comm ... - Init COMPLETE`, "
               "`Channel NN : a -> b via ...`): an excerpt?",
               "the job's whole output, with NCCL_DEBUG=INFO (and INIT in NCCL_DEBUG_SUBSYS, if that is set)"};
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

// The rules that need to know which links cross hosts: transports between
// and inside hosts, rails, cross-socket traffic.
const std::vector<std::string> kLocalityRules = {"ND2009", "ND2100", "ND2101", "ND3001",
                                                 "ND3003", "ND3004", "ND3005", "ND3006"};

std::optional<Gap> unplaced_connections(const GapInput& in) {
  size_t known = 0;
  for_each_edge(in.model, [&](const EdgeView& e) { known += e.locality != Locality::Unknown; });
  if (known != 0) return std::nullopt;
  if (in.summary.host_unknown_processes > 0) {
    return Gap{"whether links stay inside a host: no connection's two ranks can be placed on hosts (the log's "
               "lines name no host: their `host:pid:tid` prefix is missing or anonymised)",
               "the log as NCCL wrote it, `host:pid:tid` prefixes included", kLocalityRules, false};
  }
  return Gap{"whether links stay inside a host: no connection's two ranks can be placed on hosts (the log lacks "
             "the Init lines `comm ... rank ... - Init COMPLETE`)",
             "NCCL_DEBUG=INFO with INIT in NCCL_DEBUG_SUBSYS, and every rank's output", kLocalityRules, false};
}

std::optional<Gap> no_inter_node_lines(const GapInput& in) {
  if (in.summary.hosts <= 1) return std::nullopt;
  size_t inter = 0;
  for_each_edge(in.model, [&](const EdgeView& e) {
    inter += e.locality == Locality::Inter ||
             (e.locality == Locality::Unknown && e.transport.family == TransportFamily::NET);
  });
  if (inter != 0) return std::nullopt;
  return Gap{fmt::format("links between hosts: the job spans {} hosts but the log has no inter-node connection lines",
                         in.summary.hosts),
             "every rank's output (all hosts), NCCL_DEBUG_SUBSYS=INIT,NET; with NCCL 2.22+ also "
             "NCCL_RUNTIME_CONNECT=0",
             kLocalityRules, false};
}

// 2.22+ connects a ring only when an algorithm first uses it, so connection
// lines show part of the rings; only the GRAPH lines show all of them. Older
// versions connect every ring at init and need no GRAPH lines.
std::optional<Gap> no_graph_lines(const GapInput& in) {
  if (in.newest.empty() || version_less(in.newest, "2.22.0")) return std::nullopt;
  for (const auto& comm : in.model.comms) {
    if (!comm.graph_rings.empty() || !comm.listings.empty()) return std::nullopt;
  }
  return Gap{fmt::format("whole rings and trees: the log has no GRAPH lines (`Ring NN : p -> r -> n`) and no ring "
                         "listings, and NCCL {} connects rings at their first use, so ring and tree checks see only "
                         "part of them",
                         in.newest),
             "NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH", {"ND2"}, false};
}

// Binding rules read the launcher's own report; NCCL prints only the
// affinity it applied.
std::optional<Gap> no_binding_report(const GapInput& in) {
  if (in.summary.coverage.bindings) return std::nullopt;
  return Gap{"CPU binding: the input has no launcher binding report",
             "mpirun --report-bindings, or srun --cpu-bind=verbose", {"ND2011", "ND2012"}, false};
}

constexpr GapRule kGapRules[] = {
    {no_nccl_lines, true},        {warn_only, true},           {no_connection_lines, true},
    {unplaced_connections, false}, {no_inter_node_lines, false}, {no_graph_lines, false},
    {no_binding_report, false},
};

}  // namespace

std::vector<Gap> find_gaps(const JobModel& model, const JobSummary& summary, bool busbw_expected) {
  GapInput in{model, summary, model.counters,
              summary.nccl_versions.empty() ? std::string() : summary.nccl_versions.back().name, busbw_expected};
  std::vector<Gap> gaps;
  for (const auto& rule : kGapRules) {
    auto gap = rule.applies(in);
    if (!gap) continue;
    gaps.push_back(std::move(*gap));
    if (rule.last) break;
  }
  return gaps;
}

namespace {

// A gap that leaves only disabled or absent rules undecided is no gap.
void keep_enabled(std::vector<Gap>& gaps, const Registry& registry, const RuleSelection& selection) {
  std::erase_if(gaps, [&](const Gap& g) {
    if (g.affects.empty()) return false;
    for (const auto& rule : registry.rules()) {
      std::string_view id = rule->info().id;
      if (selection.enabled(id) && gap_affects(g, id)) return false;
    }
    return true;
  });
}

}  // namespace

bool gap_affects(const Gap& gap, std::string_view rule_id) {
  if (gap.affects.empty()) return gap.blocks_verdict;
  for (const auto& prefix : gap.affects) {
    if (rule_id.starts_with(prefix)) return true;
  }
  return false;
}

namespace {

bool reaches(Severity s, FailOn fail_on) {
  switch (fail_on) {
    case FailOn::Error: return s == Severity::Error;
    case FailOn::Warning: return s != Severity::Info;
    case FailOn::Info:
    case FailOn::Inconclusive: return true;
  }
  return false;
}

}  // namespace

bool CheckReport::fails(const Finding& f) const { return reaches(f.severity, fail_on); }

Verdict decide(const std::vector<Finding>& findings, const std::vector<Gap>& gaps, FailOn fail_on) {
  bool warnings = false;
  for (const auto& f : findings) {
    if (reaches(f.severity, fail_on)) return Verdict::Fail;
    warnings |= f.severity != Severity::Info;
  }
  for (const auto& g : gaps) {
    if (g.blocks_verdict) return Verdict::Inconclusive;
  }
  return warnings ? Verdict::Warn : Verdict::Pass;
}

void judge(CheckReport& report, const Registry& registry, const RuleSelection& selection, FailOn fail_on) {
  keep_enabled(report.gaps, registry, selection);
  report.rules.clear();
  for (const auto& rule : registry.rules()) {
    const RuleInfo& info = rule->info();
    if (!selection.enabled(info.id)) continue;
    RuleStatus status{std::string(info.id), std::string(info.slug), {}};
    for (size_t g = 0; g < report.gaps.size(); ++g) {
      if (gap_affects(report.gaps[g], info.id)) status.gaps.push_back(g);
    }
    report.rules.push_back(std::move(status));
  }
  report.fail_on = fail_on;
  report.verdict = decide(report.findings, report.gaps, fail_on);
}

int exit_code(const CheckReport& report, FailOn fail_on) {
  if (!report.input_errors.empty()) return 2;
  // Framework lines alone (a PyTorch watchdog timeout) can still be judged.
  bool judged = std::any_of(report.findings.begin(), report.findings.end(),
                            [](const Finding& f) { return f.severity != Severity::Info; });
  if (report.summary.counters.nccl_lines == 0 && !report.summary.gpu_side.any() && !judged) return kExitNoNcclLines;
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
