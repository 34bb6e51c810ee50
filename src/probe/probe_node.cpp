#include "src/probe/probe_node.h"

#include "src/probe/snapshot_collect.h"
#include "src/probe/verbs_loader.h"

namespace nd {

NodeSnapshot probe_node(const SysfsReader& sysfs, const EnvLookup& env, bool use_verbs, HostFacts* facts_out) {
  std::vector<ReadIssue> host_issues;
  HostFacts facts = load_host_facts(sysfs, env, host_issues);
  VerbsLoad load;
  VerbsSource verbs{nullptr, "skipped", "verbs not consulted (--no-verbs)"};
  if (use_verbs) {
    load = load_verbs_plugin(env);
    verbs = {load.probe.get(), verbs_load_status_str(load.status), load.message};
  }
  NodeSnapshot n = collect_snapshot(sysfs, facts, verbs);
  n.issues.insert(n.issues.begin(), host_issues.begin(), host_issues.end());
  if (facts_out != nullptr) *facts_out = std::move(facts);
  return n;
}

}  // namespace nd
