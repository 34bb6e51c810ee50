#include "parsers/gpu/smi_csv.h"

#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace nd;

namespace {

struct Fed {
  GpuRecords out;
  std::vector<uint64_t> claimed;
};

Fed feed(const std::vector<std::string>& lines) {
  Fed f;
  SmiCsvReader r(f.out);
  uint64_t n = 0;
  for (const std::string& l : lines) {
    if (r.take(l, ++n)) f.claimed.push_back(n);
  }
  r.finish();
  return f;
}

std::vector<std::string> fixture(const std::string& name) {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/smi_csv/" + name);
  REQUIRE(in.good());
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace

TEST_CASE("--query-gpu with a header and units") {
  Fed f = feed(fixture("query-gpu-units.txt"));
  REQUIRE(f.out.samples.size() == 4);
  const GpuSample& g = f.out.samples[2];
  CHECK(g.from == SideKind::SmiCsv);
  CHECK(g.line == 5);
  CHECK(g.index == 2u);
  CHECK(g.name == "NVIDIA A100-SXM4-80GB");
  CHECK(g.bus_id == "00000000:47:00.0");
  CHECK(g.util_pct == 0.0);
  CHECK(g.mem_used_mib == 78101.0);
  CHECK(g.mem_total_mib == 81920.0);
  CHECK(g.power_w == doctest::Approx(88.15));
  CHECK(g.power_limit_w == 400.0);
  CHECK(g.temp_c == 44.0);
  CHECK(g.perf_state == "P0");
  CHECK(g.time.empty());
  CHECK(f.out.processes.empty());
  REQUIRE(f.out.kinds.size() == 1);
  CHECK(f.out.kinds[0] == SideKind::SmiCsv);
  CHECK(f.claimed == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("-l 5 in the background: the header once, rows among training lines") {
  Fed f = feed(fixture("query-gpu-loop-background.txt"));
  REQUIRE(f.out.samples.size() == 6);
  CHECK(f.out.samples[0].time == "2024/06/03 10:00:00.118");
  CHECK(f.out.samples[0].mem_used_mib == 3.0);
  CHECK(f.out.samples[3].index == 1u);
  CHECK(f.out.samples[3].line == 9);
  CHECK(f.out.samples[3].util_pct == 96.0);
  CHECK(f.out.samples[3].power_w == doctest::Approx(379.10));
  CHECK(f.out.samples[5].util_pct == 41.0);
  // The command line, the header and the rows; no training line.
  CHECK(f.claimed == std::vector<uint64_t>{1, 3, 4, 5, 8, 9, 12, 13});
}

TEST_CASE("noheader,nounits: the columns come from the command line") {
  Fed f = feed(fixture("query-gpu-noheader-nounits.txt"));
  REQUIRE(f.out.samples.size() == 4);
  CHECK(f.out.samples[2].index == 0u);
  CHECK(f.out.samples[2].util_pct == 88.0);
  CHECK(f.out.samples[2].mem_used_mib == 30513.0);
  CHECK(f.out.samples[2].mem_total_mib == 40960.0);
  CHECK(f.claimed == std::vector<uint64_t>{1, 2, 3, 4, 5});
  REQUIRE(f.out.kinds.size() == 1);
}

TEST_CASE("a csv command whose header the paste dropped: the rows take the command's columns") {
  Fed f = feed({
      "$ nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv",
      "",
      "0, Tesla K40m, 10 MiB, 11441 MiB",
      "1, Tesla K40m, 9871 MiB, 11441 MiB",
  });
  REQUIRE(f.out.samples.size() == 2);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].name == "Tesla K40m");
  CHECK(f.out.samples[1].mem_used_mib == 9871.0);
  CHECK(f.out.samples[1].mem_total_mib == 11441.0);
  CHECK(f.claimed == std::vector<uint64_t>{1, 3, 4});
  // Its header, when there, names the columns.
  Fed headed = feed({
      "nvidia-smi --query-gpu=index,name --format=csv",
      "memory.used [MiB], index",
      "10 MiB, 1",
  });
  REQUIRE(headed.out.samples.size() == 1);
  CHECK(headed.out.samples[0].index == 1u);
  CHECK(headed.out.samples[0].mem_used_mib == 10.0);
}

TEST_CASE("R535 fields: instant and average power, enforced limit, SM clocks, [N/A], [Not Supported]") {
  Fed f = feed(fixture("query-gpu-na-r535.txt"));
  REQUIRE(f.out.samples.size() == 2);
  const GpuSample& a = f.out.samples[0];
  CHECK(a.uuid == "GPU-3f1c2a7e-91b4-5d0e-8a62-c4d7e1f09b35");
  CHECK(a.driver_version == "535.129.03");
  CHECK(a.util_pct == 64.0);
  CHECK(a.mem_bw_util_pct == 38.0);
  CHECK(a.power_w == doctest::Approx(512.33));
  CHECK(a.power_limit_w == 700.0);
  CHECK(a.sm_clock_mhz == 1980.0);
  CHECK(a.max_sm_clock_mhz == 1980.0);
  const GpuSample& b = f.out.samples[1];
  CHECK_FALSE(b.util_pct);
  CHECK_FALSE(b.mem_bw_util_pct);
  CHECK(b.power_w == doctest::Approx(498.70));  // the average stands in
  CHECK(b.sm_clock_mhz == 1755.0);
}

TEST_CASE("R390 GeForce: [Not Supported] utilization and power, temperature without a unit") {
  Fed f = feed(fixture("r390-geforce-not-supported.txt"));
  REQUIRE(f.out.samples.size() == 1);
  const GpuSample& g = f.out.samples[0];
  CHECK(g.name == "GeForce GT 730");
  CHECK(g.temp_c == 43.0);
  CHECK_FALSE(g.util_pct);
  CHECK_FALSE(g.power_w);
  CHECK(g.mem_used_mib == 187.0);
  CHECK(g.index == 0u);  // no index column: the only row of its query is GPU 0
}

TEST_CASE("--query-compute-apps: used_memory is printed as used_gpu_memory") {
  Fed f = feed(fixture("query-compute-apps.txt"));
  CHECK(f.out.samples.empty());
  REQUIRE(f.out.processes.size() == 3);
  const GpuProcess& p = f.out.processes[1];
  CHECK(p.from == SideKind::SmiCsv);
  CHECK(p.pid == 31878u);
  CHECK(p.name == "/opt/conda/bin/python3");
  CHECK(p.mem_mib == 40209.0);
  CHECK(p.gpu_bus_id == "00000000:2A:00.0");
  CHECK(p.gpu_uuid == "GPU-5e7b1f3a-8c90-4d26-a1e4-93b0d6c2f718");
  CHECK_FALSE(p.gpu_index);
  CHECK(p.type.empty());
  CHECK_FALSE(f.out.processes[2].mem_mib);
}

TEST_CASE("watch: the title line names the columns of each refresh") {
  Fed f = feed(fixture("watch-noheader.txt"));
  REQUIRE(f.out.samples.size() == 4);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].mem_used_mib == 70108.0);
  CHECK(f.out.samples[2].util_pct == 12.0);
  CHECK(f.claimed == std::vector<uint64_t>{1, 3, 4, 5, 7, 8});
}

TEST_CASE("noheader rows without their command line are not claimed") {
  Fed f = feed(fixture("noheader-no-command.txt"));
  CHECK(f.claimed.empty());
  CHECK(f.out.samples.empty());
  CHECK(f.out.kinds.empty());
}

TEST_CASE("a header is known by nvidia-smi's field names, never by commas") {
  GpuRecords out;
  SmiCsvReader r(out);
  uint64_t n = 0;
  for (const char* l : {
           "index, value",
           "a, b, c",
           "name, age, city",
           "loss, acc, lr",
           "step, loss [nats], lr",
           "index",
           "pid",
           "epoch 1, loss 0.5, acc 98 %",
           "0, 87, 30511, 40960",
           "gpu_bus_id, retired_pages.address, retired_pages.cause",
           "gpu_name, pid, gpu_utilization [%], mem_utilization [%], max_memory_usage [MiB], time [ms]",
           "| index | name | memory.used |",
           "print('nvidia-smi --query-gpu=index --format=csv,noheader')",
           "",
       }) {
    CHECK_FALSE(r.take(l, ++n));
    CHECK_FALSE(r.in_block());
  }
  CHECK(out.kinds.empty());
}

TEST_CASE("units other than MiB are read; a single dotted column opens too") {
  GpuRecords out;
  SmiCsvReader r(out);
  CHECK(r.take("memory.used [GiB], memory.total [GiB]", 1));
  CHECK(r.take("1.5, 80", 2));
  CHECK(r.take("2048 MiB, 81920 MiB", 3));
  CHECK(r.take("memory.used [MiB]", 4));
  CHECK(r.take("512 KiB", 5));
  r.finish();  // a query pasted without its command line is kept once it ends
  REQUIRE(out.samples.size() == 3);
  CHECK(out.samples[0].mem_used_mib == 1536.0);
  CHECK(out.samples[0].mem_total_mib == 81920.0);
  CHECK(out.samples[1].mem_used_mib == 2048.0);
  CHECK(out.samples[2].mem_used_mib == 0.5);
}

TEST_CASE("memory.free without memory.used gives the used memory") {
  GpuRecords out;
  SmiCsvReader r(out);
  CHECK(r.take("index, memory.total [MiB], memory.free [MiB]", 1));
  CHECK(r.take("0, 81920 MiB, 1920 MiB", 2));
  REQUIRE(out.samples.size() == 1);
  CHECK(out.samples[0].mem_used_mib == 80000.0);
}

TEST_CASE("away from the header, a bare row must prove itself") {
  GpuRecords out;
  SmiCsvReader r(out);
  CHECK(r.take("name, memory.used [MiB]", 1));
  CHECK(r.take("NVIDIA L4, 1200", 2));          // next to the header
  CHECK_FALSE(r.take("training started", 3));
  CHECK_FALSE(r.take("Saving checkpoint, 1234", 4));  // a name and a bare number, away from it
  CHECK(r.take("NVIDIA L4, 1300 MiB", 5));      // with nvidia-smi's unit
  CHECK_FALSE(r.take("NVIDIA L4, 12 GB/s", 6)); // a unit that is not memory
  CHECK(r.in_block());
  REQUIRE(out.samples.size() == 2);
  CHECK(out.samples[1].mem_used_mib == 1300.0);
}

TEST_CASE("command lines: aliases, quotes, paths, prompts; other mentions are not commands") {
  GpuRecords out;
  SmiCsvReader r(out);
  CHECK(r.take("(venv) user@host:~/proj$ /usr/bin/nvidia-smi --query-compute-apps=\"pid,name,used_memory\" "
               "--format=csv,noheader,nounits -l 1",
               1));
  CHECK(r.take("4242, python, 1200", 2));
  REQUIRE(out.processes.size() == 1);
  CHECK(out.processes[0].pid == 4242u);
  CHECK(out.processes[0].name == "python");
  CHECK(out.processes[0].mem_mib == 1200.0);

  GpuRecords out2;
  SmiCsvReader r2(out2);
  CHECK_FALSE(r2.take("subprocess.check_output('nvidia-smi --query-gpu=index --format=csv,noheader')", 1));
  CHECK_FALSE(r2.take("INFO running nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader", 2));
  CHECK_FALSE(r2.take("0, 99 %", 3));
  CHECK(out2.samples.empty());

  GpuRecords out3;
  SmiCsvReader r3(out3);
  CHECK(r3.take("$ nvidia-smi --query-gpu=gpu_name,gpu_bus_id,clocks.sm --format=csv,noheader", 1));
  for (uint64_t n = 2; n < 10; ++n) CHECK_FALSE(r3.take("unrelated output", n));
  CHECK_FALSE(r3.in_block());
  CHECK_FALSE(r3.take("NVIDIA H100 80GB HBM3, 00000000:18:00.0, 1980 MHz", 10));  // too far from it
  CHECK(out3.samples.empty());
  CHECK(r3.take("$ nvidia-smi --query-gpu=gpu_name,gpu_bus_id,clocks.sm --format=csv,noheader", 11));
  CHECK(r3.take("NVIDIA H100 80GB HBM3, 00000000:18:00.0, 1980 MHz", 12));
  REQUIRE(out3.samples.size() == 1);
  CHECK(out3.samples[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(out3.samples[0].bus_id == "00000000:18:00.0");
  CHECK(out3.samples[0].sm_clock_mhz == 1980.0);
}

TEST_CASE("--query-gpu without index, bus id or UUID: a row's place in its query is its GPU") {
  Fed f = feed(fixture("query-gpu-no-index.txt"));
  REQUIRE(f.out.samples.size() == 3);
  CHECK(f.out.samples[0].index == 0u);
  CHECK(f.out.samples[0].util_pct == 87.0);
  CHECK(f.out.samples[0].mem_used_mib == 20113.0);
  CHECK(f.out.samples[0].mem_total_mib == 24564.0);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].mem_used_mib == 412.0);
  // `-i 1`: the one row is GPU 1's.
  CHECK(f.out.samples[2].index == 1u);
  CHECK(f.out.samples[2].name == "NVIDIA GeForce RTX 4090");
  CHECK(f.out.samples[2].mem_used_mib == 415.0);
  CHECK(f.claimed == std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("--query-gpu without an identity, looped with timestamps: the place counts within one timestamp") {
  Fed f = feed(fixture("query-gpu-no-index-timestamp-loop.txt"));
  REQUIRE(f.out.samples.size() == 6);
  std::vector<uint32_t> index;
  for (const GpuSample& g : f.out.samples) index.push_back(g.index.value_or(99));
  CHECK(index == std::vector<uint32_t>{0, 1, 0, 1, 0, 1});
  CHECK(f.out.samples[3].util_pct == 12.0);
  CHECK(f.out.samples[3].power_w == doctest::Approx(141.06));
  CHECK(f.out.samples[3].time == "2025/02/11 09:14:04.332");
}

TEST_CASE("--query-gpu without an identity, looped without timestamps: no GPU can be told") {
  Fed f = feed(fixture("query-gpu-no-index-loop.txt"));
  REQUIRE(f.out.samples.size() == 3);
  for (const GpuSample& g : f.out.samples) CHECK_FALSE(g.index);
}

TEST_CASE("rows without an identity: a run broken by other lines starts a query again; -i by bus id names none") {
  Fed f = feed({"$ nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv",
                "utilization.gpu [%], memory.used [MiB]", "10 %, 100 MiB", "step 1", "20 %, 200 MiB", "30 %, 300 MiB",
                "$ nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv --id=00000000:3B:00.0",
                "utilization.gpu [%], memory.used [MiB]", "40 %, 400 MiB"});
  REQUIRE(f.out.samples.size() == 4);
  CHECK(f.out.samples[0].index == 0u);
  CHECK(f.out.samples[1].index == 0u);
  CHECK(f.out.samples[2].index == 1u);
  CHECK_FALSE(f.out.samples[3].index);
}

TEST_CASE("rows without an identity and without their command line may be a loop: no GPU is told") {
  std::vector<std::string> lines{"utilization.gpu [%], memory.used [MiB]"};
  for (int i = 0; i < 100; ++i) lines.push_back(fmt::format("{} %, 61204 MiB", 90 + i % 10));
  Fed f = feed(lines);
  REQUIRE(f.out.samples.size() == 100);
  for (const GpuSample& g : f.out.samples) CHECK_FALSE(g.index);
}

TEST_CASE("rows without an identity after a header whose command line was not kept: a pasted query") {
  Fed f = feed({"name, fan.speed [%], memory.total [MiB], memory.used [MiB], utilization.gpu [%], power.draw [W]",
                "GeForce GTX 1080 Ti, 29 %, 11175 MiB, 2856 MiB, 36 %, 106.56 W",
                "GeForce GTX 1060 6GB, 29 %, 6078 MiB, 4 MiB, 0 %, 5.68 W"});
  REQUIRE(f.out.samples.size() == 2);
  CHECK(f.out.samples[0].index == 0u);
  CHECK(f.out.samples[0].mem_used_mib == 2856.0);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].name == "GeForce GTX 1060 6GB");
  CHECK(f.out.samples[1].power_w == doctest::Approx(5.68));

  // A loop over GPUs of different models: the first model again begins the next query.
  std::vector<std::string> loop{"name, utilization.gpu [%]"};
  for (int i = 0; i < 40; ++i) {
    loop.push_back(fmt::format("NVIDIA A100-SXM4-40GB, {} %", i));
    loop.push_back(fmt::format("NVIDIA A10, {} %", i));
  }
  f = feed(loop);
  REQUIRE(f.out.samples.size() == 80);
  for (size_t i = 0; i < f.out.samples.size(); ++i) CHECK(f.out.samples[i].index == static_cast<uint32_t>(i % 2));

  // Eight rows of one model, then the paste goes on: one query of eight GPUs.
  std::vector<std::string> eight{"utilization.gpu [%], memory.used [MiB], name"};
  for (int i = 0; i < 8; ++i) eight.push_back(fmt::format("{} %, 61204 MiB, NVIDIA H100 80GB HBM3", 90 + i));
  eight.push_back("Epoch 1: loss 0.31");
  f = feed(eight);
  REQUIRE(f.out.samples.size() == 8);
  CHECK(f.out.samples[7].index == 7u);
  // Nine rows of one model: a loop whose queries cannot be told, no GPU.
  eight.insert(eight.begin() + 1, "91 %, 61204 MiB, NVIDIA H100 80GB HBM3");
  f = feed(eight);
  REQUIRE(f.out.samples.size() == 9);
  for (const GpuSample& g : f.out.samples) CHECK_FALSE(g.index);
}

TEST_CASE("fixture: a query and a compute-apps list pasted without their commands") {
  Fed f = feed(fixture("query-gpu-pasted-header-apps-no-gpu.txt"));
  REQUIRE(f.out.samples.size() == 1);
  CHECK(f.out.samples[0].index == 0u);
  CHECK(f.out.samples[0].name == "NVIDIA GeForce RTX 3060");
  CHECK(f.out.samples[0].mem_used_mib == 11021.0);
  CHECK(f.out.samples[0].power_w == doctest::Approx(158.4));
  REQUIRE(f.out.processes.size() == 2);
  CHECK_FALSE(f.out.processes[0].gpu_index);
  CHECK(f.out.processes[1].mem_mib == 482.0);
}

TEST_CASE("rows without an identity, timed: one query's rows differ by milliseconds, the next is a loop interval on") {
  Fed f = feed({"timestamp, utilization.gpu [%]", "2025/02/11 09:14:03.118, 87 %", "2025/02/11 09:14:03.121, 12 %",
                "2025/02/11 09:14:04.330, 88 %", "2025/02/11 09:14:04.332, 11 %"});
  std::vector<uint32_t> index;
  for (const GpuSample& g : f.out.samples) index.push_back(g.index.value_or(99));
  CHECK(index == std::vector<uint32_t>{0, 1, 0, 1});
}

TEST_CASE("--query-compute-apps rows keep no GPU index of their own making") {
  Fed f = feed({"pid, process_name, used_gpu_memory [MiB]", "1580, /usr/bin/python3, 340 MiB"});
  REQUIRE(f.out.processes.size() == 1);
  CHECK_FALSE(f.out.processes[0].gpu_index);
}
