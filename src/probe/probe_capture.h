#pragma once
// `probe --capture DIR`: copies exactly what the probe read (files, the
// directories it listed, the symlinks on the way) into DIR, plus host.json
// for the facts that are not in sysfs and verbs.json for libibverbs'
// answers. `probe --sysfs-root DIR` then sees the same node, anywhere.
// Failed reads become `<name>.errno` sidecars.

#include <filesystem>
#include <string>

#include "src/probe/host_facts.h"
#include "src/probe/sysfs_reader.h"

namespace nd {

struct CaptureStats {
  size_t files = 0, links = 0, errors = 0;
};

// `recorded` must have record_accesses(true) and have been used for a probe;
// `verbs_record` is probe_node()'s, empty when verbs was not consulted.
// Returns false with `error` set when DIR cannot be written.
bool capture_tree(const SysfsReader& recorded, const HostFacts& facts, const std::string& verbs_record,
                  const std::filesystem::path& dest, CaptureStats& stats, std::string& error);

}  // namespace nd
