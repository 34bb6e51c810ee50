#include "checks/hardware/hardware_rule.h"

#include <fmt/format.h>

namespace nd {

Finding node_finding(const RuleInfo& info, const NodeSnapshot& node, std::string message) {
  return node_finding(info, node, std::move(message), info.severity);
}

Finding node_finding(const RuleInfo& info, const NodeSnapshot& node, std::string message, Severity severity) {
  Finding f;
  f.id = std::string(info.id);
  f.slug = std::string(info.slug);
  f.severity = severity;
  f.message = std::move(message);
  if (!node.host.host.empty()) f.hosts.push_back(node.host.host);
  if (node.host.rank) f.ranks.push_back(*node.host.rank);
  return f;
}

void add_evidence(Finding& f, std::string sysfs_path, std::string value) {
  f.evidence.push_back({std::move(sysfs_path), 0, std::move(value)});
}

std::string port_name(const HcaInfo& hca, const PortInfo& port) { return fmt::format("{} port {}", hca.name, port.port); }

std::string port_dir(const HcaInfo& hca, const PortInfo& port) {
  return fmt::format("class/infiniband/{}/ports/{}", hca.name, port.port);
}

}  // namespace nd
