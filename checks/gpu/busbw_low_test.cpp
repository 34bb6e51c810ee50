#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "checks/check_fixture.h"
#include "src/model/busbw_expectation.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

std::vector<std::string> fixture_lines(const std::string& name) {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/rules/ND6020/" + name);
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

JobModel fixture(const std::string& name) { return model_from_lines(fixture_lines(name), name); }

}  // namespace

TEST_CASE("busbw-low: an H100 box at a third of its NVSwitch figure") {
  auto m = fixture("bad-h100-box-at-a-third.log");
  auto found = run_rule("busbw-low", m);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: all_reduce_perf on 8 ranks, 1 host: busbw 122.0 GB/s at 8 GiB, 0.33x the 370 GB/s expected (8x "
            "H100 SXM in one host (NVLink 4, NVSwitch)); compare with a run of NCCL_DEBUG=INFO beside it (`nccl-doctor "
            "check`) to see which link is slow"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"dgx-h100-03"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].line == 20);
}

TEST_CASE("busbw-low: at peak, or without a figure for the hardware, it says nothing") {
  CHECK(run_rule("busbw-low", fixture("good-h100-box-at-peak.log")).empty());
  CHECK(run_rule("busbw-low", fixture("good-pcie-cards-no-figure.log")).empty());
}

TEST_CASE("busbw-low: inside one host, the figure comes from the NVLinks `topo -m` shows between its GPUs") {
  auto found = run_rule("busbw-low", fixture("bad-four-a100-below-their-nvlinks.log"));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: all_reduce_perf on 4 ranks, 1 host: busbw 61.2 GB/s at 8 GiB, 0.26x the 231 GB/s expected (4 "
            "GPUs of one host with NV12 between each pair in `nvidia-smi topo -m`: 12 x 25 GB/s each way (NVLink 3), "
            "77 % of that); compare with a run of NCCL_DEBUG=INFO beside it (`nccl-doctor check`) to see which link "
            "is slow"});
  CHECK(run_rule("busbw-low", fixture("good-four-a100-near-their-nvlinks.log")).empty());

  auto lines = fixture_lines("bad-four-a100-below-their-nvlinks.log");
  auto replaced = [&](const std::string& from, const std::string& to) {
    auto copy = lines;
    for (auto& line : copy) {
      for (size_t at; (at = line.find(from)) != std::string::npos;) line.replace(at, from.size(), to);
    }
    return copy;
  };
  // A pair without NVLink: the GPUs are not all joined, so no figure.
  auto one_pcie_pair = lines;
  for (auto& line : one_pcie_pair) {
    if (line.starts_with("GPU0\t")) line.replace(line.find("NV12"), 4, "SYS");
    if (line.starts_with("GPU1\t")) line.replace(line.find("NV12"), 4, "SYS");
  }
  CHECK(run_rule("busbw-low", model_from_lines(one_pcie_pair)).empty());
  // A GPU family without a known NVLink rate, and a matrix of another host.
  CHECK(run_rule("busbw-low", model_from_lines(replaced("NVIDIA A100-SXM4-80GB", "NVIDIA RTX A6000"))).empty());
  auto other_host = lines;
  for (auto& line : other_host) {
    if (line.starts_with("$ ./build")) break;
    line = "hgx-a100-08: " + line;
  }
  auto other_model = model_from_lines(other_host);
  REQUIRE(other_model.gpu_side.topologies.size() == 1);
  CHECK(other_model.gpu_side.topologies[0].host == "hgx-a100-08");
  CHECK(run_rule("busbw-low", other_model).empty());
  // The fewest links between a pair is what a ring gets at least.
  auto uneven = lines;
  for (auto& line : uneven) {
    if (line.starts_with("GPU2\t")) line = "GPU2\tNV12\tNV4\t X \tNV12\t32-63,96-127\t1\t\tN/A";
    if (line.starts_with("GPU1\t")) line = "GPU1\tNV12\t X \tNV4\tNV12\t0-31,64-95\t0\t\tN/A";
  }
  // Two GPUs, as a bridged pair: no figure.
  auto pair = lines;
  std::erase_if(pair, [](const std::string& line) {
    return line.starts_with("#  Rank  2") || line.starts_with("#  Rank  3");
  });
  auto pair_model = model_from_lines(pair);
  REQUIRE(pair_model.gpu_side.nccl_tests.size() == 1);
  REQUIRE(pair_model.gpu_side.nccl_tests[0].run.ranks.size() == 2);
  CHECK_FALSE(expected_busbw(pair_model.gpu_side.nccl_tests[0].run, pair_model));
  auto model = model_from_lines(uneven);
  REQUIRE(model.gpu_side.nccl_tests.size() == 1);
  auto expected = expected_busbw(model.gpu_side.nccl_tests[0].run, model);
  REQUIRE(expected);
  CHECK(expected->gbs == doctest::Approx(77));
  CHECK(run_rule("busbw-low", model).empty());
}

TEST_CASE("busbw-low: --expect-busbw judges any run, and a socket link in the log is named as the cause") {
  CheckOptions options;
  options.expect_busbw_gbs = 40;
  auto m = model_from({
      "gpu09:2771:2771 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.9<0>",
      "gpu09:2771:2771 [0] NCCL INFO Using network Socket",
      "$ mpirun -np 2 -H gpu09,gpu28 ./all_reduce_perf -b 2G -e 2G -g 1",
      "# nThread 1 nGpus 1 minBytes 2147483648 maxBytes 2147483648 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
      "validation: 1 graph: 0",
      "#",
      "# Using devices",
      "#  Rank  0 Group  0 Pid   2771 on      gpu09 device  0 [0x18] NVIDIA H100 80GB HBM3",
      "#  Rank  1 Group  0 Pid   3120 on      gpu28 device  0 [0x18] NVIDIA H100 80GB HBM3",
      "#",
      "#                                                              out-of-place                       in-place",
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
      "  2147483648     536870912     float     sum      -1   766958    2.80    2.80      0   767012    2.80    2.80      0",
      "# Out of bounds values : 0 OK",
  });
  auto found = run_rule("busbw-low", m, options);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: all_reduce_perf on 2 ranks, 2 hosts: busbw 2.8 GB/s at 2 GiB, 0.07x the 40 GB/s expected "
            "(--expect-busbw); the NCCL log shows inter-node traffic on NET/Socket (ND3001): TCP, not RDMA; compare "
            "with a run of NCCL_DEBUG=INFO beside it (`nccl-doctor check`) to see which link is slow"});
  // Small sizes never reach the peak: a run that stops at 128 MiB is not judged.
  auto small = model_from({
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
      "validation: 1 graph: 0",
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
      "   134217728      33554432     float     sum      -1    47936    2.80    2.80      0    47950    2.80    2.80      0",
  });
  CHECK(run_rule("busbw-low", small, options).empty());
}

TEST_CASE("busbw-low: across hosts, the figure is the NICs' line rate from the hosts' probe records") {
  auto m = fixture("bad-two-hosts-below-their-nics.log");
  auto found = run_rule("busbw-low", m);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: all_reduce_perf on 16 ranks, 2 hosts: busbw 120.2 GB/s at 8 GiB, 0.33x the 360 GB/s expected (2 "
            "hosts, 8 NICs of 400 Gb/s each in the probe records, 90 % of line rate); compare with a run of "
            "NCCL_DEBUG=INFO beside it (`nccl-doctor check`) to see which link is slow"});
  // Without the record of one host, no figure: nothing to judge by.
  auto lines = fixture_lines("bad-two-hosts-below-their-nics.log");
  std::erase_if(lines, [](const std::string& line) { return line.starts_with("1: {"); });
  CHECK(run_rule("busbw-low", model_from_lines(lines)).empty());
}
