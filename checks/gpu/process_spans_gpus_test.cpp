#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/gpu/process_spans_gpus_fixture.h"

using namespace nd;
using namespace nd::smi;

namespace {

// Ranks 0..n-1 on GPUs 0..n-1, and ranks 1..strays each with a context on GPU 0.
std::vector<std::string> touched_gpu0(int n, int strays) {
  std::vector<std::vector<std::string>> gpus;
  for (int i = 0; i < n; ++i) gpus.push_back(gpu(i, 68801 + (i == 0 ? 514 * strays : 0), 97));
  std::vector<std::string> rows = {process(0, "118400", "C", kPy, "68801MiB")};
  for (int r = 1; r <= strays; ++r) rows.push_back(process(0, std::to_string(118400 + r), "C", kPy, "514MiB"));
  for (int i = 1; i < n; ++i) rows.push_back(process(i, std::to_string(118400 + i), "C", kPy, "68811MiB"));
  return table(gpus, rows);
}

}  // namespace

TEST_CASE("process-spans-gpus: one rank also holds a context on GPU 0") {
  auto m = model_of(on_host("gpu07", touched_gpu0(4, 1)));
  auto found = run_rule("process-spans-gpus", m);
  CHECK(messages(found) == std::vector<std::string>{
                               "warning: gpu07: pid 118401 also holds memory on GPU 0, another rank's GPU (GPU 1 67.2 "
                               "GiB + GPU 0 514 MiB): it created a CUDA context before choosing its GPU; call "
                               "torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any "
                               "CUDA work"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu07"});
  REQUIRE(found[0].evidence.size() == 1);
  CHECK(found[0].evidence[0].text.find("118401") != std::string::npos);
  CHECK(found[0].evidence[0].text.find("514MiB") != std::string::npos);
}

TEST_CASE("process-spans-gpus: seven ranks on one host are one finding, four of them named") {
  auto found = run_rule("process-spans-gpus", model_of(touched_gpu0(8, 7)));
  CHECK(messages(found) == std::vector<std::string>{
                               "warning: host unknown: 7 processes also hold memory on GPU 0, another rank's GPU (pid "
                               "118401 GPU 1 67.2 GiB + GPU 0 514 MiB, pid 118402 GPU 2 67.2 GiB + GPU 0 514 MiB, pid "
                               "118403 GPU 3 67.2 GiB + GPU 0 514 MiB, pid 118404 GPU 4 67.2 GiB + GPU 0 514 MiB and 3 "
                               "more; 3.5 GiB in all): they created CUDA contexts before choosing their GPU; call "
                               "torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any "
                               "CUDA work"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].evidence.size() == 3);
}

TEST_CASE("process-spans-gpus: --query-compute-apps joined to --query-gpu by bus") {
  auto m = model_from({
      "$ nvidia-smi --query-gpu=index,pci.bus_id,utilization.gpu,memory.used --format=csv",
      "index, pci.bus_id, utilization.gpu [%], memory.used [MiB]",
      "0, 00000000:07:00.0, 100 %, 76351 MiB",
      "1, 00000000:0F:00.0, 100 %, 75871 MiB",
      "$ nvidia-smi --query-compute-apps=pid,gpu_bus_id,used_memory --format=csv",
      "pid, gpu_bus_id, used_gpu_memory [MiB]",
      "73110, 00000000:07:00.0, 75860 MiB",
      "73111, 00000000:07:00.0, 491 MiB",
      "73111, 00000000:0F:00.0, 75860 MiB",
  });
  CHECK(
      messages(run_rule("process-spans-gpus", m)) ==
      std::vector<std::string>{"warning: host unknown: pid 73111 also holds memory on GPU 0, another rank's GPU (GPU 1 "
                               "74.1 GiB + GPU 0 491 MiB): it created a CUDA context before choosing its GPU; call "
                               "torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any "
                               "CUDA work"});
}

TEST_CASE("process-spans-gpus: one process per GPU, or one process driving every GPU, says nothing") {
  CHECK(run_rule("process-spans-gpus", model_of(touched_gpu0(4, 0))).empty());
  // nccl-tests -g 4, JAX: one process, the same share of every GPU.
  CHECK(
      run_rule("process-spans-gpus", model_of(table({gpu(0, 17634, 99), gpu(1, 17634, 99)},
                                                    {process(0, "52210", "C", "./build/all_reduce_perf", "17624MiB"),
                                                     process(1, "52210", "C", "./build/all_reduce_perf", "17624MiB")})))
          .empty());
}

TEST_CASE("process-spans-gpus: the MPS server, a context on an unused GPU, unknown pid or memory say nothing") {
  CHECK(run_rule("process-spans-gpus", model_of(table({gpu(0, 36910, 99), gpu(1, 36910, 99)},
                                                      {process(0, "13390", "C", "nvidia-cuda-mps-server", "30MiB"),
                                                       process(0, "13432", "M+C", "python", "36880MiB"),
                                                       process(1, "13390", "C", "nvidia-cuda-mps-server", "30MiB"),
                                                       process(1, "13433", "M+C", "python", "36880MiB")})))
            .empty());
  // GPU 0 is nobody's own GPU: the context costs no rank anything.
  CHECK(run_rule("process-spans-gpus",
                 model_of(table({gpu(0, 514, 0), gpu(1, 68811, 97)}, {process(0, "118401", "C", kPy, "514MiB"),
                                                                      process(1, "118401", "C", kPy, "68811MiB")})))
            .empty());
  CHECK(run_rule("process-spans-gpus",
                 model_of(table({gpu(0, 70000, 97), gpu(1, 68811, 97)},
                                {process(0, "118400", "C", kPy, "68801MiB"), process(0, "118401", "C", kPy, "N/A"),
                                 process(1, "118401", "C", kPy, "N/A")})))
            .empty());
  CHECK(run_rule("process-spans-gpus",
                 model_of(table({gpu(0, 70000, 97), gpu(1, 68811, 97)},
                                {process(0, "118400", "C", kPy, "68801MiB"), process(0, "N/A", "C", kPy, "514MiB"),
                                 process(1, "N/A", "C", kPy, "68811MiB")})))
            .empty());
}
