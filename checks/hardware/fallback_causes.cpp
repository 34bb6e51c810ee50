#include "checks/hardware/fallback_causes.h"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/model/job_model.h"

namespace nd {
namespace {

// NCCL takes sockets when its IB transport finds no usable port: no device,
// no verbs, no ACTIVE port, the wrong link layer, no RoCE v2 GID, no LID, or
// memory it cannot register.
constexpr std::array<std::string_view, 7> kSocketCauses = {"ND4001", "ND4002", "ND4003", "ND4005",
                                                          "ND4006", "ND4008", "ND4013"};
// NCCL drops GPUDirect RDMA without peermem or dma-buf, and for a GPU whose
// NIC is farther than NCCL_NET_GDR_LEVEL (PXB by default); ACS redirect sends
// peer traffic through the root complex.
constexpr std::array<std::string_view, 3> kGdrCauses = {"ND4007", "ND4009", "ND4010"};
// P2P through a bridge that redirects peer requests goes through the root
// complex; NCCL falls back to SHM where P2P does not work.
constexpr std::array<std::string_view, 1> kShmCauses = {"ND4009"};

constexpr size_t kCausesInMessage = 2;

struct Cause {
  const RecordedNode* node;
  const Finding* finding;
};

}  // namespace

std::span<const std::string_view> fallback_cause_rules(std::string_view id) {
  if (id == "ND3001" || id == "ND3005") return kSocketCauses;
  if (id == "ND3004") return kGdrCauses;
  if (id == "ND3002") return kShmCauses;
  return {};
}

bool same_host(std::string_view log_host, std::string_view record_host) { return same_host_name(log_host, record_host); }

std::string cause_words(const RecordedNode& node, const Finding& cause) {
  // A node rule's message says what is wrong before its first ": ", then why
  // it matters and how to fix it.
  std::string_view what = cause.message;
  size_t colon = what.find(": ");
  if (colon != std::string_view::npos && colon > 0) what = what.substr(0, colon);
  std::string words(what.substr(0, 120));
  if (what.size() > 120) words += "...";
  return node.host.empty() ? words : node.host + ": " + words;
}

void explain_fallbacks(std::vector<Finding>& findings, std::span<const RecordedNode> nodes, size_t max_evidence) {
  if (nodes.empty()) return;
  for (auto& f : findings) {
    auto rules = fallback_cause_rules(f.id);
    if (rules.empty()) continue;
    // Each host's first cause, then each host's second...: the few that are
    // cited name every host that has one.
    std::vector<std::pair<size_t, Cause>> ranked;
    for (const auto& node : nodes) {
      bool named = std::any_of(f.hosts.begin(), f.hosts.end(),
                               [&](const std::string& h) { return same_host(h, node.host); });
      if (!named) continue;
      size_t nth = 0;
      for (const auto& nf : node.findings) {
        if (nf.severity == Severity::Info) continue;  // "unknown, needs root" explains nothing
        if (std::find(rules.begin(), rules.end(), nf.id) != rules.end()) ranked.push_back({nth++, {&node, &nf}});
      }
    }
    if (ranked.empty()) continue;
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Cause> causes;
    for (const auto& [nth, c] : ranked) causes.push_back(c);
    std::vector<std::string> words;
    for (size_t i = 0; i < causes.size() && i < kCausesInMessage; ++i) {
      words.push_back(cause_words(*causes[i].node, *causes[i].finding));
    }
    f.message += fmt::format("; the probe records show why: {}", fmt::join(words, "; "));
    if (causes.size() > words.size()) f.message += fmt::format(" (and {} more)", causes.size() - words.size());
    // One line of the log shows the fallback; the records' lines explain it.
    size_t keep_log = std::min<size_t>(f.evidence.size(), max_evidence == 0 ? 0 : 1);
    std::vector<Evidence> cited;
    for (const auto& c : causes) {
      if (cited.size() + keep_log >= max_evidence) break;
      cited.push_back({c.node->file, c.node->line, cause_words(*c.node, *c.finding) + " (probe record)"});
    }
    std::vector<Evidence> evidence;
    for (const auto& e : f.evidence) {
      if (evidence.size() + cited.size() >= max_evidence) break;
      evidence.push_back(e);
    }
    evidence.insert(evidence.end(), cited.begin(), cited.end());
    f.evidence = std::move(evidence);
    for (const auto& c : causes) {
      if (std::find(f.related.begin(), f.related.end(), c.finding->id) == f.related.end()) {
        f.related.push_back(c.finding->id);
      }
    }
    std::sort(f.related.begin(), f.related.end());
  }
}

}  // namespace nd
