#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("a job on NCCL 2.18.3 is years behind the newest release") {
  auto m = model_from({"gpuA:100:100 [0] NCCL INFO NCCL version 2.18.3+cuda12.2"});
  auto f = run_rule("nccl-outdated", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "NCCL 2.18.3 (released 2023-06-14) is 3.0 years older than 2.30.7 (2026-06-04), the newest "
                        "release nccl-doctor knows; newer releases fix bugs and speed up collectives");
  CHECK(f[0].hosts == std::vector<std::string>{"gpuA"});
}

TEST_CASE("an untagged build is dated by the tag before it") {
  auto m = model_from({"NCCL version 2.19.2+cuda12.2"});
  auto f = run_rule("nccl-outdated", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.starts_with("NCCL 2.19.2 (built after the 2.19.1 tag of 2023-09-26) is"));
}

TEST_CASE("a release within a year of the newest is fine") {
  CHECK(run_rule("nccl-outdated", model_from({"NCCL version 2.27.7+cuda13.0"})).empty());
  CHECK(run_rule("nccl-outdated", model_from({"NCCL version 2.31.0+cuda13.1"})).empty());
}
