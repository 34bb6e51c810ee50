#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/input/input_rules.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("unrecognized NCCL lines are counted and cited, never dropped silently") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO Frobnicating the widget",
      "gpuA:100:100 [0] NCCL INFO Frobnicating the widget again",
  });
  auto f = run_rule<UnrecognizedLines>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "2 NCCL lines of unrecognized shape (not used for the verdict)");
  REQUIRE(f[0].evidence.size() == 2);
  CHECK(f[0].evidence[0].text == "gpuA:100:100 [0] NCCL INFO Frobnicating the widget");
}

TEST_CASE("malformed numbers, overlong lines and ambiguity") {
  auto m = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00 : 99999999999 -> 1[1] via P2P/IPC"});
  auto f = run_rule<MalformedLines>(m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "1 NCCL line with out-of-range ranks, channels or counts was skipped");
  CHECK(run_rule<OverlongLines>(m).empty());
  CHECK(run_rule<AmbiguousCommunicator>(m).empty());
}
