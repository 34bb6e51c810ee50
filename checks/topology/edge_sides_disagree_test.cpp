#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.19.3 lines: the sender prints [send], the receiver [receive].
JobModel one_edge(std::string_view send, std::string_view receive) {
  return model_from({
      send,
      receive,
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
  });
}
}  // namespace

TEST_CASE("edge-sides-disagree: the two sides name different networks") {
  auto m = one_edge("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0");
  auto f = run_rule("edge-sides-disagree", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/IB on the [send] side but NET/Socket "
                        "on the [receive] side (1 connection)");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("edge-sides-disagree: GDR on the send side only") {
  auto m = one_edge("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                    "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0");
  auto f = run_rule("edge-sides-disagree", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NET/IB/GDRDMA on the [send] side but no "
                        "/GDRDMA on the [receive] side (1 connection)");
}

TEST_CASE("edge-sides-disagree: GDR on the receive side only is normal; PXN and NIC index may differ") {
  auto recv_only = one_edge("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0",
                            "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA");
  CHECK(run_rule("edge-sides-disagree", recv_only).empty());
  auto pxn = one_edge("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IBext/0(3)/GDRDMA",
                      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IBext/2/GDRDMA");
  CHECK(run_rule("edge-sides-disagree", pxn).empty());
}
