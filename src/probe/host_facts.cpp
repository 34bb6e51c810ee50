#include "src/probe/host_facts.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "src/probe/snapshot_json.h"
#include "src/util/numbers.h"

namespace nd {

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

void fill_launcher_rank(HostInfo& host, const EnvLookup& env) {
  // Most specific launcher first: under srun+torchrun, SLURM_PROCID is the
  // node's task, RANK a training rank.
  for (const char* name : {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "RANK"}) {
    auto v = env(name);
    if (!v) continue;
    auto r = parse_u32(*v);
    if (!r) continue;
    host.rank = *r;
    host.rank_source = name;
    return;
  }
}

std::optional<bool> kernel_has_peer_memory_api() {
  std::ifstream in("/proc/kallsyms");
  if (!in) return std::nullopt;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(" ib_register_peer_memory_client") != std::string::npos) return true;
  }
  return false;
}

HostInfo real_host_facts(const EnvLookup& env) {
  HostInfo h;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.host = name;
  if (auto n = env("SLURMD_NODENAME"); n && !n->empty()) h.host = *n;
  rlimit rl{};
  if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
    h.memlock_soft = rl.rlim_cur == RLIM_INFINITY ? kMemlockUnlimited : static_cast<uint64_t>(rl.rlim_cur);
  }
  // CAP_IPC_LOCK (bit 14 of CapEff) lifts the memlock limit for root in a
  // container; without it root is limited too.
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("CapEff:")) {
      std::string_view hex(line);
      hex.remove_prefix(7);
      while (!hex.empty() && (hex.front() == '\t' || hex.front() == ' ')) hex.remove_prefix(1);
      if (auto caps = parse_hex64(hex)) h.cap_ipc_lock = ((*caps >> 14) & 1) != 0;
    }
  }
  utsname u{};
  if (uname(&u) == 0) h.kernel = u.release;
  if (auto v = env("NCCL_VERSION")) h.nccl_version = *v;
  fill_launcher_rank(h, env);
  return h;
}

namespace {

// What stands in for a missing or unusable host.json. A live root without
// one is this machine (test fixtures); a broken one leaves the kernel's
// peer-memory API unknown.
HostFacts fallback_facts(const SysfsReader& sysfs, const EnvLookup& env, HostFactsOrigin origin, bool missing) {
  if (origin == HostFactsOrigin::Live) {
    return {real_host_facts(env), missing ? kernel_has_peer_memory_api() : std::nullopt};
  }
  HostInfo h;
  h.host = std::filesystem::absolute(sysfs.root()).lexically_normal().filename().string();
  if (h.host.empty()) h.host = std::filesystem::absolute(sysfs.root()).lexically_normal().parent_path().filename().string();
  fill_launcher_rank(h, env);
  return {h, std::nullopt};
}

}  // namespace

HostFacts load_host_facts(const SysfsReader& sysfs, const EnvLookup& env, std::vector<ReadIssue>& issues,
                          HostFactsOrigin origin) {
  if (!sysfs.exists(kHostFactsFile)) {
    if (origin == HostFactsOrigin::Capture) {
      issues.push_back({kHostFactsFile, "not captured: hostname, memlock limit and kernel unknown"});
    }
    return fallback_facts(sysfs, env, origin, true);
  }
  ReadResult r = sysfs.read(kHostFactsFile);
  if (r.ok()) {
    auto j = nlohmann::json::parse(r.value, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded() && j.is_object()) {
      try {
        HostInfo h = host_from_json(j);
        // The launcher of this run, not the one of the capture, numbers the record.
        HostInfo now;
        fill_launcher_rank(now, env);
        if (now.rank) {
          h.rank = now.rank;
          h.rank_source = now.rank_source;
        }
        std::optional<bool> api;
        if (j.contains("peer_memory_api") && j["peer_memory_api"].is_boolean()) api = j["peer_memory_api"].get<bool>();
        return {h, api};
      } catch (const std::exception& e) {
        issues.push_back({kHostFactsFile, std::string("unexpected contents: ") + e.what()});
        return fallback_facts(sysfs, env, origin, false);
      }
    }
    issues.push_back({kHostFactsFile, "unexpected contents: not a JSON object"});
  } else {
    issues.push_back({kHostFactsFile, errno_name(r.error)});
  }
  return fallback_facts(sysfs, env, origin, false);
}

std::string host_facts_json(const HostInfo& host, std::optional<bool> peer_memory_api) {
  nlohmann::json j = host_to_json(host);
  // Rank belongs to a run, not to a node.
  j.erase("rank");
  j.erase("rank_source");
  j["peer_memory_api"] = peer_memory_api ? nlohmann::json(*peer_memory_api) : nlohmann::json(nullptr);
  return j.dump(2) + "\n";
}

}  // namespace nd
