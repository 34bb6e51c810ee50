#include "src/report/gpu_summary.h"

#include <doctest/doctest.h>

#include <fstream>

#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("nccl-tests summary: ranks from the command line without rank lines; wrong only from #wrong cells") {
  // An all_gather_perf v2.0-era paste: no `# Using devices`, an `error` column, the footer's count.
  auto m = model_from({
      "all_gather_perf -g 8 -b 4294967296 -e 4294967296 -n 100",
      "                                             out-of-place                       in-place",
      "       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error",
      "        (B)    (elements)             (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
      "  4294967296     134217728   float    29122  129.05  129.05  1e+00    29169  128.84  128.84  1e+00",
      " Out of bounds values : 2 FAILED",
      " Avg bus bandwidth    : 128.942",
  });
  auto s = summarize_gpu_side(m);
  REQUIRE(s.nccl_tests.size() == 1);
  CHECK(s.nccl_tests[0].op == "all_gather");
  CHECK(s.nccl_tests[0].ranks == 8);
  CHECK(s.nccl_tests[0].wrong == 0);  // the footer counts failed checks, not values

  // Rank lines, where there are some, count; #wrong cells are summed.
  auto listed = model_from({
      "mpirun -np 4 ./build/all_reduce_perf -g 1",
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
      "# Using devices",
      "#  Rank  0 Group  0 Pid  51210 on    gpu-a07 device  0 [0x07] NVIDIA A100-SXM4-80GB",
      "#  Rank  1 Group  0 Pid  51211 on    gpu-a07 device  1 [0x0a] NVIDIA A100-SXM4-80GB",
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
      "           8             2     float     sum      -1    10.10    0.00    0.00      1    10.00    0.00    0.00      2",
      "# Out of bounds values : 3 FAILED",
  });
  auto t = summarize_gpu_side(listed);
  REQUIRE(t.nccl_tests.size() == 1);
  CHECK(t.nccl_tests[0].ranks == 2);
  CHECK(t.nccl_tests[0].wrong == 3);  // 1 + 2
}

TEST_CASE("topology summary: the NIC Legend names the NICs, also read through the whole pipeline") {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/smi_topo/h100_nic_legend_r550.txt");
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  GpuSideSummary s = summarize_gpu_side(model_from_lines(lines));
  REQUIRE(s.topology.size() == 1);
  REQUIRE(s.topology[0].nics.size() == 12);
  CHECK(s.topology[0].nics.front() == "mlx5_0");
  CHECK(s.topology[0].nics.back() == "mlx5_11");
  CHECK(s.topology[0].host.empty());
  CHECK(s.topology[0].nearest_nic.at("GPU0").nic == "mlx5_0");
}
