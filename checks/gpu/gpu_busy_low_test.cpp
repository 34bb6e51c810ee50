#include <doctest/doctest.h>

#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

// `nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader,nounits -l 5`
// with one row per GPU per sample, each line under `prefix` ("gpu07: " as
// pdsh prints it, or nothing).
std::vector<std::string> util_log(std::string_view prefix, const std::vector<std::vector<int>>& per_gpu) {
  std::vector<std::string> lines{
      fmt::format("{}$ nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader,nounits -l 5", prefix)};
  for (size_t i = 0; i < per_gpu[0].size(); ++i) {
    for (size_t g = 0; g < per_gpu.size(); ++g) lines.push_back(fmt::format("{}{}, {}", prefix, g, per_gpu[g][i]));
  }
  return lines;
}

std::vector<int> repeat(std::vector<int> pattern, size_t times) {
  std::vector<int> out;
  for (size_t i = 0; i < times; ++i) out.insert(out.end(), pattern.begin(), pattern.end());
  return out;
}

std::vector<int> join(std::initializer_list<std::vector<int>> parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A warm-up, 21 steady samples that alternate 90 % and 30 % (mean 61 %), an idle tail.
const std::vector<int> kInputBound = join({{0, 0, 4}, repeat({90, 30}, 10), {90}, {0, 0, 0}});

}  // namespace

TEST_CASE("gpu-busy-low: mean, 10th percentile and dips of the steady state, warm-up and tail left out") {
  auto m = model_from_lines(util_log("gpu07: ", {kInputBound}));
  auto found = run_rule("gpu-busy-low", m);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: gpu07 GPU 0: busy 61 % on average over 21 steady-state samples (10th percentile 30 %; below "
            "80 % in 48 % of them): the GPU waits on input, the host or communication; profile a step (data loader "
            "workers, NCCL time in the Horovod timeline or nsys)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu07"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].line == 2);
  CHECK(found[0].evidence[0].text == "0, 0");
}

TEST_CASE("gpu-busy-low: one finding per GPU that is underused; host unknown when no prefix named it") {
  auto busy = join({{0, 2}, repeat({97, 98, 99}, 5), {0}});
  auto low = join({{0, 1}, repeat({70, 40, 60}, 5), {0}});
  auto found = run_rule("gpu-busy-low", model_from_lines(util_log("", {busy, low})));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: host unknown GPU 1: busy 57 % on average over 15 steady-state samples (10th percentile 40 %; "
            "below 80 % in 100 % of them): the GPU waits on input, the host or communication; profile a step (data "
            "loader workers, NCCL time in the Horovod timeline or nsys)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts.empty());
}

TEST_CASE("gpu-busy-low: --min-gpu-util moves the bar") {
  auto m = model_from_lines(util_log("gpu07: ", {kInputBound}));
  CheckOptions options;
  options.min_gpu_util = 60;
  CHECK(run_rule("gpu-busy-low", m, options).empty());
  options.min_gpu_util = 95;
  CHECK(run_rule("gpu-busy-low", m, options).size() == 1);
}

TEST_CASE("gpu-busy-low: a busy steady state between a warm-up and an idle tail says nothing") {
  // The mean of all samples is 56 %; the steady state's is 97 %.
  auto series = join({{0, 0, 0, 0, 0, 3}, repeat({96, 98}, 6), {0, 0, 0, 0, 0}});
  CHECK(run_rule("gpu-busy-low", model_from_lines(util_log("gpu07: ", {series}))).empty());
}

TEST_CASE("gpu-busy-low: a snapshot, a short series and a GPU never used say nothing") {
  auto table = model_from({
      "+-----------------------------------------------------------------------------------------+",
      "| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |",
      "|-----------------------------------------+------------------------+----------------------+",
      "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
      "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
      "|                                         |                        |               MIG M. |",
      "|=========================================+========================+======================|",
      "|   0  NVIDIA A100-SXM4-80GB          On  |   00000000:07:00.0 Off |                    0 |",
      "| N/A   44C    P0            141W /  400W |   61234MiB /  81920MiB |     12%      Default |",
      "|                                         |                        |                  N/A |",
      "+-----------------------------------------+------------------------+----------------------+",
  });
  REQUIRE(table.gpu_side.gpus.size() == 1);
  CHECK(run_rule("gpu-busy-low", table).empty());
  // Nine steady samples: an excerpt, not a run.
  CHECK(run_rule("gpu-busy-low", model_from_lines(util_log("", {repeat({40}, 9)}))).empty());
  // Never above 5 %: ND6004 (gpu-idle) speaks for it.
  CHECK(run_rule("gpu-busy-low", model_from_lines(util_log("", {repeat({0, 3}, 20)}))).empty());
}

TEST_CASE("gpu-busy-low: dmon copied from a Markdown source, its `# gpu` headers escaped as `\\#`") {
  std::vector<std::string> lines{"\\# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk",
                                 "\\# Idx      W      C      C      %      %      %      %    MHz    MHz"};
  for (int sm : kInputBound) lines.push_back(fmt::format("    0    212     51     60    {:3}     41      0      0   2619   1980", sm));
  auto found = run_rule("gpu-busy-low", model_from_lines(lines));
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.starts_with("host unknown GPU 0: busy 61 % on average over 21 steady-state samples"));
}
