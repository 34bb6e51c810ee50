#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("tree-inconsistent: a parent that does not list its child (NCCL 2.8+ `Trees`)") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 2/-1/-1->0->-1",
      "gpuA:101:101 [1] NCCL INFO Trees [0] 2/-1/-1->1->0 [1] -1/-1/-1->1->2",
      "gpuA:102:102 [2] NCCL INFO Trees [0] -1/-1/-1->2->1 [1] -1/-1/-1->2->1",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
      "gpuA:102:102 [2] NCCL INFO comm 0x12 rank 2 nranks 3 cudaDev 2 busId 3a000 - Init COMPLETE",
  });
  auto f = run_rule("tree-inconsistent", m);
  REQUIRE(f.size() == 4);
  CHECK(f[0].message == "tree 01: rank 0 lists rank 2 as a tree child, but rank 2's parent is rank 1");
  CHECK(f[1].message == "tree 01: rank 1 says its tree parent is rank 2, but rank 2 lists no children");
  CHECK(f[2].message == "tree 01: rank 2 says its tree parent is rank 1, but rank 1 lists no children");
  CHECK(f[3].message == "tree 01: the tree's parent links from rank 1 run in a cycle");
  CHECK(f[0].severity == Severity::Error);
}

TEST_CASE("tree-inconsistent: two roots, and a cycle") {
  auto roots = model_from({
      "gpuA:100:100 [0] NCCL INFO Trees [0] -1/-1/-1->0->-1",
      "gpuA:101:101 [1] NCCL INFO Trees [0] -1/-1/-1->1->-1",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  auto f = run_rule("tree-inconsistent", roots);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "tree 00: the tree has 2 roots (ranks 0-1), not one");
  auto cycle = model_from({
      "gpuA:100:100 [0] NCCL INFO Trees [0] 1/-1/-1->0->1",
      "gpuA:101:101 [1] NCCL INFO Trees [0] 0/-1/-1->1->0",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  f = run_rule("tree-inconsistent", cycle);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "tree 00: the tree's parent links from rank 0 run in a cycle");
}

TEST_CASE("tree-inconsistent: consistent 2.4 and 2.7 trees, a rank's line missing, NVLS trees") {
  auto v24 = model_from({
      "node01:100:100 [0] NCCL INFO Trees [0] -1->0->1/-1/-1",
      "node01:101:101 [1] NCCL INFO Trees [0] 0->1->-1/-1/-1",
      "node01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE",
  });
  CHECK(run_rule("tree-inconsistent", v24).empty());
  auto v27 = model_from({
      "node01:100:100 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1|-1->0->1/-1/-1",
      "node01:101:101 [1] NCCL INFO Trees [0] -1/-1/-1->1->0|0->1->-1/-1/-1",
      "node01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "node01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 3 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  CHECK(run_rule("tree-inconsistent", v27).empty());
  // NCCL 2.18.3 NVLS Trees (GRAPH): rank 0 heads node 0, rank 8 heads node 1.
  auto nvls = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 8 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
      "gpu01:100:100 [0] NCCL INFO NVLS Trees : 8/-1/-1->0->-1 -1/-1/-1->0->8",
      "gpu02:200:200 [0] NCCL INFO NVLS Trees : -1/-1/-1->8->0 0/-1/-1->8->-1",
  });
  CHECK(run_rule("tree-inconsistent", nvls).empty());
  auto bad_nvls = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 8 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
      "gpu01:100:100 [0] NCCL INFO NVLS Trees : -1/-1/-1->0->-1 -1/-1/-1->0->8",
      "gpu02:200:200 [0] NCCL INFO NVLS Trees : -1/-1/-1->8->0 0/-1/-1->8->-1",
  });
  auto f = run_rule("tree-inconsistent", bad_nvls);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "tree 00: rank 8 says its NVLS tree parent is rank 0, but rank 0 lists no children");
}

TEST_CASE("tree-inconsistent: each tree judged on its own records, plain trees by channel, then NVLS trees") {
  // Channel 2 has two roots, channel 0 a parent without the child, and the
  // NVLS tree of channel 0 two roots; channel 1 is whole.
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x7 - Init START",
      "gpu01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 busId 2a000 commId 0x7 - Init START",
      "gpu01:100:100 [0] NCCL INFO Trees [0] -1/-1/-1->0->-1 [1] 1/-1/-1->0->-1 [2] -1/-1/-1->0->-1",
      "gpu01:101:101 [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0 [2] -1/-1/-1->1->-1",
      "gpu01:100:100 [0] NCCL INFO NVLS Trees : -1/-1/-1->0->-1",
      "gpu01:101:101 [1] NCCL INFO NVLS Trees : -1/-1/-1->1->-1",
  });
  auto f = run_rule("tree-inconsistent", m);
  std::vector<std::string> messages;
  for (const auto& x : f) messages.push_back(x.message);
  CHECK(messages == std::vector<std::string>{
                        "tree 00: rank 1 says its tree parent is rank 0, but rank 0 lists no children",
                        "tree 02: the tree has 2 roots (ranks 0-1), not one",
                        "tree 00: the NVLS tree has 2 roots (ranks 0-1), not one",
                    });
}
