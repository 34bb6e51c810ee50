#pragma once
// `probe --capture DIR`: copies exactly what the probe read (files, the
// directories it listed, the symlinks on the way) into DIR, plus host.json
// for the facts that are not in sysfs. `probe --sysfs-root DIR` then sees
// the same node, anywhere. Failed reads become `<name>.errno` sidecars.

#include <filesystem>
#include <string>

#include "src/probe/host_facts.h"
#include "src/probe/sysfs_reader.h"

namespace nd {

struct CaptureStats {
  size_t files = 0, links = 0, errors = 0;
};

// `recorded` must have record_accesses(true) and have been used for a probe.
// Returns false with `error` set when DIR cannot be written.
bool capture_tree(const SysfsReader& recorded, const HostFacts& facts, const std::filesystem::path& dest,
                  CaptureStats& stats, std::string& error);

}  // namespace nd
