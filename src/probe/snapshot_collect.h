#pragma once
// Builds a NodeSnapshot from sysfs, the host facts and (optionally) verbs.

#include "src/probe/host_facts.h"
#include "src/probe/node_snapshot.h"
#include "src/probe/sysfs_reader.h"
#include "src/probe/verbs_probe.h"

namespace nd {

struct VerbsSource {
  VerbsProbe* probe = nullptr;  // nullptr when not loaded
  std::string status;           // verbs_load_status_str() when not loaded
  std::string message;
};

// Error counters worth a finding when non-zero (PMA names as the kernel
// spells them). Data counters are not read: each read is a MAD.
const std::vector<std::string>& error_counter_names();

NodeSnapshot collect_snapshot(const SysfsReader& sysfs, const HostFacts& facts, const VerbsSource& verbs);

}  // namespace nd
