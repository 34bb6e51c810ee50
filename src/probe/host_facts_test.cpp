#include "src/probe/host_facts.h"

#include <map>

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"

using namespace nd;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

TEST_CASE("launcher rank: Slurm first, then Open MPI, PMIx, torchrun") {
  HostInfo h;
  fill_launcher_rank(h, env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"RANK", "17"}}));
  CHECK(h.rank == 3u);
  CHECK(h.rank_source == "OMPI_COMM_WORLD_RANK");
  HostInfo s;
  fill_launcher_rank(s, env_of({{"SLURM_PROCID", "5"}, {"PMIX_RANK", "2"}}));
  CHECK(s.rank == 5u);
  HostInfo bad;
  fill_launcher_rank(bad, env_of({{"SLURM_PROCID", "x"}, {"PMIX_RANK", "2"}}));
  CHECK(bad.rank == 2u);
  HostInfo none;
  fill_launcher_rank(none, env_of({}));
  CHECK_FALSE(none.rank);
}

TEST_CASE("a fixture's host.json replaces the real rlimit") {
  SysfsReader s(ND_FIXTURES "/sysfs/broken");
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, env_of({{"PMIX_RANK", "1"}}), issues);
  CHECK(issues.empty());
  CHECK(f.host.host == "gpu-17");
  CHECK(f.host.memlock_soft == 65536u);
  CHECK(f.host.cap_ipc_lock == false);
  CHECK(f.host.rank == 1u);
  CHECK(f.peer_memory_api == true);
  SysfsReader dgx(ND_FIXTURES "/sysfs/dgx-h100-ib");
  CHECK(load_host_facts(dgx, env_of({}), issues).host.memlock_soft == kMemlockUnlimited);
}

TEST_CASE("a malformed host.json is an issue and the real facts are used") {
  SysfsReader s(ND_FIXTURES "/sysfs/garbage");
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, env_of({}), issues);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == "host.json");
  CHECK(issues[0].error == "unexpected contents: not a JSON object");
  CHECK(f.host.memlock_soft.has_value());
}

TEST_CASE("real facts come from this process") {
  HostInfo h = real_host_facts(env_of({{"SLURMD_NODENAME", "n042"}}));
  CHECK(h.host == "n042");
  CHECK(h.memlock_soft.has_value());
  CHECK_FALSE(h.kernel.empty());
}
