#include <algorithm>
#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("shared-cores: every Slurm task bound to CPU 0") {
  auto m = model_from({
      " 0: cpu-bind=MASK - gpu01, task  0  0 [5120]: mask 0x1 set",
      " 1: cpu-bind=MASK - gpu01, task  1  1 [5121]: mask 0x1 set",
      " 2: cpu-bind=MASK - gpu01, task  2  2 [5122]: mask 0x1 set",
  });
  auto f = run_rule("shared-cores", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "Slurm binds tasks 0-2 on gpu01 to the same CPU 0 (3 ranks on 1 CPU)");
}

TEST_CASE("shared-cores: Open MPI 4 ranks on one core, not a whole socket") {
  auto m = model_from({
      "[gpu01:4410] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../..][../../..]",
      "[gpu01:4410] MCW rank 1 bound to socket 0[core 0[hwt 0-1]]: [BB/../..][../../..]",
  });
  auto f = run_rule("shared-cores", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "Open MPI 4 binds MPI ranks 0-1 on gpu01 to the same hardware threads 0-1 (2 ranks on 2 "
                        "hardware threads)");
}

TEST_CASE("shared-cores: --bind-to socket and distinct cores are fine") {
  auto sockets = model_from({
      "[gpu01:4410] MCW rank 0 bound to socket 0[core 0[hwt 0-1]], socket 0[core 1[hwt 0-1]]: [BB/BB][../..]",
      "[gpu01:4410] MCW rank 1 bound to socket 0[core 0[hwt 0-1]], socket 0[core 1[hwt 0-1]]: [BB/BB][../..]",
      "[gpu01:5000] Rank 2 bound to package[0][core:0-31]",
      "[gpu01:5000] Rank 3 bound to package[0][core:0-31]",
  });
  CHECK(run_rule("shared-cores", sockets).empty());
  auto cores = model_from({
      "cpu-bind=MASK - gpu01, task  0  0 [5120]: mask 0x1 set",
      "cpu-bind=MASK - gpu01, task  1  1 [5121]: mask 0x2 set",
  });
  CHECK(run_rule("shared-cores", cores).empty());
}
