#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class CrossSocketTraffic final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2009", "cross-socket-traffic", Severity::Warning, Needs::Log,
                                  "NCCL's graph search routes traffic across CPU sockets (path type SYS) or through the CPU (PHB)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

const char* pattern_name(int p) {
  switch (p) {
    case 1: return "balanced tree";
    case 2: return "split tree";
    case 3: return "tree";
    case 4: return "ring";
    case 5: return "NVLS";
    case 6: return "CollNet direct";
  }
  return "pattern";
}

// A communicator whose ranks sit on two hosts, or that NCCL says spans
// nodes. Not multi_node() (config/evidence.h): hosts seen only outside a
// communicator do not count.
bool a_comm_spans_hosts(const JobModel& m) {
  for (const auto& c : m.comms) {
    if (c.nnodes > 1) return true;
    uint32_t first = kNoHost;
    for (const auto& r : c.ranks) {
      if (r.host == kNoHost) continue;
      if (first != kNoHost && r.host != first) return true;
      first = r.host;
    }
  }
  return false;
}

}  // namespace

// `Pattern %d, crossNic %d, nChannels %d, bw %f/%f, type %s/%s, ...` names the
// widest path type each graph needs: intra (GPU to GPU inside a host) and
// inter (GPU to NIC). SYS crosses the inter-socket link (QPI/UPI/xGMI); PHB
// goes through a CPU's PCIe host bridge. The inter type is only meaningful
// for multi-node jobs: single-node communicators drop the NICs and print PIX.
void CrossSocketTraffic::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  bool inter_matters = a_comm_spans_hosts(m);
  struct Group {
    std::set<std::string> hosts, patterns;
    std::vector<LineRef> lines;
  };
  std::map<std::string, Group> groups;  // message -> where
  for (const auto& p : m.graph_patterns) {
    std::vector<std::string> whats;
    if (p.type_intra == "SYS") {
      whats.push_back("GPU-to-GPU traffic inside a host crosses CPU sockets (intra path type SYS)");
    } else if (p.type_intra == "PHB") {
      whats.push_back("GPU-to-GPU traffic inside a host goes through the CPU's PCIe host bridge (intra path type PHB)");
    }
    if (inter_matters && p.type_inter == "SYS") {
      whats.push_back("GPU-to-NIC traffic crosses CPU sockets (inter path type SYS)");
    } else if (inter_matters && p.type_inter == "PHB") {
      whats.push_back("GPU-to-NIC traffic goes through the CPU's PCIe host bridge (inter path type PHB)");
    }
    for (const auto& what : whats) {
      Group& g = groups[what];
      g.hosts.insert(m.host_name(p.host));
      g.patterns.insert(pattern_name(p.pattern));
      if (g.lines.size() < 8) g.lines.push_back(p.line);
    }
  }
  for (const auto& [what, g] : groups) {
    Finding f = make_finding(kInfo, fmt::format("{} on {} ({} graph{})", what,
                                                names_text({g.hosts.begin(), g.hosts.end()}, ctx.options),
                                                fmt::join(g.patterns, ", "), g.patterns.size() == 1 ? "" : "s"));
    f.hosts.assign(g.hosts.begin(), g.hosts.end());
    f.evidence = evidence_of(m, g.lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_cross_socket_traffic() { return std::make_unique<CrossSocketTraffic>(); }

}  // namespace nd
