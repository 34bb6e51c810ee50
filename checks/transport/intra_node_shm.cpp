#include <algorithm>
#include <vector>

#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class IntraNodeShm final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3002", "intra-node-shm", Severity::Warning, Needs::Log,
                                  "an intra-node link goes through host shared memory (SHM) instead of P2P",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// An echoed setting that takes P2P away from some or all pairs: then SHM is
// its effect, not NCCL's choice.
bool p2p_restricted(const JobModel& m) {
  for (const auto& s : m.env) {
    if (s.name == "NCCL_P2P_LEVEL") return true;
    if (s.name == "NCCL_P2P_DISABLE" && !s.value.empty() && s.value != "0") return true;
  }
  return false;
}

}  // namespace

void IntraNodeShm::check(const CheckContext& ctx, FindingSink& out) const {
  // Hosts where P2P carries some pair: peer access works there, and NCCL
  // (by default) keeps P2P to GPUs under one PCIe switch or on NVLink, so a
  // pair across a host bridge or CPU socket goes through SHM by its own choice.
  // By host id, the last slot for ranks whose host has no name (one node,
  // told by NCCL's count of nodes): every intra-node P2P edge marks its host.
  std::vector<bool> p2p_works(ctx.model.hosts.size() + 1);
  auto slot = [&](uint32_t host) { return std::min<size_t>(host, p2p_works.size() - 1); };
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.locality == Locality::Intra && e.transport.family == TransportFamily::P2P) {
      p2p_works[slot(e.comm.host_of(e.edge.sender))] = true;
    }
  });
  const bool restricted = p2p_restricted(ctx.model);
  auto chosen = [&](const EdgeView& e) { return !restricted && p2p_works[slot(e.comm.host_of(e.edge.sender))]; };
  auto shm = [](const EdgeView& e) {
    return e.locality == Locality::Intra && e.transport.family == TransportFamily::SHM;
  };
  // Live, a later P2P line of the host may still show the choice: hosts
  // without one wait for the end of the input unless a setting explains SHM.
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    return shm(e) && !chosen(e) && !(ctx.input_open && !restricted) ? "SHM" : "";
  });
  report_choice(ctx, kInfo, out, [&](const EdgeView& e) { return shm(e) && chosen(e) ? "SHM" : ""; },
                "NCCL's own choice, as P2P carries other pairs of this host; by default NCCL uses P2P only over "
                "NVLink or under one PCIe switch, and a pair across host bridges or CPU sockets goes through SHM",
                "nothing to do unless this pair is slow; nvidia-smi topo -m shows its path (PHB, NODE or SYS)");
}

std::unique_ptr<Rule> make_intra_node_shm() { return std::make_unique<IntraNodeShm>(); }

}  // namespace nd
