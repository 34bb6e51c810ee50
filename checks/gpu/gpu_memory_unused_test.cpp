#include <doctest/doctest.h>

#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

struct Sample {
  int util;
  int used_mib;
};

// `nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total
// --format=csv,noheader,nounits -l 5` on one GPU of `total_mib`.
std::vector<std::string> mem_log(std::string_view prefix, const std::vector<Sample>& samples, int total_mib = 81920) {
  std::vector<std::string> lines{fmt::format(
      "{}$ nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits -l 5",
      prefix)};
  for (const auto& s : samples) lines.push_back(fmt::format("{}0, {}, {}, {}", prefix, s.util, s.used_mib, total_mib));
  return lines;
}

// A warm-up while the model loads, `n` busy samples using `used` MiB, then `tail`.
std::vector<Sample> run(int n, int util, int used, std::vector<Sample> tail = {{0, 3}}) {
  std::vector<Sample> out{{0, 0}, {0, 512}, {4, 2731}};
  for (int i = 0; i < n; ++i) out.push_back({util + i % 3, used});
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

const char* kTable[] = {
    "+-----------------------------------------------------------------------------------------+",
    "| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |",
    "|-----------------------------------------+------------------------+----------------------+",
    "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
    "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
    "|                                         |                        |               MIG M. |",
    "|=========================================+========================+======================|",
    "|   0  NVIDIA A100-SXM4-80GB          On  |   00000000:07:00.0 Off |                    0 |",
    "| N/A   58C    P0            352W /  400W |    9120MiB /  81920MiB |     98%      Default |",
    "|                                         |                        |                  N/A |",
    "+-----------------------------------------+------------------------+----------------------+",
};

}  // namespace

TEST_CASE("gpu-memory-unused: a busy GPU at a fifth of its memory") {
  auto m = model_from_lines(mem_log("gpu12: ", run(12, 96, 17950)));
  auto found = run_rule("gpu-memory-unused", m);
  CHECK(messages(found) == std::vector<std::string>{"info: gpu12 GPU 0: uses at most 17950 of 81920 MiB of memory "
                                                    "(22 %) while busy 97 % over 12 steady-state samples: room for "
                                                    "a larger batch (or a larger model shard)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu12"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].line == 2);
}

TEST_CASE("gpu-memory-unused: the peak counts, not the idle tail after the job exits") {
  // The last sample, after the job, shows 3 MiB: the job held 66310 MiB.
  CHECK(run_rule("gpu-memory-unused", model_from_lines(mem_log("", run(12, 96, 66310, {{0, 66310}, {0, 3}})))).empty());
  // At exactly half: not well below.
  CHECK(run_rule("gpu-memory-unused", model_from_lines(mem_log("", run(12, 96, 40960)))).empty());
}

TEST_CASE("gpu-memory-unused: needs a busy steady state of at least ten samples") {
  // One table: a snapshot.
  auto table = model_from_lines(std::vector<std::string_view>(std::begin(kTable), std::end(kTable)));
  REQUIRE(table.gpu_side.gpus.size() == 1);
  CHECK(run_rule("gpu-memory-unused", table).empty());
  // Nine steady samples.
  CHECK(run_rule("gpu-memory-unused", model_from_lines(mem_log("", run(9, 96, 17950)))).empty());
  // Busy 31 % on average: not loaded enough to tell what a batch would use.
  CHECK(run_rule("gpu-memory-unused", model_from_lines(mem_log("", run(12, 30, 17950)))).empty());
}

TEST_CASE("gpu-memory-unused: without the capacity or the utilisation it says nothing") {
  // dmon's `fb` is memory used; dmon never prints the capacity.
  std::vector<std::string> dmon{"$ nvidia-smi dmon -s um", "# gpu     sm    mem    enc    dec     fb   bar1",
                                "# Idx      %      %      %      %     MB     MB"};
  for (int i = 0; i < 12; ++i) {
    dmon.push_back(fmt::format("    0     {}     40      0      0  17950      5", 95 + i % 4));
  }
  CHECK(run_rule("gpu-memory-unused", model_from_lines(dmon)).empty());
  // Memory figures alone.
  std::vector<std::string> csv{
      "$ nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader,nounits -l 5"};
  for (int i = 0; i < 12; ++i) csv.push_back("0, 17950, 81920");
  CHECK(run_rule("gpu-memory-unused", model_from_lines(csv)).empty());
}
