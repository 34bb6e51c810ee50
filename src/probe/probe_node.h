#pragma once
// One call that probes a node the way `probe` and `preflight` both need:
// host facts, verbs, then sysfs; from this machine or from a capture.

#include <string>

#include "src/probe/host_facts.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/sysfs_reader.h"

namespace nd {

enum class ProbeSource : uint8_t {
  LiveNode,         // /sys, this machine's libibverbs and host facts
  LiveNodeNoVerbs,  // the same, verbs recorded as "skipped"
  // A tree from `probe --capture`: nothing of the machine running us is
  // read; verbs and host facts come from the capture's verbs.json and
  // host.json, or are "not captured".
  Capture,
  CaptureNoVerbs,
};

// A root other than /sys is a capture: this machine's libibverbs, hostname
// and limits say nothing about that node.
ProbeSource probe_source_for(const std::string& sysfs_root, bool no_verbs);

// `verbs_record`, when given, receives the verbs answers for `--capture`
// (verbs.json).
NodeSnapshot probe_node(const SysfsReader& sysfs, const EnvLookup& env, ProbeSource source,
                        HostFacts* facts_out = nullptr, std::string* verbs_record = nullptr);

}  // namespace nd
