#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("ring-sources-disagree: listing against GRAPH lines (NCCL 2.11)") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Ring 00 : 2 -> 0 -> 1",
      "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 2",
      "gpuA:102:102 [2] NCCL INFO Ring 00 : 1 -> 2 -> 0",
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   2   1",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpuA:102:102 [2] NCCL INFO comm 0x12 rank 2 nranks 3 cudaDev 2 busId 3a000 - Init COMPLETE",
  });
  auto f = run_rule("ring-sources-disagree", m);
  REQUIRE(f.size() == 3);
  CHECK(f[0].message == "ring 00: the ring listing puts rank 2 after rank 0, the GRAPH ring line of rank 0 says 1");
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].line == 1);
  CHECK(f[0].evidence[1].line == 4);
}

TEST_CASE("ring-sources-disagree: a ring edge without its connection line (NCCL 2.8)") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1   2",
      "gpuA:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 2[3a000] via P2P/IPC",
      "gpuA:101:101 [1] NCCL INFO Channel 00 : 1[2a000] -> 2[3a000] via P2P/IPC",
      "gpuA:102:102 [2] NCCL INFO Channel 00 : 2[3a000] -> 0[18000] via P2P/IPC",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpuA:102:102 [2] NCCL INFO comm 0x12 rank 2 nranks 3 cudaDev 2 busId 3a000 - Init COMPLETE",
  });
  auto f = run_rule("ring-sources-disagree", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "ring 00: the ring passes from rank 0 to rank 1, but rank 0's connection lines on this "
                        "channel have no link to rank 1");
}

TEST_CASE("ring-sources-disagree: agreeing sources, and 2.22+ runtime connection") {
  auto good = model_from({
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1",
      "gpuA:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via P2P/IPC",
      "gpuA:101:101 [1] NCCL INFO Channel 00 : 1[2a000] -> 0[18000] via P2P/IPC",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  CHECK(run_rule("ring-sources-disagree", good).empty());
  // 2.27: only the tree ran; its edge 0 -> 2 is no ring edge, and the ring's absence is by design.
  auto runtime = model_from({
      "gpuA:100:100 [0] NCCL INFO NCCL version 2.27.7+cuda12.9",
      "gpuA:100:100 [0] NCCL INFO Ring 00 : 2 -> 0 -> 1",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 3 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init START",
      "gpuA:100:100 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 3 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init COMPLETE",
      "gpuA:100:120 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[2] via P2P/CUMEM/read",
  });
  CHECK(run_rule("ring-sources-disagree", runtime).empty());
}

TEST_CASE("ring-sources-disagree: links out of order, as a model built by hand may hold them") {
  // Two channels; rank 0 has no link to rank 1 on channel 00, rank 1 none to rank 2 on channel 01.
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1   2",
      "gpuA:100:100 [0] NCCL INFO Channel 01/02 :    0   1   2",
      "gpuA:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 2[3a000] via P2P/IPC",
      "gpuA:100:100 [0] NCCL INFO Channel 01 : 0[18000] -> 1[2a000] via P2P/IPC",
      "gpuA:101:101 [1] NCCL INFO Channel 00 : 1[2a000] -> 2[3a000] via P2P/IPC",
      "gpuA:101:101 [1] NCCL INFO Channel 01 : 1[2a000] -> 0[18000] via P2P/IPC",
      "gpuA:102:102 [2] NCCL INFO Channel 00 : 2[3a000] -> 0[18000] via P2P/IPC",
      "gpuA:102:102 [2] NCCL INFO Channel 01 : 2[3a000] -> 0[18000] via P2P/IPC",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpuA:102:102 [2] NCCL INFO comm 0x12 rank 2 nranks 3 cudaDev 2 busId 3a000 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  auto in_order = run_rule("ring-sources-disagree", m);
  REQUIRE(in_order.size() == 2);
  CHECK(in_order[0].message == "ring 00: the ring passes from rank 0 to rank 1, but rank 0's connection lines on this "
                               "channel have no link to rank 1");
  CHECK(in_order[1].message == "ring 01: the ring passes from rank 1 to rank 2, but rank 1's connection lines on this "
                               "channel have no link to rank 2");
  std::reverse(m.comms[0].edges.begin(), m.comms[0].edges.end());
  auto reversed = run_rule("ring-sources-disagree", m);
  REQUIRE(reversed.size() == in_order.size());
  for (size_t i = 0; i < in_order.size(); ++i) {
    CHECK(reversed[i].message == in_order[i].message);
    REQUIRE(reversed[i].evidence.size() == in_order[i].evidence.size());
    for (size_t k = 0; k < in_order[i].evidence.size(); ++k) {
      CHECK(reversed[i].evidence[k].line == in_order[i].evidence[k].line);
    }
  }
}
