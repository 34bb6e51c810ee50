#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/gpu/process_spans_gpus_fixture.h"

using namespace nd;
using namespace nd::smi;

namespace {

// Three ranks at work on GPUs 0-2 of four; GPU 3 as given.
std::vector<std::string> three_ranks(std::vector<std::string> gpu3, bool cut = false) {
  return table({gpu(0, 71234, 97), gpu(1, 71235, 98), gpu(2, 71236, 99), std::move(gpu3)},
               {process(0, "118400", "C", kPy, "71224MiB"), process(1, "118401", "C", kPy, "71225MiB"),
                process(2, "118402", "C", kPy, "71226MiB")},
               cut);
}

// `nvidia-smi dmon -s u` (R450 columns): `n` intervals of 4 GPUs, GPU 3 at `idle` %.
std::vector<std::string> dmon(int n, int idle) {
  std::vector<std::string> out = {"# gpu    sm   mem   enc   dec", "# Idx     %     %     %     %"};
  for (int t = 0; t < n; ++t) {
    for (int g = 0; g < 4; ++g)
      out.push_back(fmt::format("{:>5}{:>6}{:>6}     0     0", g, g == 3 ? idle : 88 + t % 3, g == 3 ? 0 : 31));
  }
  return out;
}

}  // namespace

TEST_CASE("gpu-idle: seven ranks on eight GPUs") {
  auto m = model_of(on_host("gpu07", three_ranks(gpu(3, 1, 0))));
  auto found = run_rule("gpu-idle", m);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "warning: gpu07: 1 of 4 GPUs idle (GPU 3: no compute process, 0 % utilisation in 1 sample) "
            "while 3 work: fewer ranks than GPUs, or a rank that exited; start one rank per GPU "
            "(check --nproc_per_node and CUDA_VISIBLE_DEVICES)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu07"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].text.find("|   3  NVIDIA H100") != std::string::npos);
}

TEST_CASE("gpu-idle: a rank mapped twice leaves a GPU idle") {
  auto m = model_of(table({gpu(0, 77820, 97), gpu(1, 38922, 98), gpu(2, 1, 0), gpu(3, 2, 1)},
                          {process(0, "4242", "C", kPy, "38912MiB"), process(0, "4244", "C", kPy, "38890MiB"),
                           process(1, "4243", "C", kPy, "38912MiB")}));
  auto found = run_rule("gpu-idle", m);
  CHECK(messages(found) == std::vector<std::string>{
                               "warning: host unknown: 2 of 4 GPUs idle (GPU 2, GPU 3: no compute process, at most 1 % "
                               "utilisation in 1 sample each) while 2 work: GPU 0 runs 2 processes, a rank mapped "
                               "twice; map each rank to its own GPU (check CUDA_VISIBLE_DEVICES / LOCAL_RANK "
                               "mapping)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts.empty());
  CHECK(found[0].evidence.size() == 3);
}

TEST_CASE("gpu-idle: without a process list, utilisation over enough samples") {
  auto m = model_of(dmon(6, 0));
  CHECK(
      messages(run_rule("gpu-idle", m)) ==
      std::vector<std::string>{"warning: host unknown: 1 of 4 GPUs idle (GPU 3: 0 % utilisation in 6 samples) while 3 "
                               "work: fewer ranks than GPUs, a rank mapped twice or a rank that exited; start one "
                               "rank per GPU (check --nproc_per_node and CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)"});
  // An excerpt of four intervals is not enough, nor a GPU that worked a little.
  CHECK(run_rule("gpu-idle", model_of(dmon(4, 0))).empty());
  CHECK(run_rule("gpu-idle", model_of(dmon(6, 7))).empty());
}

TEST_CASE("gpu-idle: a table cut before its process list is one sample, not evidence") {
  CHECK(run_rule("gpu-idle", model_of(three_ranks(gpu(3, 1, 0), true))).empty());
}

TEST_CASE("gpu-idle: all busy, ranks still starting, a single-GPU job, memory held without a process") {
  CHECK(run_rule("gpu-idle", model_of(three_ranks(gpu(3, 71237, 97)))).empty());
  // Contexts made, no kernel yet: the eighth rank may be on its way.
  CHECK(run_rule("gpu-idle",
                 model_of(table({gpu(0, 529, 0), gpu(1, 529, 0), gpu(2, 1, 0)},
                                {process(0, "118400", "C", kPy, "520MiB"), process(1, "118401", "C", kPy, "520MiB")})))
            .empty());
  CHECK(run_rule("gpu-idle", model_of(table({gpu(0, 71234, 97), gpu(1, 1, 0), gpu(2, 1, 0)},
                                            {process(0, "118400", "C", kPy, "71224MiB")})))
            .empty());
  // 40 GiB used and no process listed: something the list does not show holds it.
  CHECK(run_rule("gpu-idle", model_of(three_ranks(gpu(3, 40960, 0)))).empty());
}

TEST_CASE("gpu-idle: a GPU that only holds stray contexts is still a GPU with processes") {
  auto m = model_of(table({gpu(0, 1040, 0), gpu(1, 71234, 97), gpu(2, 71235, 98)},
                          {process(0, "118401", "C", kPy, "520MiB"), process(0, "118402", "C", kPy, "520MiB"),
                           process(1, "118401", "C", kPy, "70704MiB"), process(2, "118402", "C", kPy, "70705MiB")}));
  CHECK(run_rule("gpu-idle", m).empty());
}

TEST_CASE("gpu-idle: a graphics process does not make a GPU busy, MPS sharing is no double mapping") {
  auto m = model_of(table(
      {gpu(0, 36910, 99), gpu(1, 36910, 99), gpu(2, 27, 0)},
      {process(0, "13390", "C", "nvidia-cuda-mps-server", "30MiB"), process(0, "13432", "M+C", "python", "18440MiB"),
       process(0, "13433", "M+C", "python", "18440MiB"), process(1, "13390", "C", "nvidia-cuda-mps-server", "30MiB"),
       process(1, "13434", "M+C", "python", "18440MiB"), process(1, "13435", "M+C", "python", "18440MiB"),
       process(2, "2210", "G", "/usr/lib/xorg/Xorg", "23MiB")}));
  CHECK(messages(run_rule("gpu-idle", m)) ==
        std::vector<std::string>{
            "warning: host unknown: 1 of 3 GPUs idle (GPU 2: no compute process, 0 % utilisation in 1 "
            "sample) while 2 work: fewer ranks than GPUs, or a rank that exited; start one rank per "
            "GPU (check --nproc_per_node and CUDA_VISIBLE_DEVICES)"});
}
