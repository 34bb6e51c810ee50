#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class FewChannels final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2010", "few-channels", Severity::Info, Needs::Log,
                                  "a multi-node communicator uses fewer channels than its hosts have NICs"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

bool uses_ib(const JobModel& m) {
  if (m.using_network.empty()) return m.net_using.count("IB") > 0;  // 2.4/2.5 print no `Using network`
  for (const auto& [name, who] : m.using_network) {
    if (name.starts_with("IB")) return true;
  }
  return false;
}

}  // namespace

// A ring channel leaves each host through one NIC, so a communicator with
// fewer ring channels than NICs leaves NICs idle. The heuristic is kept
// conservative: it fires only when more than half of the NICs in the
// `NET/IB : Using` list of every host cannot carry a channel.
void FewChannels::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  if (!uses_ib(m)) return;
  for (const auto& comm : m.comms) {
    if (comm.synthetic) continue;
    std::set<uint32_t> hosts;
    for (const auto& r : comm.ranks) {
      if (r.host != kNoHost) hosts.insert(r.host);
    }
    if (hosts.size() < 2) continue;
    uint32_t nics = UINT32_MAX;
    for (uint32_t h : hosts) {
      auto it = m.nics_per_host.find(h);
      nics = std::min(nics, it == m.nics_per_host.end() ? 0u : it->second);
    }
    if (nics == 0 || nics == UINT32_MAX) continue;
    std::set<uint32_t> channels;
    std::vector<LineRef> lines;
    for (const auto& g : comm.graph_rings) channels.insert(g.channel);
    for (const auto& l : comm.listings) {
      channels.insert(l.channel);
      if (lines.size() < 2) lines.push_back(l.line);
    }
    if (channels.empty()) continue;
    if (channels.size() * 2 >= nics) continue;
    for (const auto& [name, who] : m.net_using) {
      for (const auto& o : who) {
        if (hosts.count(o.host) && lines.size() < 3) lines.push_back(o.line);
      }
    }
    for (const auto& e : m.env) {
      if ((e.name == "NCCL_MAX_NCHANNELS" || e.name == "NCCL_MAX_CTAS" || e.name == "NCCL_MIN_NCHANNELS") &&
          hosts.count(e.host)) {
        lines.insert(lines.begin(), e.line);
      }
    }
    Finding f = make_finding(kInfo, fmt::format("{} ring channel{} for {} IB NICs per host: NCCL sends each channel "
                                                "through one NIC, so at least {} NICs per host carry no ring traffic",
                                                channels.size(), channels.size() == 1 ? "" : "s", nics,
                                                nics - channels.size()));
    f.comm = comm.key;
    for (uint32_t h : hosts) f.hosts.push_back(m.host_name(h));
    std::sort(f.hosts.begin(), f.hosts.end());
    f.channels.assign(channels.begin(), channels.end());
    f.evidence = evidence_of(m, lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_few_channels() { return std::make_unique<FewChannels>(); }

}  // namespace nd
