#include <set>

#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class IntraNodeNet final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3003", "intra-node-net", Severity::Error, Needs::Log,
                                  "an intra-node link goes through the network (NET) instead of P2P or SHM",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void IntraNodeNet::check(const CheckContext& ctx, FindingSink& out) const {
  // Hosts whose processes reach each other over SHM: SHM works between
  // them, so they share a host, /dev/shm and an IPC namespace (not two
  // containers that share a host name, whose GPUs only P2P inside each).
  std::set<uint32_t> shm_works;
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    if (e.locality == Locality::Intra && e.transport.family == TransportFamily::SHM) {
      shm_works.insert(e.comm.host_of(e.edge.sender));
    }
  });
  // Where a pair has no P2P path (GPUs on different CPU sockets), NCCL
  // 2.12+ may route it through the NIC with GPUDirect RDMA when that beats
  // SHM: its own choice on such a host.
  auto chosen = [&](const EdgeView& e) { return e.gdr && shm_works.count(e.comm.host_of(e.edge.sender)) > 0; };
  // Live, a later P2P or SHM line may still show the choice: GPUDirect RDMA
  // pairs wait for the end of the input.
  report_edges(ctx, kInfo, out, [&](const EdgeView& e) {
    bool net = e.locality == Locality::Intra && e.transport.family == TransportFamily::NET;
    return net && !chosen(e) && !(e.gdr && ctx.input_open) ? "NET/" + e.transport.net_name : std::string();
  });
  report_choice(
      ctx, kInfo, out,
      [&](const EdgeView& e) {
        bool net = e.locality == Locality::Intra && e.transport.family == TransportFamily::NET;
        return net && chosen(e) ? "NET/" + e.transport.net_name + " with GPUDirect RDMA" : std::string();
      },
      "NCCL's own choice, as SHM works between this host's processes; it routes a pair without a P2P path (GPUs on "
      "different CPU sockets) through the NIC when that is faster than SHM",
      "nothing to do unless this pair is slow; nvidia-smi topo -m shows its path (SYS)");
}

std::unique_ptr<Rule> make_intra_node_net() { return std::make_unique<IntraNodeNet>(); }

}  // namespace nd
