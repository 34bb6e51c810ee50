#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("banners of two versions across hosts are a mismatch (pdsh raw banner and 2.22+ INFO line)") {
  auto m = model_from({
      "gpuA: NCCL version 2.18.3+cuda12.2",
      "gpuB: NCCL version 2.21.5+cuda12.4",
      "gpuC:300:300 [0] NCCL INFO NCCL version 2.21.5+cuda12.4",
  });
  auto f = run_rule("nccl-version-mismatch", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "the job loads 2 NCCL versions: 2.18.3 on gpuA (1 process); 2.21.5 on gpuB, gpuC (2 processes)");
  CHECK(f[0].hosts == std::vector<std::string>{"gpuA", "gpuB", "gpuC"});
  CHECK(f[0].evidence.size() == 2);
}

TEST_CASE("NCCL's own mismatch WARN fires even without banners") {
  auto m = model_from({
      "",
      "gpuA:100:100 [0] init.cc:1001 NCCL WARN Mismatched NCCL version detected : rank 0 version 22304 rank 3 version 22703",
  });
  auto f = run_rule("nccl-version-mismatch", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "NCCL detected mismatched versions: rank 0 has 2.23.4, rank 3 has 2.27.3");
}

TEST_CASE("raw banners without a launcher prefix are cited by line") {
  auto m = model_from({"NCCL version 2.18.3+cuda12.2", "NCCL version 2.19.3+cuda12.2"});
  auto f = run_rule("nccl-version-mismatch", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "the job loads 2 NCCL versions: 2.18.3 in the stdout banner at job.log:1; 2.19.3 in the stdout "
                        "banner at job.log:2");
}

TEST_CASE("one version everywhere is no mismatch") {
  auto m = model_from({"NCCL version 2.4.8+cuda10.0", "NCCL version 2.4.8+cuda10.0"});
  CHECK(run_rule("nccl-version-mismatch", m).empty());
}
