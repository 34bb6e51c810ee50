#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("an unknown network plugin is reported until --allow-net names it") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/MyNet/0/GDRDMA",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
  });
  auto f = run_rule("inter-node-unknown-net", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/MyNet (1 connection)");
  CheckOptions allow;
  allow.allowed_nets = {"MyNet"};
  CHECK(run_rule("inter-node-unknown-net", m, allow).empty());
}

TEST_CASE("IB, the HPC-X plugin by both its names, UCX, aws-ofi-nccl and Socket are known") {
  for (auto net : {"IB", "IBext_v8", "NCCL RDMA Plugin v8", "UCX", "AWS Libfabric", "Libfabric", "Socket"}) {
    std::string line = std::string("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/") + net + "/0";
    auto m = model_from({
        line,
        "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
        "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
    });
    CHECK(run_rule("inter-node-unknown-net", m).empty());
  }
}
