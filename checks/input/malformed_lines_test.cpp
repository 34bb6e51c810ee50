#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("lines of a known shape with impossible numbers are counted, cited and skipped") {
  auto m = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00 : 99999999999 -> 1[1] via P2P/IPC"});
  auto f = run_rule("malformed-lines", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "1 NCCL line with out-of-range ranks, channels or counts was skipped");
  REQUIRE(f[0].evidence.size() == 1);
  CHECK(f[0].evidence[0].line == 1);
  CHECK(run_rule("malformed-lines", model_from({"gpuA:100:100 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC"}))
            .empty());
}
