#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("oversubscribed-host: three processes on two GPUs across communicators (NCCL 2.4)") {
  auto m = model_from({
      "node01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE",
      "node01:102:102 [0] NCCL INFO comm 0x12 rank 0 nranks 1 cudaDev 0 nvmlDev 1 - Init COMPLETE",
  });
  auto f = run_rule("oversubscribed-host", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "node01 runs 3 NCCL processes on 2 distinct GPUs");
  CHECK(f[0].hosts == std::vector<std::string>{"node01"});
}

TEST_CASE("oversubscribed-host: one process per GPU, or one process driving several GPUs, is fine") {
  auto m = model_from({
      "node01:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node01:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE",
      "node02:300:300 [0] NCCL INFO comm 0x30 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:300:300 [1] NCCL INFO comm 0x31 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE",
  });
  CHECK(run_rule("oversubscribed-host", m).empty());
}
