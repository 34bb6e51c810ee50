#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

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
