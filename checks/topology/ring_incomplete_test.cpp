#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("ring-incomplete: ranks without GRAPH ring lines are reported as missing, not broken") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1",
      "gpuA:100:100 [0] NCCL INFO Ring 01 : 3 -> 0 -> 1",
      "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 2",
      "gpuA:101:101 [1] NCCL INFO Ring 01 : 0 -> 1 -> 2",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 4 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  auto f = run_rule("ring-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "rings 00-01: the log has GRAPH ring lines from 2 of 4 ranks; ranks 2-3 printed none, so "
                        "the ring cannot be closed (checked only between the ranks present)");
  CHECK(f[0].channels == std::vector<uint32_t>{0, 1});
  CHECK(run_rule("ring-broken", m).empty());
}

TEST_CASE("ring-incomplete: silent when every rank printed its line") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1",
      "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 0",
      "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 2 cudaDev 1 busId 2a000 - Init COMPLETE",
  });
  CHECK(run_rule("ring-incomplete", m).empty());
}
