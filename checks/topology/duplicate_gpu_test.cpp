#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("duplicate-gpu: two ranks with one busId on one host (NCCL 2.18.3 Init START)") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
      "gpu01:101:101 [0] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7 - Init START",
  });
  auto f = run_rule("duplicate-gpu", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "ranks 0-1 on gpu01 all use the GPU with busId 18000");
  CHECK(f[0].comm == "0x7");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("duplicate-gpu: NCCL's own WARN, 2.8 and 2.30 wording") {
  auto m = model_from({
      "",
      "gpu01:100:100 [0] init.cc:662 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 18000",
  });
  auto f = run_rule("duplicate-gpu", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "NCCL on gpu01 reports two ranks on one GPU: Duplicate GPU detected : rank 0 and rank 1 both "
                        "on CUDA device 18000");
  auto v230 = model_from({
      "[2026-01-02 10:24:27] gpu01:100:100 [0] init.cc:980 NCCL WARN Multiple ranks detected using the same GPU on "
      "this node. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to allow this.",
  });
  CHECK(run_rule("duplicate-gpu", v230).size() == 1);
}

TEST_CASE("duplicate-gpu: same busId on different hosts, or same cudaDev with different GPUs, is fine") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu02:200:200 [0] NCCL INFO comm 0x20 rank 1 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpu02:201:201 [0] NCCL INFO comm 0x21 rank 2 nranks 3 cudaDev 0 busId 2a000 - Init COMPLETE",
  });
  CHECK(run_rule("duplicate-gpu", m).empty());
}
