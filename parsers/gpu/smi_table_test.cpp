#include "parsers/gpu/smi_table.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

using namespace nd;

namespace {

struct Fed {
  GpuRecords out;
  std::vector<uint64_t> claimed;  // line numbers the reader took
};

// Feeds `lines` as one stream, the way the caller does: the in-block reader
// first, every other line too.
Fed feed(const std::vector<std::string>& lines) {
  Fed f;
  SmiTableReader r(f.out);
  uint64_t n = 0;
  for (const std::string& l : lines) {
    if (r.take(l, ++n)) f.claimed.push_back(n);
  }
  r.finish();
  return f;
}

// A fixture's lines; `strip_host` drops a pdsh-style "host: " prefix, the
// caller's job for real streams.
std::vector<std::string> fixture(const std::string& name, bool strip_host = false) {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/smi_table/" + name);
  REQUIRE(in.good());
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (strip_host) {
      size_t colon = l.find(": ");
      if (colon != std::string::npos && l.find(' ') > colon) l.erase(0, colon + 2);
    }
    lines.push_back(l);
  }
  return lines;
}

bool has(const std::vector<uint64_t>& v, uint64_t n) {
  for (uint64_t x : v) {
    if (x == n) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("R352: 4-digit PCI domain, no CUDA version, N/A power on GeForce, Not Supported processes") {
  Fed f = feed(fixture("r352-kepler-geforce.txt"));
  REQUIRE(f.out.samples.size() == 2);
  const GpuSample& g = f.out.samples[0];
  CHECK(g.from == SideKind::SmiTable);
  CHECK(g.line == 9);
  CHECK(g.index == 0u);
  CHECK(g.bus_id == "0000:02:00.0");
  CHECK(g.name == "GeForce GTX 780");
  CHECK(g.time == "Wed Jun  8 09:14:51 2016");
  CHECK(g.driver_version == "352.93");
  CHECK(g.cuda_version.empty());
  CHECK_FALSE(g.util_pct);
  CHECK_FALSE(g.power_w);
  CHECK_FALSE(g.power_limit_w);
  CHECK(g.temp_c == 41.0);
  CHECK(g.perf_state == "P8");
  CHECK(g.mem_used_mib == 212.0);
  CHECK(g.mem_total_mib == 3071.0);
  const GpuSample& k = f.out.samples[1];
  CHECK(k.name == "Tesla K40c");
  CHECK(k.power_w == 21.0);
  CHECK(k.power_limit_w == 235.0);
  CHECK(k.util_pct == 0.0);
  REQUIRE(f.out.processes.size() == 1);
  const GpuProcess& p = f.out.processes[0];
  CHECK(p.gpu_index == 1u);
  CHECK(p.pid == 20417u);
  CHECK(p.type == "C");
  CHECK(p.name == "./cuda_app");
  CHECK(p.mem_mib == 21.0);
  REQUIRE(f.out.kinds.size() == 1);
  CHECK(f.out.kinds[0] == SideKind::SmiTable);
  // The prompt and the date are not claimed; the version box is.
  CHECK_FALSE(has(f.claimed, 1));
  CHECK_FALSE(has(f.claimed, 2));
  CHECK(has(f.claimed, 4));
  CHECK(has(f.claimed, 22));  // the frame that ends the table
  CHECK_FALSE(has(f.claimed, 23));
}

TEST_CASE("R418 (pre-MIG R4xx): cut names and Processes without GI/CI") {
  Fed f = feed(fixture("r418-v100-4gpu.txt"));
  REQUIRE(f.out.samples.size() == 4);
  const GpuSample& g = f.out.samples[3];
  CHECK(g.index == 3u);
  CHECK(g.name == "Tesla V100-SXM2...");
  CHECK(g.bus_id == "00000000:0B:00.0");
  CHECK(g.driver_version == "418.87.01");
  CHECK(g.cuda_version == "10.1");
  CHECK(g.util_pct == 92.0);
  CHECK(g.power_w == 166.0);
  CHECK(g.power_limit_w == 300.0);
  CHECK(g.mem_used_mib == 13740.0);
  CHECK(g.mem_total_mib == 16130.0);
  CHECK(g.temp_c == 44.0);
  CHECK(g.perf_state == "P0");
  REQUIRE(f.out.processes.size() == 4);
  CHECK(f.out.processes[2].gpu_index == 2u);
  CHECK(f.out.processes[2].pid == 30213u);
  CHECK(f.out.processes[2].type == "C");
  CHECK(f.out.processes[2].name == "/opt/conda/bin/python");
  CHECK(f.out.processes[2].mem_mib == 13731.0);
}

TEST_CASE("R470 (R450-R525 layout): MIG M. row and GI/CI columns, in a markdown fence") {
  auto lines = fixture("r470-a100-mig-m.txt");
  Fed f = feed(lines);
  REQUIRE(f.out.samples.size() == 2);
  CHECK(f.out.samples[1].name == "NVIDIA A100-SXM...");
  CHECK(f.out.samples[1].bus_id == "00000000:0F:00.0");
  CHECK(f.out.samples[1].util_pct == 25.0);
  CHECK(f.out.samples[1].mem_used_mib == 3285.0);
  REQUIRE(f.out.processes.size() == 3);
  CHECK(f.out.processes[0].type == "G");
  CHECK(f.out.processes[0].name == "/usr/lib/xorg/Xorg");
  CHECK(f.out.processes[0].mem_mib == 4.0);
  CHECK(f.out.processes[1].pid == 41877u);
  CHECK(f.out.processes[1].name == "...na/venvs/train/bin/python3");
  CHECK(f.out.processes[2].gpu_index == 1u);
  CHECK_FALSE(has(f.claimed, 1));             // the opening fence
  CHECK_FALSE(has(f.claimed, lines.size()));  // the closing one
}

TEST_CASE("R470 with MIG enabled: the MIG devices box is not read as GPUs") {
  Fed f = feed(fixture("r470-a100-mig-enabled.txt"));
  REQUIRE(f.out.samples.size() == 1);
  const GpuSample& g = f.out.samples[0];
  CHECK(g.index == 0u);
  CHECK_FALSE(g.util_pct);  // N/A under MIG
  CHECK(g.mem_used_mib == 20.0);
  CHECK(g.mem_total_mib == 40536.0);
  REQUIRE(f.out.processes.size() == 1);
  CHECK(f.out.processes[0].gpu_index == 0u);
  CHECK(f.out.processes[0].pid == 51190u);
  CHECK(f.out.processes[0].name == "python");
  CHECK(f.out.processes[0].mem_mib == 9845.0);
}

TEST_CASE("R535 (widened first column): No running processes found") {
  Fed f = feed(fixture("r535-h100-no-processes.txt"));
  REQUIRE(f.out.samples.size() == 2);
  const GpuSample& g = f.out.samples[1];
  CHECK(g.name == "NVIDIA H100 80GB HBM3");
  CHECK(g.bus_id == "00000000:2A:00.0");
  CHECK(g.power_w == 70.0);
  CHECK(g.power_limit_w == 700.0);
  CHECK(g.mem_used_mib == 4.0);
  CHECK(g.mem_total_mib == 81559.0);
  CHECK(g.time == "Tue Oct 10 14:31:09 2023");
  CHECK(g.cuda_version == "12.2");
  CHECK(f.out.processes.empty());
}

TEST_CASE("R550 (24-wide Bus-Id): eight GPUs, process names cut from the left") {
  Fed f = feed(fixture("r550-h100-8gpu.txt"));
  REQUIRE(f.out.samples.size() == 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(f.out.samples[i].index == i);
  CHECK(f.out.samples[7].bus_id == "00000000:DB:00.0");
  CHECK(f.out.samples[7].power_w == 631.0);
  CHECK(f.out.samples[7].util_pct == 98.0);
  CHECK(f.out.samples[7].mem_used_mib == 71241.0);
  REQUIRE(f.out.processes.size() == 8);
  CHECK(f.out.processes[5].gpu_index == 5u);
  CHECK(f.out.processes[5].pid == 118405u);
  CHECK(f.out.processes[5].name.starts_with("..."));
  CHECK(f.out.processes[5].name.ends_with("/bin/python3.10"));
  CHECK(f.out.processes[5].mem_mib == 71229.0);
}

TEST_CASE("R580: + frame under the header, wide PID column, a fan at 100% against the border") {
  Fed f = feed(fixture("r580-geforce-wide-pid.txt"));
  REQUIRE(f.out.samples.size() == 2);
  const GpuSample& g = f.out.samples[0];
  CHECK(g.name == "NVIDIA GeForce RTX 5090 ...");
  CHECK(g.temp_c == 71.0);
  CHECK(g.perf_state == "P2");
  CHECK(g.power_w == 148.0);
  CHECK(g.util_pct == 99.0);
  CHECK(g.driver_version == "580.82.09");
  CHECK(g.cuda_version == "13.0");
  CHECK(f.out.samples[1].util_pct == 100.0);
  REQUIRE(f.out.processes.size() == 4);
  CHECK(f.out.processes[1].name == "/usr/bin/gnome-shell");
  CHECK(f.out.processes[2].pid == 771204u);
  CHECK(f.out.processes[2].mem_mib == 22690.0);
}

TEST_CASE("R610: KMD Version and CUDA UMD Version in the header") {
  Fed f = feed(fixture("r610-kmd-version.txt"));
  REQUIRE(f.out.samples.size() == 1);
  CHECK(f.out.samples[0].driver_version == "610.43.03");
  CHECK(f.out.samples[0].cuda_version == "13.3");
  CHECK(f.out.samples[0].name == "NVIDIA L40S");
}

TEST_CASE("WSL2: the Windows driver's version, process memory N/A") {
  Fed f = feed(fixture("wsl-r535.txt"));
  REQUIRE(f.out.samples.size() == 1);
  CHECK(f.out.samples[0].driver_version == "537.13");
  CHECK(f.out.samples[0].util_pct == 3.0);
  REQUIRE(f.out.processes.size() == 2);
  CHECK(f.out.processes[0].pid == 23u);
  CHECK(f.out.processes[0].type == "G");
  CHECK(f.out.processes[0].name == "/Xwayland");
  CHECK_FALSE(f.out.processes[0].mem_mib);
}

TEST_CASE("Windows: WDDM in place of persistence, C+G processes, paths with spaces") {
  Fed f = feed(fixture("windows-r551-wddm.txt"));
  REQUIRE(f.out.samples.size() == 1);
  CHECK(f.out.samples[0].name == "NVIDIA GeForce RTX 3080 Ti");
  CHECK(f.out.samples[0].mem_used_mib == 9210.0);
  REQUIRE(f.out.processes.size() == 3);
  CHECK(f.out.processes[1].type == "C+G");
  CHECK(f.out.processes[1].name == "...s\\Mozilla Firefox\\firefox.exe");
  CHECK_FALSE(f.out.processes[1].mem_mib);
  CHECK(f.out.processes[2].type == "C");
}

TEST_CASE("A GPU gone bad: ERR! leaves its numbers absent") {
  Fed f = feed(fixture("r470-err-gpu-lost.txt"));
  REQUIRE(f.out.samples.size() == 2);
  const GpuSample& g = f.out.samples[1];
  CHECK(g.index == 1u);
  CHECK(g.bus_id == "00000000:1D:00.0");
  CHECK_FALSE(g.temp_c);
  CHECK_FALSE(g.power_w);
  CHECK_FALSE(g.power_limit_w);
  CHECK_FALSE(g.util_pct);
  CHECK(g.perf_state.empty());
  CHECK(g.mem_used_mib == 30911.0);
  CHECK(f.out.processes.size() == 2);
}

TEST_CASE("A loop: each table gives new samples, with its own date") {
  auto lines = fixture("loop-two-tables.txt");
  Fed f = feed(lines);
  REQUIRE(f.out.samples.size() == 4);
  CHECK(f.out.samples[0].time == "Mon Jun  3 10:00:00 2024");
  CHECK(f.out.samples[0].util_pct == 98.0);
  CHECK(f.out.samples[2].time == "Mon Jun  3 10:00:30 2024");
  CHECK(f.out.samples[2].index == 0u);
  CHECK(f.out.samples[2].util_pct == 12.0);
  CHECK(f.out.samples[3].util_pct == 0.0);
  CHECK(f.out.processes.size() == 4);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("[2024")) CHECK_FALSE(has(f.claimed, i + 1));
  }
}

TEST_CASE("pdsh: a table from each node, the host prefix stripped as the caller does") {
  Fed f = feed(fixture("pdsh-two-nodes.txt", true));
  REQUIRE(f.out.samples.size() == 4);
  CHECK(f.out.samples[2].bus_id == "00000000:47:00.0");
  CHECK(f.out.samples[3].time == "Tue Mar  5 10:00:00 2024");
  CHECK(f.out.samples[3].driver_version == "525.85.12");
  CHECK(f.out.processes.empty());
}

TEST_CASE("A table cut by head: what was printed is kept, the next tool's table is not claimed") {
  auto lines = fixture("truncated-head.txt");
  Fed f = feed(lines);
  REQUIRE(f.out.samples.size() == 2);
  CHECK(f.out.samples[0].util_pct == 0.0);
  CHECK(f.out.samples[0].power_limit_w == 72.0);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].bus_id == "00000000:00:04.0");
  CHECK_FALSE(f.out.samples[1].mem_used_mib);
  for (size_t n = 15; n <= lines.size(); ++n) CHECK_FALSE(has(f.claimed, n));
}

TEST_CASE("lookalikes out of a table are not claimed") {
  GpuRecords out;
  SmiTableReader r(out);
  uint64_t n = 0;
  for (const char* l : {
           "0 1 2 3 4 5",
           "| GPU | Name | Memory |",
           "|-----|------|--------|",
           "| 0   | A100 | 80GB   |",
           "+----+-----------+",
           "| id | name      |",
           "+----+-----------+",
           "|  0 | 22000MiB / 81920MiB |",
           "+-----------------------------------------------------------------------------+",
           "Epoch 3: 98%|##########| 1000/1000 [01:02<00:00, 16.0it/s, loss=0.12]",
           "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
           "Tue Mar  5 10:00:00 2024",
           "│ NVITOP 1.3.2      Driver Version: 550.54.15      CUDA Driver Version: 12.4 │",
           "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |",
           "| N/A   27C    P0             69W /  700W |       4MiB /  81559MiB |      0%      Default |",
           "|    0   N/A  N/A     12345      C   python                                      1234MiB |",
       }) {
    CHECK_FALSE(r.take(l, ++n));
    CHECK_FALSE(r.in_block());
  }
  r.finish();
  CHECK(out.samples.empty());
  CHECK(out.processes.empty());
  CHECK(out.kinds.empty());
}

TEST_CASE("noise spliced into a GPU box is passed over, not claimed") {
  GpuRecords out;
  SmiTableReader r(out);
  CHECK(r.take("+-----------------------------------------------------------------------------+", 1) == false);
  CHECK(r.take("| NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4     |\r", 2));
  CHECK(r.in_block());
  CHECK(r.take("|===============================+======================+======================|", 3));
  CHECK(r.take("|   0  NVIDIA A10G         On   | 00000000:00:1E.0 Off |                    0 |", 4));
  CHECK_FALSE(r.take("2024-03-05 10:00:01 rank0 INFO step 10, 55% done", 5));
  CHECK(r.in_block());
  CHECK(r.take("|  0%   25C    P8     9W / 300W |      0MiB / 22731MiB |      0%      Default |", 6));
  CHECK(r.take("+-------------------------------+----------------------+----------------------+", 7));
  r.finish();
  REQUIRE(out.samples.size() == 1);
  CHECK(out.samples[0].name == "NVIDIA A10G");
  CHECK(out.samples[0].temp_c == 25.0);
  CHECK(out.samples[0].driver_version == "470.57.02");
  CHECK(out.samples[0].time.empty());  // a frame with no date before it
}

TEST_CASE("a table closes after several foreign lines, and a later | line is not taken") {
  GpuRecords out;
  SmiTableReader r(out);
  CHECK(r.take("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |", 1));
  CHECK(r.take("|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |", 2));
  for (uint64_t n = 3; n < 9; ++n) CHECK_FALSE(r.take("some other output", n));
  CHECK_FALSE(r.in_block());
  CHECK_FALSE(r.take("| N/A   29C    P0              62W / 400W |      4MiB / 81920MiB |      0%      Default |", 9));
  REQUIRE(out.samples.size() == 1);
  CHECK_FALSE(out.samples[0].util_pct);
}

TEST_CASE("a paste that starts at the column header or at the Processes box") {
  GpuRecords out;
  SmiTableReader r(out);
  CHECK(r.take("  | GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |", 1));
  CHECK(r.take("  |   0  Tesla T4            Off  | 00000000:00:04.0 Off |                    0 |", 2));
  CHECK(r.take("  | N/A   36C    P8     9W /  70W |      0MiB / 15109MiB |      0%      Default |", 3));
  CHECK(r.take("  +-------------------------------+----------------------+----------------------+", 4));
  CHECK_FALSE(r.take("$ ls", 5));
  for (uint64_t n = 6; n < 12; ++n) r.take("x", n);
  CHECK_FALSE(r.in_block());
  CHECK(r.take("| Processes:                                                                  |", 12));
  CHECK(r.take("|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |", 13));
  CHECK(r.take("|=============================================================================|", 14));
  CHECK(r.take("|    0    3    0      18231    M+C   /usr/bin/nvidia-cuda-mps-server    34MiB |", 15));
  CHECK(r.take("|    0   N/A  N/A       N/A      C   python                              N/A |", 16));
  CHECK(r.take("+-----------------------------------------------------------------------------+", 17));
  CHECK_FALSE(r.in_block());
  r.finish();
  REQUIRE(out.samples.size() == 1);
  CHECK(out.samples[0].name == "Tesla T4");
  CHECK(out.samples[0].driver_version.empty());
  REQUIRE(out.processes.size() == 2);
  CHECK(out.processes[0].type == "M+C");
  CHECK(out.processes[0].name == "/usr/bin/nvidia-cuda-mps-server");
  CHECK(out.processes[0].mem_mib == 34.0);
  CHECK_FALSE(out.processes[1].pid);
  CHECK_FALSE(out.processes[1].mem_mib);
}

TEST_CASE("a slice of a long process list: its column header, or its rows alone") {
  // R450+ rows under their column header, without the `Processes:` title.
  Fed headed = feed({
      "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
      "|        ID   ID                                                             Usage      |",
      "|=======================================================================================|",
      "|    3   N/A  N/A     11111      C   /usr/bin/python3                            0MiB |",
      "|    3   N/A  N/A     11112      C   /usr/bin/python3                         9000MiB |",
      "+---------------------------------------------------------------------------------------+",
      "$ echo done",
  });
  CHECK(headed.claimed == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
  REQUIRE(headed.out.processes.size() == 2);
  CHECK(headed.out.processes[1].gpu_index == 3u);
  CHECK(headed.out.processes[1].pid == 11112u);
  CHECK(headed.out.processes[1].mem_mib == 9000.0);
  // Rows alone, R4xx layout (no GI/CI): the memory cell vouches for them.
  Fed rows = feed({
      "|    0       489      G   /usr/bin/X                                  1025MiB |",
      "|    0       662      G   kwin_x11                                     313MiB |",
  });
  REQUIRE(rows.out.processes.size() == 2);
  CHECK(rows.out.processes[0].type == "G");
  CHECK(rows.out.processes[1].pid == 662u);
  CHECK(rows.out.processes[1].mem_mib == 313.0);
  CHECK(rows.claimed == std::vector<uint64_t>{2});  // the first row vouched for by the second
  // Without a memory cell, rows of that shape are not claimed.
  Fed bare = feed({"|    0       489      G   /usr/bin/X |", "|    0       490      G   /usr/bin/Y |"});
  CHECK(bare.claimed.empty());
  CHECK(bare.out.processes.empty());
}

TEST_CASE("a paste that lost the header's first characters, or its first line") {
  for (const char* header : {"Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |",
                             "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |"}) {
    GpuRecords out;
    SmiTableReader r(out);
    CHECK(r.take(header, 1));
    CHECK(r.take("|===============================+======================+======================|", 2));
    CHECK(r.take("|   0  Tesla V100-SXM2...  On   | 00000000:00:08.0 Off |                    0 |", 3));
    CHECK(r.take("| N/A   54C    P0   246W / 300W |  15514MiB / 16130MiB |    100%      Default |", 4));
    CHECK(r.take("+-------------------------------+----------------------+----------------------+", 5));
    r.finish();
    REQUIRE(out.samples.size() == 1);
    CHECK(out.samples[0].index == 0u);
    CHECK(out.samples[0].name == "Tesla V100-SXM2...");
    CHECK(out.samples[0].mem_used_mib == 15514.0);
    CHECK(out.samples[0].power_w == 246.0);
    CHECK(out.samples[0].util_pct == 100.0);
  }
  // Words of the header elsewhere are not one.
  GpuRecords out;
  SmiTableReader r(out);
  CHECK_FALSE(r.take("Persistence-M is on for every GPU, see Bus-Id", 1));
  CHECK_FALSE(r.take("| Fan | Temp |", 2));
  CHECK(out.kinds.empty());
}

TEST_CASE("fixture: a table pasted without its first characters") {
  Fed f = feed(fixture("r418-v100-cut-header.txt"));
  REQUIRE(f.out.samples.size() == 2);
  CHECK(f.out.samples[0].bus_id == "00000000:00:1B.0");
  CHECK(f.out.samples[0].mem_used_mib == 15321.0);
  CHECK(f.out.samples[1].index == 1u);
  CHECK(f.out.samples[1].power_w == 41.0);
  REQUIRE(f.out.processes.size() == 1);
  CHECK(f.out.processes[0].pid == 27712u);
  CHECK(f.out.processes[0].mem_mib == 15310.0);
}

TEST_CASE("a bus id blanked out or cut before pasting keeps its GPU, without a bus id") {
  // R535, MIG on: the user replaced the bus ids; the row's shape (index,
  // name, persistence | ..., display) still names the GPU.
  Fed f = feed({
      "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |",
      "|=========================================+======================+======================|",
      "|   3  NVIDIA A100-SXM4-80GB          On  | 00000000: Off |                   On |",
      "| N/A   33C    P0              85W / 400W |                  N/A |     N/A      Default |",
      "|                                         |                      |              Enabled |",
      "+-----------------------------------------+----------------------+----------------------+",
      "|   4  NVIDIA A100-SXM4-80GB          On  |   xxxxxxxxxxxxxxxx Off |                   On |",
      "| N/A   30C    P0              60W / 400W |                  N/A |     N/A      Default |",
      "|   5  NVIDIA A100-SXM4-80GB          On  |                    Off |                   On |",
      "| N/A   31C    P0              61W / 400W |                  N/A |     N/A      Default |",
      "+-----------------------------------------+----------------------+----------------------+",
  });
  REQUIRE(f.out.samples.size() == 3);
  CHECK(f.out.samples[0].index == 3u);
  CHECK(f.out.samples[0].name == "NVIDIA A100-SXM4-80GB");
  CHECK(f.out.samples[0].bus_id.empty());
  CHECK(f.out.samples[0].power_w == 85.0);
  CHECK(f.out.samples[1].index == 4u);
  CHECK(f.out.samples[2].index == 5u);
  CHECK(f.out.samples[2].power_w == 61.0);
}

TEST_CASE("the date counts only right above the table") {
  GpuRecords out;
  SmiTableReader r(out);
  CHECK_FALSE(r.take("Thu Jan  4 08:00:00 2024", 1));
  CHECK_FALSE(r.take("something else", 2));
  CHECK(r.take("| NVIDIA-SMI 545.23.08              Driver Version: 545.23.08    CUDA Version: 12.3     |", 3));
  CHECK(r.take("|   0  NVIDIA A100 80GB PCIe          Off | 00000000:17:00.0 Off |                    0 |", 4));
  r.finish();
  REQUIRE(out.samples.size() == 1);
  CHECK(out.samples[0].time.empty());
}

TEST_CASE("after a GPU box, only a GPU row or a box title continues the table") {
  GpuRecords out;
  SmiTableReader r(out);
  CHECK(r.take("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |", 1));
  CHECK(r.take("|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |", 2));
  CHECK(r.take("| N/A   29C    P0              62W / 400W |      4MiB / 81920MiB |      0%      Default |", 3));
  CHECK(r.take("+-----------------------------------------+----------------------+----------------------+", 4));
  CHECK_FALSE(r.take("|-------|----------|", 5));
  CHECK_FALSE(r.in_block());

  CHECK(r.take("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |", 6));
  CHECK(r.take("+-----------------------------------------+----------------------+----------------------+", 7));
  CHECK_FALSE(r.take("| model | tokens/s |", 8));
  CHECK_FALSE(r.in_block());

  // A box of a later driver that this reader does not know is read past.
  CHECK(r.take("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |", 9));
  CHECK(r.take("|   1  NVIDIA A100-SXM4-80GB          On  | 00000000:0F:00.0 Off |                    0 |", 10));
  CHECK(r.take("+-----------------------------------------+----------------------+----------------------+", 11));
  CHECK(r.take("                                                                                         ", 12));
  CHECK(r.take("+---------------------------------------------------------------------------------------+", 13));
  CHECK(r.take("| Fabric devices:                                                                       |", 14));
  CHECK(r.take("|  0    3   0   1  |  22MiB / 81920MiB |                                                 |", 15));
  CHECK(r.take("+---------------------------------------------------------------------------------------+", 16));
  CHECK(r.in_block());
  r.finish();
  REQUIRE(out.samples.size() == 2);
  CHECK(out.samples[1].index == 1u);
}
