#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/rail/rail_rules.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.18.3 lines: rank 0 on gpuA sends to rank 1 on gpuB.
JobModel pair(std::string_view send, std::string_view receive, bool listed = true) {
  std::vector<std::string_view> lines;
  if (listed) {
    lines.push_back("gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>");
    lines.push_back("gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.11<0>");
  }
  lines.push_back("gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE");
  lines.push_back("gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE");
  lines.push_back(send);
  lines.push_back(receive);
  return model_from_lines(lines);
}
}  // namespace

TEST_CASE("cross-rail-traffic fires when the send NIC and the receive NIC differ") {
  auto m = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA");
  auto f = run_rule<CrossRailTraffic>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NIC mlx5_0 -> NIC mlx5_1 (1 connection)");
  auto unlisted = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                       "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA", false);
  f = run_rule<CrossRailTraffic>(unlisted);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NIC NET/IB/0 -> NIC NET/IB/1 (1 connection)");
}

TEST_CASE("cross-rail-traffic: same NIC, one half missing, or sockets do not fire") {
  CHECK(run_rule<CrossRailTraffic>(pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/1(3)/GDRDMA",
                                        "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA"))
            .empty());
  CHECK(run_rule<CrossRailTraffic>(pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                                        "gpuA:100:100 [0] NCCL INFO cudaDriverVersion 12040"))
            .empty());
  CHECK(run_rule<CrossRailTraffic>(pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
                                        "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/1"))
            .empty());
}
