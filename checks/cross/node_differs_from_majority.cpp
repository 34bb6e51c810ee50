// ND5001 node-differs-from-majority: a node whose fabric facts differ from
// what most nodes report.
#include "checks/cross/cross_rules.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/probe/ib_attrs.h"
#include "src/probe/probe_text.h"

namespace nd {
namespace {

class NodeDiffersFromMajority final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND5001", "node-differs-from-majority", Severity::Error, Needs::Cluster,
                                  "a node's fabric differs from the majority of nodes"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// One comparable fact of a node, as text ("8x400 Gb/s"); "" = not known,
// such nodes are left out of that comparison.
struct NodeFact {
  std::string name;   // "port rates"
  Severity severity;  // how bad being the odd one out is
  std::string (*of)(const NodeSnapshot&);
};

// "7x400, 1x200": a multiset, so port order and device names do not matter.
std::string counted(const std::vector<std::string>& values) {
  std::map<std::string, int> n;
  for (const auto& v : values) ++n[v];
  std::vector<std::string> parts;
  for (auto it = n.rbegin(); it != n.rend(); ++it) parts.push_back(fmt::format("{}x{}", it->second, it->first));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string hca_count(const NodeSnapshot& n) { return std::to_string(n.hcas.size()); }

std::string port_states(const NodeSnapshot& n) {
  std::vector<std::string> v;
  for (const auto& h : n.hcas) {
    for (const auto& p : h.ports) v.push_back(port_state_str(p.state) + "/" + phys_state_str(p.phys_state));
  }
  return v.empty() ? "none" : counted(v);
}

std::string port_rates(const NodeSnapshot& n) {
  std::vector<std::string> v;
  for (const auto& h : n.hcas) {
    for (const auto& p : h.ports) v.push_back(p.rate_gbps ? fmt::format("{} Gb/s", *p.rate_gbps) : "unknown");
  }
  return v.empty() ? "none" : counted(v);
}

std::string firmware(const NodeSnapshot& n) {
  std::set<std::string> v;
  for (const auto& h : n.hcas) {
    if (!h.fw_ver.empty()) v.insert(h.hca_type.empty() ? h.fw_ver : h.hca_type + " " + h.fw_ver);
  }
  return fmt::format("{}", fmt::join(v, ", "));
}

std::string link_layers(const NodeSnapshot& n) {
  std::set<std::string> v;
  for (const auto& h : n.hcas) {
    for (const auto& p : h.ports) v.insert(p.link_layer);
  }
  return v.empty() ? "none" : fmt::format("{}", fmt::join(v, ", "));
}

std::string gdr(const NodeSnapshot& n) { return n.gdr.ready() ? "ready" : "not ready"; }
std::string gpu_count(const NodeSnapshot& n) { return std::to_string(n.gpus.size()); }
std::string driver(const NodeSnapshot& n) { return n.host.nvidia_driver; }
std::string nccl(const NodeSnapshot& n) { return n.host.nccl_version; }
std::string verbs(const NodeSnapshot& n) { return n.verbs.status; }
std::string memlock(const NodeSnapshot& n) { return n.host.memlock_soft ? memlock_str(n.host.memlock_soft) : ""; }

const std::vector<NodeFact>& compared_facts() {
  static const std::vector<NodeFact> kFacts = {
      {"RDMA device count", Severity::Error, hca_count},
      {"port states", Severity::Error, port_states},
      {"port rates", Severity::Error, port_rates},
      {"link layers", Severity::Error, link_layers},
      {"libibverbs", Severity::Error, verbs},
      {"GPUDirect RDMA", Severity::Error, gdr},
      {"GPU count", Severity::Error, gpu_count},
      {"memlock limit", Severity::Warning, memlock},
      {"HCA firmware", Severity::Warning, firmware},
      {"NVIDIA driver", Severity::Warning, driver},
      {"NCCL version", Severity::Warning, nccl},
  };
  return kFacts;
}

}  // namespace

void NodeDiffersFromMajority::check(const CheckContext& ctx, FindingSink& out) const {
  if (ctx.nodes.size() < 2) return;
  for (const auto& fact : compared_facts()) {
    std::map<std::string, std::vector<std::string>> groups;  // value → labels
    size_t known = 0;
    for (const auto& node : ctx.nodes) {
      std::string v = fact.of(*node.snapshot);
      if (v.empty()) continue;
      groups[v].push_back(node.label);
      ++known;
    }
    if (groups.size() < 2) continue;
    auto majority = std::max_element(groups.begin(), groups.end(),
                                     [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    if (majority->second.size() * 2 <= known) {
      // No value has more than half the nodes: say so rather than pick one.
      std::vector<std::string> parts;
      for (const auto& [value, labels] : groups) {
        parts.push_back(fmt::format("{} on {}", value, fmt::join(labels, ",")));
      }
      Finding f = make_finding(kInfo, fmt::format("nodes disagree on {} and no value has a majority: {}", fact.name,
                                                  fmt::join(parts, "; ")), Severity::Warning);
      for (const auto& [value, labels] : groups) f.hosts.insert(f.hosts.end(), labels.begin(), labels.end());
      out.add(std::move(f));
      continue;
    }
    for (const auto& [value, labels] : groups) {
      if (value == majority->first) continue;
      Finding f = make_finding(kInfo, fmt::format("{} differ{} from the majority on {}: {} (majority: {} on {} of {} "
                                                  "nodes)", fmt::join(labels, ", "), labels.size() == 1 ? "s" : "",
                                                  fact.name, value, majority->first, majority->second.size(), known),
                               fact.severity);
      f.hosts = labels;
      out.add(std::move(f));
    }
  }
}

std::unique_ptr<Rule> make_node_differs_from_majority() { return std::make_unique<NodeDiffersFromMajority>(); }

}  // namespace nd
