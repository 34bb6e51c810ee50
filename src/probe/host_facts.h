#pragma once
// Facts that do not live in sysfs (memlock, capabilities, hostname, launcher
// rank). A captured tree or a fixture carries them in `<root>/host.json`,
// which is also the seam tests use instead of the real rlimit.

#include <functional>
#include <optional>
#include <string>

#include "src/probe/node_snapshot.h"
#include "src/probe/sysfs_reader.h"

namespace nd {

inline constexpr const char* kHostFactsFile = "host.json";

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_env();

// Launcher rank from the environment: SLURM_PROCID, OMPI_COMM_WORLD_RANK,
// PMIX_RANK, PMI_RANK, then RANK (torchrun). Fills rank and rank_source.
void fill_launcher_rank(HostInfo& host, const EnvLookup& env);

// This process: getrlimit, /proc/self/status, uname, gethostname.
HostInfo real_host_facts(const EnvLookup& env);

struct HostFacts {
  HostInfo host;
  std::optional<bool> peer_memory_api;
};

// Live: this machine's facts stand in when the root has no usable host.json
// (test fixtures). Capture: they never do; the facts are then unknown and the
// host is named after the capture's folder.
enum class HostFactsOrigin : uint8_t { Live, Capture };

// The root's host.json when it has one, else as `origin` says. A malformed
// host.json is a read issue.
HostFacts load_host_facts(const SysfsReader& sysfs, const EnvLookup& env, std::vector<ReadIssue>& issues,
                          HostFactsOrigin origin = HostFactsOrigin::Live);

// Serialised form written by `probe --capture`.
std::string host_facts_json(const HostInfo& host, std::optional<bool> peer_memory_api);

// Whether /proc/kallsyms exports the peer-memory API nvidia_peermem needs.
std::optional<bool> kernel_has_peer_memory_api();

}  // namespace nd
