#pragma once
// Hardware (ND4xxx) rules judge one node's probe snapshot against the
// expectations. They share RuleInfo, Finding and FindingSink with the log
// rules; only their input differs, so they have their own small interface.

#include <memory>
#include <string>
#include <vector>

#include "checks/rule.h"
#include "src/probe/expectations.h"
#include "src/probe/node_snapshot.h"

namespace nd {

struct HardwareContext {
  const NodeSnapshot& node;
  const Expectations& expect;
};

class HardwareRule {
 public:
  virtual ~HardwareRule() = default;
  virtual const RuleInfo& info() const = 0;
  virtual void check(const HardwareContext& ctx, FindingSink& out) const = 0;
};

// A finding about `node`, tagged with its host, severity from `info` unless given.
Finding node_finding(const RuleInfo& info, const NodeSnapshot& node, std::string message);
Finding node_finding(const RuleInfo& info, const NodeSnapshot& node, std::string message, Severity severity);
void add_evidence(Finding& f, std::string sysfs_path, std::string value);

// "mlx5_0 port 1", the way findings name a port.
std::string port_name(const HcaInfo& hca, const PortInfo& port);
// Ports NCCL would use: all ports, since NCCL itself takes every ACTIVE one.
std::string port_dir(const HcaInfo& hca, const PortInfo& port);

// All ND4xxx rules, sorted by ID. Explicit list: no static self-registration.
const std::vector<std::unique_ptr<HardwareRule>>& hardware_rules();

}  // namespace nd
