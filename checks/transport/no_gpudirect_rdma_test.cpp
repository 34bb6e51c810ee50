#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
JobModel two_hosts(std::string_view send, std::string_view receive) {
  return model_from({
      send,
      receive,
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
  });
}
}  // namespace

TEST_CASE("no-gpudirect-rdma fires on IB without /GDRDMA on either side") {
  auto m = two_hosts("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/IB/0",
                     "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/IB/0");
  auto f = run_rule("no-gpudirect-rdma", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/IB (1 connection)");
}

TEST_CASE("no-gpudirect-rdma: GDR on one side, sockets and plugins") {
  auto gdr_recv = two_hosts("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/IB/0",
                            "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/IB/0/GDRDMA");
  CHECK(run_rule("no-gpudirect-rdma", gdr_recv).empty());
  auto socket = two_hosts("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/Socket/0",
                          "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/Socket/0");
  CHECK(run_rule("no-gpudirect-rdma", socket).empty());
  auto ofi = two_hosts("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/AWS Libfabric/0",
                       "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/AWS Libfabric/0");
  auto f = run_rule("no-gpudirect-rdma", ofi);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/AWS Libfabric (1 connection)");
}
