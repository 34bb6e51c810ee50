#include <doctest/doctest.h>

#include <fstream>

#include "checks/check_fixture.h"
#include "checks/gpu/process_spans_gpus_fixture.h"

using namespace nd;
using namespace nd::smi;

TEST_CASE("gpu-shared: two ranks on GPU 0 of a pdsh-named host") {
  auto m = model_of(
      on_host("gpu07", table({gpu(0, 77820, 97), gpu(1, 38922, 98), gpu(2, 1, 0)},
                             {process(0, "4242", "C", kPy, "38912MiB"), process(0, "4311", "C", kPy, "1228MiB"),
                              process(1, "4243", "C", kPy, "38912MiB")})));
  auto found = run_rule("gpu-shared", m);
  CHECK(messages(found) ==
        std::vector<std::string>{"warning: gpu07 GPU 0: 2 compute processes share it (pid 4242 38.0 GiB, pid 4311 1.2 "
                                 "GiB): ranks compete for SMs and memory; run one process per GPU (check "
                                 "CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].hosts == std::vector<std::string>{"gpu07"});
  REQUIRE(found[0].evidence.size() == 2);
  CHECK(found[0].evidence[0].line == 27);
  CHECK(found[0].evidence[0].text.find("4242") != std::string::npos);
  CHECK(found[0].evidence[1].text.find("4311") != std::string::npos);
}

TEST_CASE("gpu-shared: an unnamed host, the biggest first, more than four summarised") {
  auto m = model_of(table({gpu(0, 60000, 99)},
                          {process(0, "501", "C", "python", "2000MiB"), process(0, "502", "C", "python", "30000MiB"),
                           process(0, "503", "C", "python", "2000MiB"), process(0, "504", "C", "python", "2000MiB"),
                           process(0, "505", "C+G", "python", "2000MiB"), process(0, "506", "C", "python", "512MiB")}));
  CHECK(messages(run_rule("gpu-shared", m)) ==
        std::vector<std::string>{"warning: host unknown GPU 0: 6 compute processes share it (pid 502 29.3 GiB, pid "
                                 "501 2.0 GiB, pid 503 2.0 GiB, pid 504 2.0 GiB and 2 more): ranks compete for SMs "
                                 "and memory; run one process per GPU (check CUDA_VISIBLE_DEVICES / LOCAL_RANK "
                                 "mapping)"});
}

TEST_CASE("gpu-shared: a desktop compositor that also touches CUDA is not a second rank") {
  auto m = model_of(table({gpu(1, 30900, 97)}, {process(1, "2210", "C", "/app/llama-server", "30548MiB"),
                                                process(1, "1873", "C+G", "/usr/bin/kwin_wayland", "14MiB")}));
  CHECK(run_rule("gpu-shared", m).empty());
  auto two_ranks = model_of(table({gpu(1, 30900, 97)}, {process(1, "2210", "C", "python", "15000MiB"),
                                                        process(1, "2211", "C+G", "python", "15000MiB")}));
  CHECK(run_rule("gpu-shared", two_ranks).size() == 1);
}

TEST_CASE("gpu-shared: --query-compute-apps rows that name no GPU are the GPU's on a host with one") {
  std::vector<std::string> lines{"utilization.gpu [%], memory.used [MiB], memory.total [MiB]", "95 %, 14745 MiB, 24564 MiB",
                                 "---", "pid, process_name, used_gpu_memory [MiB]", "1580, python, 7340 MiB",
                                 "1597, python, 7394 MiB"};
  auto m = model_from_lines(lines);
  REQUIRE(m.gpu_side.gpus.size() == 1);
  REQUIRE(m.gpu_side.gpus[0].processes.size() == 2);
  CHECK(m.gpu_side.gpus[0].processes[1].pid == 1597u);
  CHECK(run_rule("gpu-shared", m).size() == 1);
  // The same from a paste in Markdown fences.
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/smi_csv/query-gpu-pasted-header-apps-no-gpu.txt");
  REQUIRE(in);
  std::vector<std::string> pasted;
  for (std::string line; std::getline(in, line);) pasted.push_back(line);
  auto desktop = model_from_lines(pasted);
  REQUIRE(desktop.gpu_side.gpus.size() == 1);
  CHECK(desktop.gpu_side.gpus[0].processes.size() == 2);
  // One GPU of a host whose other GPUs the input does not show (a table cut
  // after GPU 0, `-i 0`): rows that do not fit in its memory are not its.
  auto cut = lines;
  cut[1] = "95 %, 7340 MiB, 24564 MiB";
  auto one_of_several = model_from_lines(cut);
  REQUIRE(one_of_several.gpu_side.gpus.size() == 1);
  CHECK(one_of_several.gpu_side.gpus[0].processes.empty());
  // Two GPUs: the rows cannot be told apart, so they are on neither.
  lines.insert(lines.begin() + 2, "3 %, 4 MiB, 24564 MiB");
  auto two = model_from_lines(lines);
  REQUIRE(two.gpu_side.gpus.size() == 2);
  CHECK(two.gpu_side.gpus[0].processes.empty());
  CHECK(two.gpu_side.gpus[1].processes.empty());
}

TEST_CASE("gpu-shared: --query-compute-apps rows name the GPU by bus, with no type") {
  auto m = model_from({
      "$ nvidia-smi --query-gpu=index,pci.bus_id,utilization.gpu --format=csv",
      "index, pci.bus_id, utilization.gpu [%]",
      "0, 00000000:07:00.0, 100 %",
      "1, 00000000:0F:00.0, 100 %",
      "$ nvidia-smi --query-compute-apps=pid,process_name,gpu_bus_id,used_memory --format=csv",
      "pid, process_name, gpu_bus_id, used_gpu_memory [MiB]",
      "73110, python, 00000000:0F:00.0, 40211 MiB",
      "73111, python, 00000000:0F:00.0, 40209 MiB",
  });
  CHECK(messages(run_rule("gpu-shared", m)) ==
        std::vector<std::string>{"warning: host unknown GPU 1: 2 compute processes share it (pid 73110 39.3 GiB, pid "
                                 "73111 39.3 GiB): ranks compete for SMs and memory; run one process per GPU (check "
                                 "CUDA_VISIBLE_DEVICES / LOCAL_RANK mapping)"});
}

TEST_CASE("gpu-shared: clients of an MPS server are a note") {
  auto m =
      model_of(on_host("gpu07", table({gpu(0, 36910, 99)}, {process(0, "13390", "C", "nvidia-cuda-mps-server", "30MiB"),
                                                            process(0, "13432", "M+C", "python", "18440MiB"),
                                                            process(0, "13433", "M+C", "python", "18441MiB")})));
  auto found = run_rule("gpu-shared", m);
  CHECK(messages(found) == std::vector<std::string>{
                               "info: gpu07 GPU 0: 2 compute processes share it through MPS (pid 13433 18.0 GiB, pid "
                               "13432 18.0 GiB): sharing is deliberate; nothing to do if the job meant to run several "
                               "processes per GPU"});
}

TEST_CASE("gpu-shared: MPS on several GPUs of a host is one note") {
  std::vector<std::string> rows;
  for (int g = 0; g < 3; ++g) {
    rows.push_back(process(g, "13390", "C", "nvidia-cuda-mps-server", "30MiB"));
    for (int c = 0; c < 2 + (g == 2); ++c)
      rows.push_back(process(g, std::to_string(13432 + 3 * g + c), "M+C", "python", "12000MiB"));
  }
  auto found = run_rule("gpu-shared", model_of(table({gpu(0, 24030, 99), gpu(1, 24030, 99), gpu(2, 36030, 99)}, rows)));
  CHECK(messages(found) ==
        std::vector<std::string>{
            "info: host unknown: 3 GPUs shared through MPS (GPU 0 2 processes, GPU 1 2 processes, GPU "
            "2 3 processes): sharing is deliberate; nothing to do if the job meant to run several "
            "processes per GPU"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].evidence.size() == 3);
}

TEST_CASE("gpu-shared: one process per GPU, graphics processes and a table without processes say nothing") {
  CHECK(run_rule("gpu-shared",
                 model_of(table({gpu(0, 71234, 97), gpu(1, 71235, 98)}, {process(0, "118400", "C", kPy, "71224MiB"),
                                                                         process(1, "118401", "C", kPy, "71225MiB")})))
            .empty());
  CHECK(run_rule("gpu-shared",
                 model_of(table({gpu(0, 38412, 96)}, {process(0, "2210", "G", "/usr/lib/xorg/Xorg", "23MiB"),
                                                      process(0, "2391", "G", "/usr/bin/gnome-shell", "4MiB"),
                                                      process(0, "41877", "C", "python3", "38379MiB")})))
            .empty());
  CHECK(run_rule("gpu-shared", model_of(table({gpu(0, 71234, 97)}, {}, true))).empty());
  CHECK(run_rule("gpu-shared", model_of(table({gpu(0, 4, 0)}, {}))).empty());
}

TEST_CASE("gpu-shared: another rank's stray context is left to process-spans-gpus") {
  auto m = model_of(table({gpu(0, 70000, 97), gpu(1, 69000, 98)},
                          {process(0, "118400", "C", kPy, "68801MiB"), process(0, "118401", "C", kPy, "514MiB"),
                           process(1, "118401", "C", kPy, "68811MiB")}));
  CHECK(run_rule("gpu-shared", m).empty());
  CHECK(run_rule("process-spans-gpus", m).size() == 1);
}

TEST_CASE("gpu-shared: processes without a memory figure or pid, and MIG instances, say nothing") {
  // Windows (WDDM) lists every desktop application as C+G, memory N/A.
  CHECK(run_rule("gpu-shared",
                 model_of(table({gpu(0, 9210, 41)}, {process(0, "1388", "C+G", "C:\\Windows\\explorer.exe", "N/A"),
                                                     process(0, "15112", "C", "python.exe", "N/A")})))
            .empty());
  CHECK(run_rule("gpu-shared", model_of(table({gpu(0, 9210, 41)}, {process(0, "N/A", "C", "python", "4000MiB"),
                                                                   process(0, "N/A", "C", "python", "4000MiB")})))
            .empty());
  auto mig = model_from({
      "+-----------------------------------------------------------------------------+",
      "| Processes:                                                                  |",
      "|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |",
      "|        ID   ID                                                   Usage      |",
      "|=============================================================================|",
      "|    0   1    0       51190      C   python                           9845MiB |",
      "|    0   2    0       51304      C   python                           9844MiB |",
      "+-----------------------------------------------------------------------------+",
  });
  CHECK(run_rule("gpu-shared", mig).empty());
}
