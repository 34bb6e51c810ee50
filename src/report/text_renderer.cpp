#include "src/report/text_renderer.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/report/job_links.h"
#include "src/report/summary_renderer.h"
#include "src/util/ranges.h"
#include "src/util/text.h"

namespace nd {
namespace {

const char* color_of(Severity s) {
  switch (s) {
    case Severity::Error: return "\x1b[1;31m";
    case Severity::Warning: return "\x1b[1;33m";
    case Severity::Info: return "\x1b[1;36m";
  }
  return "";
}

std::string paint(const TextStyle& style, const char* code, const std::string& text) {
  return style.color ? fmt::format("{}{}\x1b[0m", code, text) : text;
}

std::string list_or(const std::vector<std::string>& items, const char* none) {
  return items.empty() ? std::string(none) : fmt::format("{}", fmt::join(items, ", "));
}

// "connections of 16 of 16 ranks on 2 of 2 hosts, channels 00-01"
std::string coverage_text(const Coverage& c) {
  std::vector<uint32_t> channels = c.channels;
  std::string hosts = c.hosts_seen > 0       ? fmt::format(" on {} of {}", c.hosts_seen, plural(c.hosts_announced, "host"))
                      : c.hosts_announced > 0 ? fmt::format(", hosts unknown ({} announced)", c.hosts_announced)
                                              : std::string(", hosts unknown");
  return fmt::format("connections of {} of {}{}, {}", c.ranks_seen, plural(c.ranks_announced, "rank"), hosts,
                     fmt::format("channel{} {}", channels.size() == 1 ? "" : "s", format_ranges(channels, 2)));
}

// `RoCE (IBext_v8)`: the family, then the names NCCL printed where they differ;
// without connection lines, what the family was read from.
std::string inter_node(const JobSummary& s) {
  if (s.inter_families.empty()) return list_or(s.inter, "none seen");
  std::string out = list_or(s.inter_families, "");
  if (s.inter_from == "network") return out + " (NCCL's choice; no inter-node connection lines)";
  if (s.inter_from == "warnings") return out + " (from IB WARNs; no inter-node connection lines)";
  if (!s.inter.empty() && s.inter != s.inter_families) out += fmt::format(" ({})", fmt::join(s.inter, ", "));
  return out;
}

// "2 hosts"; "host unknown" when no line names one; "1 host, name unknown"
// when only NCCL's node count tells.
std::string hosts_text(const JobSummary& s) {
  if (s.host_unknown_processes == 0) return plural(s.hosts, "host");
  if (s.named_hosts == 0) {
    return s.hosts == 0 ? std::string("host unknown") : fmt::format("{}, {} unknown", plural(s.hosts, "host"), s.hosts == 1 ? "name" : "names");
  }
  return fmt::format("{} and lines whose host is unknown", plural(s.hosts, "host"));
}

// "idle NICs: mlx5_2, mlx5_3 on gpu001, gpu004", one line per set of NICs,
// the most common first.
std::string idle_nics_lines(const JobSummary& s) {
  std::map<std::vector<std::string>, std::vector<std::string>> hosts_of;
  for (const auto& r : s.rails) {
    if (!r.idle_nics.empty()) hosts_of[r.idle_nics].push_back(r.name);
  }
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups(hosts_of.begin(), hosts_of.end());
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string out;
  constexpr size_t kShown = 4;
  size_t rest = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (i < kShown) {
      out += fmt::format("{} on {}\n", idle_nics_text(groups[i].first), host_list(groups[i].second));
    } else {
      rest += groups[i].second.size();
    }
  }
  if (rest > 0) out += fmt::format("idle NICs: other sets on {} (nccl-doctor summary lists them)\n", plural(rest, "host"));
  return out;
}

}  // namespace

std::string idle_nics_text(const std::vector<std::string>& nics) {
  std::vector<std::string> shown;
  for (const auto& n : nics) shown.push_back(display(n, 24));
  return fmt::format("idle NICs: {}", fmt::join(shown, ", "));
}

std::string explain_hint(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (Severity sev : {Severity::Error, Severity::Warning, Severity::Info}) {
    for (const auto& f : findings) {
      if (f.severity == sev && std::find(ids.begin(), ids.end(), f.id) == ids.end()) ids.push_back(f.id);
    }
  }
  if (ids.empty()) return {};
  return fmt::format("details: nccl-doctor explain {}\n", fmt::join(ids, " "));
}

std::string render_finding(const Finding& f, const TextStyle& style) {
  std::string out = fmt::format("{}: {} [{} {}]\n", paint(style, color_of(f.severity), severity_name(f.severity)),
                                printable(f.message), f.id, f.slug);
  for (const auto& e : f.evidence) {
    if (e.line == 0) {
      out += fmt::format("    {}{}\n", printable(e.file), e.text.empty() ? "" : ": " + printable(e.text));
    } else if (e.text.empty()) {
      out += fmt::format("    {}:{}\n", printable(e.file), e.line);
    } else {
      out += fmt::format("    {}:{}: {}\n", printable(e.file), e.line, printable(e.text));
    }
  }
  if (!f.related.empty()) out += fmt::format("    related: {}\n", fmt::join(f.related, ", "));
  if (!f.fix.empty()) out += fmt::format("    fix: {}\n", f.fix);
  return out;
}

namespace {

// "beside the log: nvidia-smi-dmon (dmon.txt), nvidia-smi (smi.txt); 8 GPUs, 1 nccl-tests run";
// "beside the log: probe-record (probes.jsonl); 2 probe records"
std::string beside_the_log(const GpuSideSummary& g) {
  std::vector<std::string> kinds;
  for (const auto& k : g.inputs) {
    if (k.kind != "nccl-log" && k.kind != "bindings") kinds.push_back(fmt::format("{} ({})", k.kind, printable(k.path)));
  }
  if (kinds.empty()) return {};
  std::vector<std::string> counts;
  if (!g.gpus.empty()) counts.push_back(plural(g.gpus.size(), "GPU"));
  if (!g.topology.empty()) counts.push_back(fmt::format("{} topo -m", g.topology.size()));
  if (!g.nccl_tests.empty()) counts.push_back(plural(g.nccl_tests.size(), "nccl-tests run"));
  if (g.timelines > 0) counts.push_back(plural(g.timelines, "Horovod timeline"));
  if (!g.probe_records.empty()) counts.push_back(plural(g.probe_records.size(), "probe record"));
  if (kinds.size() > 4) {
    size_t more = kinds.size() - 3;
    kinds.resize(3);
    kinds.push_back(fmt::format("{} more", more));
  }
  return fmt::format("beside the log: {}{}{}\n", fmt::join(kinds, ", "), counts.empty() ? "" : "; ",
                     fmt::join(counts, ", "));
}

}  // namespace

std::string render_text(const CheckReport& report, const TextStyle& style) {
  const JobSummary& s = report.summary;
  std::string out;
  out += fmt::format("job: {}, {}{}, {}; NCCL {}\n", hosts_text(s), s.ranks_stated || s.ranks == 0 ? "" : "at least ",
                     plural(s.ranks, "rank"),
                     plural(s.communicators, "communicator"), list_or(names(s.nccl_versions), "version unknown"));
  out += fmt::format("transports: intra-node {}; inter-node {}; GPUDirect RDMA {}\n", list_or(s.intra, "none seen"),
                     inter_node(s), s.gdr);
  out += fmt::format("input: {} read, {} from NCCL, {} of unrecognized shape\n", plural(s.counters.lines, "line"),
                     s.counters.nccl_lines, s.counters.unknown_lines);
  out += beside_the_log(s.gpu_side);
  for (const auto& e : report.input_errors) out += fmt::format("input error: {}\n", printable(e));
  if (!s.coverage.channels.empty()) out += fmt::format("coverage: {}\n", coverage_text(s.coverage));
  out += idle_nics_lines(s);
  for (const auto& g : report.gaps) {
    if (!g.blocks_verdict) out += fmt::format("not checked: {}\n    rerun with: {}\n", g.reason, g.rerun);
  }

  size_t counts[3] = {0, 0, 0};
  for (Severity sev : {Severity::Error, Severity::Warning, Severity::Info}) {
    bool first = true;
    for (const auto& f : report.findings) {
      if (f.severity != sev) continue;
      if (first) out += "\n";
      first = false;
      ++counts[static_cast<int>(sev)];
      out += render_finding(f, style);
    }
  }
  bool first_gap = true;
  for (const auto& g : report.gaps) {
    if (!g.blocks_verdict) continue;
    if (first_gap) out += "\n";
    first_gap = false;
    out += fmt::format("{}: {}\n    rerun with: {}\n", paint(style, "\x1b[1;35m", "inconclusive"), g.reason, g.rerun);
  }
  size_t errors = counts[static_cast<int>(Severity::Error)];
  size_t warnings = counts[static_cast<int>(Severity::Warning)];
  size_t infos = counts[static_cast<int>(Severity::Info)];
  std::string verdict;
  switch (report.verdict) {
    case Verdict::Fail: verdict = paint(style, "\x1b[1;31m", "FAIL"); break;
    case Verdict::Pass: verdict = paint(style, "\x1b[1;32m", "PASS"); break;
    case Verdict::Warn: verdict = paint(style, "\x1b[1;33m", "WARN"); break;
    case Verdict::Inconclusive: verdict = paint(style, "\x1b[1;35m", "INCONCLUSIVE"); break;
  }
  out += fmt::format("\nverdict: {} ({}, {}, {})\n", verdict, plural(errors, "error"), plural(warnings, "warning"),
                     plural(infos, "note"));
  out += explain_hint(report.findings);
  return out;
}

}  // namespace nd
