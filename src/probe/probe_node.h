#pragma once
// One call that probes this node the way `probe` and `preflight` both need:
// host facts, the verbs plugin (unless disabled), then sysfs.

#include "src/probe/host_facts.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/sysfs_reader.h"

namespace nd {

// use_verbs=false records verbs as "skipped" (e.g. offline analysis of a
// capture, where this machine's libibverbs says nothing about that node).
NodeSnapshot probe_node(const SysfsReader& sysfs, const EnvLookup& env, bool use_verbs, HostFacts* facts_out = nullptr);

}  // namespace nd
