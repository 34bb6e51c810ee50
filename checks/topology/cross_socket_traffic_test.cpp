#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("cross-socket-traffic: a ring whose GPUs talk across sockets (NCCL 2.14+ `bw`)") {
  auto m = model_from({
      "pcie01:100:100 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 10.000000/10.000000, type SYS/PIX, sameChannels 1",
      "pcie01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x3 - Init COMPLETE",
  });
  auto f = run_rule("cross-socket-traffic", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "GPU-to-GPU traffic inside a host crosses CPU sockets (intra path type SYS) on pcie01 (ring graph)");
  REQUIRE(f[0].evidence.size() == 1);
  CHECK(f[0].evidence[0].line == 1);
}

TEST_CASE("cross-socket-traffic: GPU-to-NIC path through SYS in a two-node job (NCCL 2.11 `speed`)") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, speed 12.000000/12.000000, type NVL/SYS, sameChannels 1",
      "gpu01:100:100 [0] NCCL INFO Pattern 3, crossNic 0, nChannels 2, speed 12.000000/12.000000, type NVL/SYS, sameChannels 1",
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 1 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  auto f = run_rule("cross-socket-traffic", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "GPU-to-NIC traffic crosses CPU sockets (inter path type SYS) on gpu01 (ring, tree graphs)");
}

TEST_CASE("cross-socket-traffic: NVLink and PIX/PXB paths are fine; single-node inter type is ignored") {
  auto m = model_from({
      "dgx01:100:100 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1",
      "dgx01:100:100 [0] NCCL INFO Pattern 1, crossNic 0, nChannels 12, bw 40.000000/20.000000, type NVL/PXB, sameChannels 1",
      "dgx01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 1 cudaDev 0 busId 18000 commId 0x3 - Init COMPLETE",
  });
  CHECK(run_rule("cross-socket-traffic", m).empty());
  auto single = model_from({
      "dgx01:100:100 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/SYS, sameChannels 1",
  });
  CHECK(run_rule("cross-socket-traffic", single).empty());
}
