#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
const CheckOptions kOptions;
CheckContext live(const JobModel& m) { return CheckContext{.model = m, .options = kOptions, .input_open = true}; }
}  // namespace

TEST_CASE("intra-node-shm fires on SHM between GPUs of one host (NCCL 2.7 and 2.18 forms)") {
  auto m = model_from({
      "dgx01:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via direct shared memory",
      "dgx01:101:101 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct",
      "dgx01:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "dgx01:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  auto f = run_rule("intra-node-shm", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "ranks 0-1 on dgx01, channel 00, via SHM (2 connections)");
}

TEST_CASE("intra-node-shm stays silent on P2P") {
  auto m = model_from({
      "dgx01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
      "dgx01:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  CHECK(run_rule("intra-node-shm", m).empty());
}

TEST_CASE("intra-node-shm: SHM on a host where P2P carries other pairs is NCCL's choice, a note") {
  // Eight PCIe GPUs, four per CPU socket: P2P under each switch, SHM across.
  auto m = model_from({
      "node7:100:100 [0] NCCL INFO Channel 00/0 : 0[1b000] -> 1[1c000] via P2P/CUMEM",
      "node7:103:103 [3] NCCL INFO Channel 00/0 : 3[3e000] -> 4[88000] via SHM/direct/direct",
      "node7:107:107 [7] NCCL INFO Channel 00/0 : 7[b2000] -> 0[1b000] via SHM/direct/direct",
  });
  auto f = run_rule("intra-node-shm", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message ==
        "ranks 0,3-4,7 on node7, channel 00, via SHM (2 connections): NCCL's own choice, as P2P carries other pairs "
        "of this host; by default NCCL uses P2P only over NVLink or under one PCIe switch, and a pair across host "
        "bridges or CPU sockets goes through SHM");
  CHECK(f[0].fix == "nothing to do unless this pair is slow; nvidia-smi topo -m shows its path (PHB, NODE or SYS)");

  // Live, the note waits for the end of the input.
  CHECK(run_rule("intra-node-shm", live(m)).empty());
}

TEST_CASE("intra-node-shm: an echoed NCCL_P2P_LEVEL or NCCL_P2P_DISABLE keeps SHM a warning") {
  for (const char* setting : {"NCCL_P2P_LEVEL set by environment to NVL", "NCCL_P2P_DISABLE set by environment to 1"}) {
    CAPTURE(setting);
    auto m = model_from({
        std::string("node7:100:100 [0] NCCL INFO ") + setting,
        "node7:100:100 [0] NCCL INFO Channel 00/0 : 0[1b000] -> 1[1c000] via P2P/CUMEM",
        "node7:103:103 [3] NCCL INFO Channel 00/0 : 3[3e000] -> 4[88000] via SHM/direct/direct",
    });
    auto f = run_rule("intra-node-shm", m);
    REQUIRE(f.size() == 1);
    CHECK(f[0].severity == Severity::Warning);
    // The setting explains SHM at once: live mode does not wait.
    CHECK(run_rule("intra-node-shm", live(m)).size() == 1);
  }
}

TEST_CASE("intra-node-shm: a host with SHM only stays a warning, after the end of input when live") {
  auto m = model_from({
      "dgx01:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[2a000] via SHM/direct/direct",
      "dgx02:100:100 [0] NCCL INFO Channel 00/0 : 8[18000] -> 9[2a000] via P2P/CUMEM",
  });
  auto f = run_rule("intra-node-shm", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(run_rule("intra-node-shm", live(m)).empty());
}
