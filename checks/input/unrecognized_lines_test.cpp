#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("unrecognized NCCL lines are counted and cited, never dropped silently") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Frobnicating the widget",
      "gpuA:100:100 [0] NCCL INFO Frobnicating the widget again",
  });
  auto f = run_rule("unrecognized-lines", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "2 NCCL lines of unrecognized shape (not used for the verdict)");
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].text == "gpuA:100:100 [0] NCCL INFO Frobnicating the widget");
}
