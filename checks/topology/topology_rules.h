#pragma once
// ND2xxx: graph integrity (rings, trees, the two sides of an edge),
// placement of ranks on GPUs and hosts, CPU binding, and the topology NCCL's
// graph search found.

#include "checks/rule.h"

namespace nd {

#define ND_TOPOLOGY_RULE(Class, id, slug, severity, summary)                                     \
  class Class final : public Rule {                                                               \
   public:                                                                                        \
    static constexpr RuleInfo kInfo{id, slug, Severity::severity, Needs::Log, summary};           \
    const RuleInfo& info() const override { return kInfo; }                                       \
    void check(const CheckContext& ctx, FindingSink& out) const override;                         \
  }

ND_TOPOLOGY_RULE(RingBroken, "ND2001", "ring-broken", Error,
                 "a ring's successor links do not form one cycle through all ranks");
ND_TOPOLOGY_RULE(RingIncomplete, "ND2002", "ring-incomplete", Info,
                 "some ranks' ring lines are missing from the log, so a ring cannot be closed");
ND_TOPOLOGY_RULE(RingSourcesDisagree, "ND2003", "ring-sources-disagree", Error,
                 "GRAPH ring lines, the ring listing and connection lines name different ring neighbours");
ND_TOPOLOGY_RULE(TreeInconsistent, "ND2004", "tree-inconsistent", Error,
                 "tree parent/child links disagree across ranks, or a tree has several roots or a cycle");
ND_TOPOLOGY_RULE(EdgeSidesDisagree, "ND2005", "edge-sides-disagree", Error,
                 "the [send] and [receive] lines of one network edge name different transports");
ND_TOPOLOGY_RULE(DuplicateGpu, "ND2006", "duplicate-gpu", Error,
                 "two ranks of one communicator use the same GPU");
ND_TOPOLOGY_RULE(OversubscribedHost, "ND2007", "oversubscribed-host", Warning,
                 "a host runs more NCCL processes than it has distinct GPUs in use");
ND_TOPOLOGY_RULE(UnevenRanksPerHost, "ND2008", "uneven-ranks-per-host", Warning,
                 "the hosts of a communicator hold different numbers of ranks");
ND_TOPOLOGY_RULE(CrossSocketTraffic, "ND2009", "cross-socket-traffic", Warning,
                 "NCCL's graph search routes traffic across CPU sockets (path type SYS) or through the CPU (PHB)");
ND_TOPOLOGY_RULE(FewChannels, "ND2010", "few-channels", Info,
                 "a multi-node communicator uses fewer channels than its hosts have NICs");
ND_TOPOLOGY_RULE(RankUnbound, "ND2011", "rank-unbound", Warning,
                 "the launcher reports a rank that is not bound to CPUs");
ND_TOPOLOGY_RULE(SharedCores, "ND2012", "shared-cores", Warning,
                 "ranks of one host are bound to the same CPUs, more ranks than CPUs");
ND_TOPOLOGY_RULE(BoundAwayFromGpu, "ND2013", "bound-away-from-gpu", Warning,
                 "a rank is bound to CPUs that are not local to its GPU");

#undef ND_TOPOLOGY_RULE

}  // namespace nd
