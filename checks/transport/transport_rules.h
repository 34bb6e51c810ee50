#pragma once
// ND3xxx: which transport each link uses, judged from connection lines.

#include "checks/rule.h"

namespace nd {

class InterNodeSocket final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3001", "inter-node-socket", Severity::Error, Needs::Log,
                                  "an inter-node link uses TCP sockets (NET/Socket) instead of an RDMA network"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class IntraNodeShm final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3002", "intra-node-shm", Severity::Warning, Needs::Log,
                                  "an intra-node link goes through host shared memory (SHM) instead of P2P"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class IntraNodeNet final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3003", "intra-node-net", Severity::Error, Needs::Log,
                                  "an intra-node link goes through the network (NET) instead of P2P or SHM"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class NoGpudirectRdma final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3004", "no-gpudirect-rdma", Severity::Warning, Needs::Log,
                                  "an inter-node RDMA link runs without GPUDirect RDMA (no /GDRDMA)"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

class InterNodeUnknownNet final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3005", "inter-node-unknown-net", Severity::Warning, Needs::Log,
                                  "an inter-node link uses a network that is not a known RDMA network"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace nd
