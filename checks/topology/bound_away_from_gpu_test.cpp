#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("bound-away-from-gpu: NCCL 2.28 finds no CPU of the binding local to the GPU") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO ncclTopoGetCpuAffinity: Affinity for GPU 0 is empty, ignoring. (GPU affinity = "
      "0-23,48-71 ; CPU affinity = 24-47).",
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId "
      "0x3 - Init START",
  });
  REQUIRE(m.affinities.size() == 1);
  auto f = run_rule("bound-away-from-gpu", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "rank 0 (pid 100) on gpu01 is bound to CPUs 24-47, none of them local to its GPU 0 (local "
                        "CPUs 0-23,48-71): host memory and proxy threads sit on the far socket");
}

TEST_CASE("bound-away-from-gpu: a Slurm mask against the GPU's CPUs (NCCL_IGNORE_CPU_AFFINITY=1)") {
  auto m = model_from({
      " 0: cpu-bind=MASK - gpu01, task  0  0 [100]: mask 0xff000000 set",
      "gpu01:100:100 [0] NCCL INFO ncclTopoGetCpuAffinity: Affinity for GPU 0 is 0-23. (GPU affinity = 0-23).",
  });
  auto f = run_rule("bound-away-from-gpu", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "pid 100 on gpu01 is bound to CPUs 24-31, none of them local to its GPU 0 (local CPUs 0-23): "
                        "host memory and proxy threads sit on the far socket");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("bound-away-from-gpu: overlapping sets and pre-2.28 lines are fine") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO ncclTopoGetCpuAffinity: Affinity for GPU 0 is 0-11. (GPU affinity = 0-23 ; CPU "
      "affinity = 0-11).",
      "gpu01:101:101 [1] NCCL INFO Setting affinity for GPU 1 to ffff,ffffffff",
      "gpu01:102:102 [2] NCCL INFO Setting affinity for GPU 2 to 0-23,48-71",
  });
  REQUIRE(m.affinities.size() == 3);
  CHECK(m.affinities[1].affinity->to_string() == "0-47");
  CHECK(m.affinities[2].affinity->to_string() == "0-23,48-71");
  CHECK(run_rule("bound-away-from-gpu", m).empty());
}
