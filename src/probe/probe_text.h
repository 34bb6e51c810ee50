#pragma once
// The human-readable `nccl-doctor probe` report.

#include <string>

#include "src/probe/node_snapshot.h"

namespace nd {

std::string memlock_str(std::optional<uint64_t> bytes);  // "unlimited", "64 KiB", "unknown"
std::string rate_str(const PortInfo& p);                 // "400 Gb/sec (4X NDR)", "unreadable (EINVAL)"

std::string render_probe_text(const NodeSnapshot& node);

}  // namespace nd
