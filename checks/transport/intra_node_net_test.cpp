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

TEST_CASE("intra-node-net: a pair through the NIC with GPUDirect RDMA on a host whose other pairs use P2P or SHM is NCCL's choice") {
  // DeepSpeed on two V100 nodes (NCCL 2.12, IBext): 3 and 4 sit on different sockets.
  auto m = model_from({
      "node1:24142:24263 [3] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [send] via NET/IBext/1",
      "node1:24144:24272 [4] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [receive] via NET/IBext/1/GDRDMA",
      "node1:24140:24267 [1] NCCL INFO Channel 00 : 1[8000] -> 4[83000] via SHM/direct/direct",
  });
  auto f = run_rule("intra-node-net", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message ==
        "ranks 3-4 on node1, channel 01, via NET/IBext with GPUDirect RDMA (1 connection): NCCL's own choice, as SHM "
        "works between this host's processes; it routes a pair without a P2P path (GPUs on different CPU sockets) "
        "through the NIC when that is faster than SHM");
  // Without GPUDirect RDMA, or on a host where only P2P is seen (two
  // containers that share a host name), it stays an error.
  auto plain = model_from({
      "node1:24142:24263 [3] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [send] via NET/IBext/1",
      "node1:24144:24272 [4] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [receive] via NET/IBext/1",
      "node1:24140:24267 [1] NCCL INFO Channel 00 : 1[8000] -> 4[83000] via SHM/direct/direct",
  });
  auto e = run_rule("intra-node-net", plain);
  REQUIRE(e.size() == 1);
  CHECK(e[0].severity == Severity::Error);
  auto containers = model_from({
      "node1:100:110 [3] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [send] via NET/IB/0/GDRDMA",
      "node1:200:210 [0] NCCL INFO Channel 01/0 : 3[13000] -> 4[83000] [receive] via NET/IB/0/GDRDMA",
      "node1:100:111 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[19000] via P2P/CUMEM",
      "node1:200:211 [1] NCCL INFO Channel 00/0 : 4[83000] -> 5[84000] via P2P/CUMEM",
  });
  auto c = run_rule("intra-node-net", containers);
  REQUIRE(c.size() == 1);
  CHECK(c[0].severity == Severity::Error);
}
