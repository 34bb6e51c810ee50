#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("intra-node-net fires when two GPUs of one host talk through the NIC") {
  auto m = model_from({
      "gpu20:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[2a000] [send] via NET/IB/0/GDRDMA",
      "gpu20:101:101 [1] NCCL INFO Channel 00/0 : 0[18000] -> 1[2a000] [receive] via NET/IB/1/GDRDMA",
      "gpu20:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpu20:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
  });
  auto f = run_rule("intra-node-net", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "ranks 0-1 on gpu20, channel 00, via NET/IB (1 connection)");
  CHECK(f[0].comm == "0x5");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("intra-node-net needs both hosts: an unknown peer is not intra-node") {
  auto m = model_from({"gpu20:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[2a000] [send] via NET/IB/0/GDRDMA"});
  CHECK(run_rule("intra-node-net", m).empty());
}
