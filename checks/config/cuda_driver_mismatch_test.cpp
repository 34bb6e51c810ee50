#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("different CUDA drivers across hosts are a warning") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO cudaDriverVersion 12040",
      "gpuB:200:200 [0] NCCL INFO cudaDriverVersion 12020",
      "gpuC:300:300 [0] NCCL INFO cudaDriverVersion 12040",
  });
  auto f = run_rule("cuda-driver-mismatch", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message ==
        "hosts run different CUDA drivers (cudaDriverVersion): 12040 (CUDA 12.4) on gpuA, gpuC; 12020 (CUDA 12.2) on gpuB");
  auto same = model_from({"gpuA:1:1 [0] NCCL INFO cudaDriverVersion 12040", "gpuB:2:2 [0] NCCL INFO cudaDriverVersion 12040"});
  CHECK(run_rule("cuda-driver-mismatch", same).empty());
}
