#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("rank-unbound: Open MPI 4 ranks that are not bound, behind --tag-output") {
  auto m = model_from({
      "[gpu01:4410] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../..][../../..]",
      "[gpu01:4410] MCW rank 1 is not bound (or bound to all available processors)",
      "[1,2]<stderr>:[gpu01:4410] MCW rank 2 is not bound (or bound to all available processors)",
  });
  REQUIRE(m.bindings.size() == 3);
  auto f = run_rule("rank-unbound", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "Open MPI 4 reports MPI ranks 1-2 on gpu01 not bound to CPUs (free to run on any core)");
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("rank-unbound: Open MPI 5 and Slurm") {
  auto m = model_from({
      "[node701.hydra.os:3333100] Rank 3 is not bound (or bound to all available processors)",
      " 0: cpu-bind=NONE - gpu02, task  0  0 [5120]: mask 0xffffffff set",
  });
  auto f = run_rule("rank-unbound", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].message == "Open MPI 5 reports MPI rank 3 on node701 not bound to CPUs (free to run on any core)");
  CHECK(f[1].message == "Slurm reports task 0 on gpu02 not bound to CPUs (free to run on any core)");
}

TEST_CASE("rank-unbound: bound ranks are fine") {
  auto m = model_from({
      "[gpu01:4410] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../..][../../..]",
      "cpu-bind=MASK - gpu02, task  1  1 [5121]: mask 0x2 set",
  });
  CHECK(run_rule("rank-unbound", m).empty());
}
