#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "checks/rail/rail_rules.h"
#include "checks/transport/edge_groups.h"
#include "src/model/rail_map.h"

namespace nd {
namespace {

class CrossRailTraffic final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2101", "cross-rail-traffic", Severity::Warning, Needs::Log,
                                  "an inter-node link goes from one NIC to a NIC of another rail, and IB connections "
                                  "of its hosts timed out"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

namespace {

// A host whose IB connections timed out: completion status 12
// (IBV_WC_RETRY_EXC_ERR) or `ibv_modify_qp` failing with ETIMEDOUT. On a
// rail-only fabric NICs of different rails cannot reach each other, and this
// is how cross-rail links fail.
struct Timeout {
  LineRef line;
  std::string what;
};

std::map<uint32_t, Timeout> timeouts(const JobModel& m) {
  std::map<uint32_t, Timeout> out;
  for (const auto& n : m.net_notes) {
    if (n.note != NetNote::IbTraffic) continue;
    if (n.call.empty() && n.status == 12) {
      out.try_emplace(n.host, Timeout{n.line, "completion status 12 (IBV_WC_RETRY_EXC_ERR)"});
    } else if (n.call == "ibv_modify_qp" && n.status == 110) {
      out.try_emplace(n.host, Timeout{n.line, "ibv_modify_qp ETIMEDOUT (110)"});
    }
  }
  return out;
}

// Passes the findings on with the timeout that shows their cost.
class WithTimeouts final : public FindingSink {
 public:
  WithTimeouts(const JobModel& m, const CheckOptions& options, const std::map<uint32_t, Timeout>& timeouts,
               FindingSink& out)
      : m_(m), options_(options), timeouts_(timeouts), out_(out) {}
  void add(Finding f) override {
    const Timeout* t = nullptr;
    for (const auto& name : f.hosts) {
      auto id = m_.hosts.find(name);
      if (auto it = id ? timeouts_.find(*id) : timeouts_.end(); it != timeouts_.end()) {
        t = &it->second;
        break;
      }
    }
    if (t) {
      f.message += fmt::format("; IB connections of {} timed out ({} at {}): on a rail-optimised fabric NICs of "
                               "different rails may not reach each other",
                               fmt::join(f.hosts, ", "), t->what, m_.where(t->line));
      auto text = m_.text_of(t->line);
      Evidence e{m_.files[t->line.file], t->line.line, text ? std::string(*text) : std::string()};
      if (f.evidence.size() >= options_.max_evidence && !f.evidence.empty()) f.evidence.pop_back();
      f.evidence.insert(f.evidence.begin(), std::move(e));
      f.related = {"ND3120"};
    }
    out_.add(std::move(f));
  }

 private:
  const JobModel& m_;
  const CheckOptions& options_;
  const std::map<uint32_t, Timeout>& timeouts_;
  FindingSink& out_;
};

}  // namespace

// Needs both halves of a NET edge: the sender's line names the NIC it sends
// from, the receiver's line the NIC it receives on. NICs compare by name when
// both hosts listed their devices (so differently numbered hosts still match),
// else by netDev. NCCL itself routes rings across rails (NCCL_CROSS_NIC's
// default lets it), which costs nothing a log can show on a fat tree; so only
// links of a host whose IB connections timed out are reported.
void CrossRailTraffic::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  const std::map<uint32_t, Timeout> failed = timeouts(m);
  if (failed.empty()) return;
  WithTimeouts sink(m, ctx.options, failed, out);
  // A NIC's name, and whether its host listed its devices, by host and
  // transport: asked for twice per inter-node edge, a few thousand answers.
  struct Nic {
    std::string name;
    bool listed = false;
  };
  std::unordered_map<uint64_t, Nic> nics;
  auto nic = [&](uint32_t host, uint16_t transport) -> const Nic& {
    auto [it, fresh] = nics.try_emplace(uint64_t{host} << 16 | transport);
    if (fresh) {
      const Transport& t = m.transports[transport];
      it->second = {nic_name(m, host, t.net_name, t.net_dev), listed_nets(m, host, t.net_name) != nullptr};
    }
    return it->second;
  };
  report_edges(ctx, kInfo, sink, [&](const EdgeView& e) {
    if (e.locality != Locality::Inter) return std::string();
    if (!failed.count(e.comm.host_of(e.edge.sender)) && !failed.count(e.comm.host_of(e.edge.receiver))) {
      return std::string();
    }
    if (e.edge.send_transport == kNoTransport || e.edge.recv_transport == kNoTransport) return std::string();
    const Transport& s = m.transports[e.edge.send_transport];
    const Transport& r = m.transports[e.edge.recv_transport];
    if (s.family != TransportFamily::NET || r.family != TransportFamily::NET) return std::string();
    if (s.net_dev < 0 || r.net_dev < 0 || is_socket_network(s.net_name)) return std::string();
    const Nic& from = nic(e.comm.host_of(e.edge.sender), e.edge.send_transport);
    const Nic& to = nic(e.comm.host_of(e.edge.receiver), e.edge.recv_transport);
    bool same = from.listed && to.listed ? from.name == to.name : s.net_dev == r.net_dev;
    if (same) return std::string();
    return fmt::format("NIC {} -> NIC {}", from.name, to.name);
  });
}

std::unique_ptr<Rule> make_cross_rail_traffic() { return std::make_unique<CrossRailTraffic>(); }

}  // namespace nd
