#pragma once
// Test helpers for node and cluster rules: the probe records of the sysfs
// scenarios in testdata/sysfs/, and runs of one registered rule over them.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "checks/check_fixture.h"
#include "src/probe/scripted_verbs_probe.h"
#include "src/probe/snapshot_collect.h"

namespace nd {

// One node as the probe sees testdata/sysfs/<sysfs>. verbs: "ok" lists every
// sysfs device, "none" lists nothing (no provider), "not-installed" plays a
// node without rdma-core; `hide` is a device that "ok" leaves out.
inline NodeSnapshot node_fixture(const std::string& sysfs, const std::string& verbs, const std::string& hide = "") {
  std::string root = std::string(ND_SOURCE_ROOT) + "/testdata/sysfs/" + sysfs;
  REQUIRE_MESSAGE(std::filesystem::is_directory(root), "no sysfs scenario " << sysfs);
  SysfsReader s(root);
  std::vector<ReadIssue> issues;
  HostFacts facts = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  ScriptedVerbsProbe listed, empty;
  for (const auto& name : s.list_dir("class/infiniband")) {
    if (name == hide) continue;
    VerbsDevice d;
    d.name = name;
    listed.devices.push_back(d);
  }
  VerbsSource source{nullptr, "not-installed", "cannot load libibverbs.so.1"};
  if (verbs == "ok") source = {&listed, "", "fake"};
  if (verbs == "none") source = {&empty, "", "fake"};
  NodeSnapshot n = collect_snapshot(s, facts, source);
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  return n;
}

// A healthy DGX H100 (testdata/sysfs/dgx-h100-ib) named `host`: one node of
// a cluster.
inline NodeSnapshot healthy_node(const std::string& host) {
  NodeSnapshot n = node_fixture("dgx-h100-ib", "ok");
  n.host.host = host;
  return n;
}

// Nodes named as preflight names them: by host.
inline std::vector<ProbedNode> probed_nodes(const std::vector<NodeSnapshot>& nodes) {
  std::vector<ProbedNode> out;
  for (const auto& n : nodes) out.push_back({n.host.host, &n});
  return out;
}

inline std::vector<Finding> run_node_rule(std::string_view name, const NodeSnapshot& node,
                                          const Expectations& expect = {}) {
  JobModel no_log;
  CheckOptions options;
  options.expect = expect;
  std::vector<ProbedNode> nodes = {{node.host.host, &node}};
  return run_rule(name, CheckContext{no_log, options, nodes});
}

inline std::vector<Finding> run_cluster_rule(std::string_view name, const std::vector<NodeSnapshot>& nodes,
                                             const std::vector<RecordProblem>& problems = {},
                                             const Expectations& expect = {}) {
  JobModel no_log;
  CheckOptions options;
  options.expect = expect;
  std::vector<ProbedNode> probed = probed_nodes(nodes);
  return run_rule(name, CheckContext{no_log, options, probed, problems, "records.jsonl"});
}

}  // namespace nd
