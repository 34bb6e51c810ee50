#include "parsers/gpu/topo_matrix.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "parsers/gpu/smi_dmon.h"

using namespace nd;

namespace {

std::vector<std::string> read_lines(const std::string& name) {
  std::ifstream in(std::string(ND_SOURCE_ROOT) + "/testdata/gpu/" + name);
  REQUIRE(in.good());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Feeds a fixture as one stream; returns the 1-based numbers of the lines
// the reader claimed. `host_prefix` strips "node07: " as pdsh's caller would.
std::set<uint64_t> feed(BlockReader& reader, const std::string& name, bool host_prefix = false) {
  std::set<uint64_t> claimed;
  uint64_t n = 0;
  for (std::string line : read_lines(name)) {
    ++n;
    if (host_prefix) {
      auto colon = line.find(": ");
      if (colon != std::string::npos) line.erase(0, colon + 2);
    }
    if (reader.take(line, n)) claimed.insert(n);
  }
  reader.finish();
  return claimed;
}

void check_symmetric(const TopoMatrix& m) {
  for (const auto& [row, cols] : m.links) {
    for (const auto& [col, cell] : cols) {
      auto back = m.links.find(col);
      if (back == m.links.end()) continue;  // a row the paste left out
      CHECK_MESSAGE(back->second.at(row) == cell, std::string(row + " / " + col));
    }
  }
}

TopoMatrix only(const GpuRecords& out) {
  REQUIRE(out.topologies.size() == 1);
  CHECK(out.kinds == std::vector<SideKind>{SideKind::SmiTopo});
  return out.topologies[0];
}

// "2-15,17": the claimed line numbers, as ranges.
std::string spans(const std::set<uint64_t>& s) {
  std::string out;
  for (auto it = s.begin(); it != s.end();) {
    uint64_t first = *it, last = first;
    while (++it != s.end() && *it == last + 1) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(first);
    if (last != first) out += '-' + std::to_string(last);
  }
  return out;
}

}  // namespace

TEST_CASE("topo -m, R550 HGX H100: NIC0..NIC11 resolved by the NIC Legend after the matrix") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/h100_nic_legend_r550.txt");
  // The header, 20 rows, the blank, the Legend, the NIC Legend and the blank
  // after it; not the prompt.
  CHECK(spans(claimed) == "2-48");
  CHECK_FALSE(r.in_block());
  TopoMatrix m = only(out);
  CHECK(m.line == 2);
  REQUIRE(m.devices.size() == 20);
  CHECK(m.devices[0] == "GPU0");
  CHECK(m.devices[8] == "mlx5_0");
  CHECK(m.devices[19] == "mlx5_11");
  CHECK(m.links.at("GPU0").at("GPU0") == "X");
  CHECK(m.links.at("GPU0").at("GPU7") == "NV18");
  CHECK(m.links.at("GPU0").at("mlx5_0") == "PXB");
  CHECK(m.links.at("GPU1").at("mlx5_3") == "PXB");
  CHECK(m.links.at("GPU1").at("mlx5_0") == "NODE");
  CHECK(m.links.at("GPU4").at("mlx5_0") == "SYS");
  CHECK(m.links.at("mlx5_1").at("mlx5_2") == "PIX");
  CHECK(m.links.at("mlx5_11").at("mlx5_11") == "X");
  CHECK(m.links.size() == 20);
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU0") == "0-55,112-167");
  CHECK(m.cpu_affinity.at("GPU7") == "56-111,168-223");
  CHECK(m.numa_affinity.at("GPU3") == "0");
  CHECK(m.numa_affinity.at("GPU4") == "1");
  CHECK(m.gpu_numa_id.at("GPU0").empty());  // N/A
  CHECK(m.cpu_affinity.size() == 8);        // GPU rows only
  CHECK(m.cpu_affinity.count("mlx5_0") == 0);
}

TEST_CASE("topo -m, R470 HGX A100: NICs under their own names, no GPU NUMA ID, tabs lost") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/a100_mlx_names_r470.txt");
  CHECK(spans(claimed) == "2-25");
  TopoMatrix m = only(out);
  CHECK(m.devices == std::vector<std::string>{"GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7",
                                              "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  CHECK(m.links.at("GPU0").at("GPU5") == "NV12");
  CHECK(m.links.at("GPU1").at("mlx5_0") == "PXB");
  CHECK(m.links.at("GPU2").at("mlx5_0") == "NODE");
  CHECK(m.links.at("GPU6").at("mlx5_0") == "SYS");
  CHECK(m.links.at("mlx5_2").at("mlx5_3") == "NODE");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU5") == "48-95,144-191");
  CHECK(m.numa_affinity.at("GPU5") == "1");
  CHECK(m.gpu_numa_id.empty());
}

TEST_CASE("topo -m, R384 DGX-1: SOC read as SYS, NV1/NV2, old legend, CPU Affinity only") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/dgx1_soc_r384.txt");
  CHECK(spans(claimed) == "2-24");
  TopoMatrix m = only(out);
  CHECK(m.devices[9] == "mlx5_2");  // as printed, not sorted
  CHECK(m.links.at("GPU0").at("GPU3") == "NV2");
  CHECK(m.links.at("GPU0").at("GPU1") == "NV1");
  CHECK(m.links.at("GPU0").at("GPU5") == "SYS");
  CHECK(m.links.at("GPU0").at("mlx5_0") == "PIX");
  CHECK(m.links.at("GPU0").at("mlx5_1") == "PHB");
  CHECK(m.links.at("mlx5_3").at("mlx5_3") == "X");
  CHECK(m.links.at("mlx5_3").at("mlx5_0") == "SYS");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU6") == "20-39,60-79");
  CHECK(m.numa_affinity.empty());
  CHECK(m.gpu_numa_id.empty());
}

TEST_CASE("topo -m, R367 with mlx4_0, in a markdown fence") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/mlx4_soc_r367.txt");
  CHECK(spans(claimed) == "3-17");  // not the fences, nor the command
  TopoMatrix m = only(out);
  CHECK(m.devices.back() == "mlx4_0");
  CHECK(m.links.at("GPU0").at("GPU2") == "SYS");
  CHECK(m.links.at("GPU3").at("mlx4_0") == "PHB");
  CHECK(m.links.at("GPU2").at("GPU3") == "PIX");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU1") == "0-7,16-23");
}

TEST_CASE("topo -m pasted without tabs: glued cells and titles, NIC Legend offset, a bond") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/pasted_glued_cells_r535.txt");
  CHECK(spans(claimed) == "2-44");
  TopoMatrix m = only(out);
  REQUIRE(m.devices.size() == 18);
  CHECK(m.devices[8] == "mlx5_1");   // NIC0
  CHECK(m.devices[16] == "mlx5_9");  // NIC8, glued to NIC9 in the header
  CHECK(m.devices[17] == "mlx5_bond_0");
  CHECK(m.links.at("GPU0").at("mlx5_1") == "PIX");
  CHECK(m.links.at("GPU0").at("mlx5_2") == "NODE");  // "NODENODE"
  CHECK(m.links.at("GPU0").at("mlx5_3") == "NODE");
  CHECK(m.links.at("GPU2").at("mlx5_5") == "SYS");   // "SYSSYS"
  CHECK(m.links.at("GPU7").at("mlx5_bond_0") == "NODE");
  CHECK(m.links.at("mlx5_bond_0").at("mlx5_bond_0") == "X");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU7") == "48-95,144-191");
  CHECK(m.numa_affinity.at("GPU7") == "1");
  CHECK(m.gpu_numa_id.at("GPU7").empty());
}

TEST_CASE("topo -m with the CPU and NUMA Affinity cells empty (cgroup), inside an environment report") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/cgroup_empty_affinity_r550.txt");
  CHECK(spans(claimed) == "8-40");
  TopoMatrix m = only(out);
  CHECK(m.links.at("GPU0").at("mlx5_6") == "PXB");
  CHECK(m.links.at("GPU1").at("mlx5_0") == "SYS");
  CHECK(m.links.at("mlx5_0").at("mlx5_1") == "PIX");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU0").empty());
  CHECK(m.numa_affinity.at("GPU0").empty());
  CHECK(m.gpu_numa_id.at("GPU1").empty());
}

TEST_CASE("topo -m, PCIe only: NUMA ids out of order, no NICs") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/pcie_8gpu_numa_out_of_order_r560.txt");
  CHECK(spans(claimed) == "2-21");
  TopoMatrix m = only(out);
  CHECK(m.devices.size() == 8);
  CHECK(m.numa_affinity.at("GPU0") == "1");
  CHECK(m.numa_affinity.at("GPU2") == "0");
  CHECK(m.numa_affinity.at("GPU4") == "3");
  CHECK(m.numa_affinity.at("GPU7") == "2");
  CHECK(m.cpu_affinity.at("GPU4") == "72-95,168-191");
  CHECK(m.links.at("GPU0").at("GPU1") == "PIX");
  CHECK(m.links.at("GPU0").at("GPU2") == "NODE");
  CHECK(m.links.at("GPU0").at("GPU4") == "SYS");
  check_symmetric(m);
}

TEST_CASE("topo -m, two GPUs on NVLink: the legend ends at the next shell prompt") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto lines = read_lines("smi_topo/gpu_only_2gpu_nv4_r550.txt");
  std::set<uint64_t> claimed;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (r.take(lines[i], i + 1)) claimed.insert(i + 1);
    // Kept until the first line that cannot belong, not until finish().
    if (lines[i].starts_with("[lab@ws-3090 ~]$ nvidia-smi nvlink")) CHECK(out.topologies.size() == 1);
  }
  r.finish();
  CHECK(spans(claimed) == "2-14");
  TopoMatrix m = only(out);
  CHECK(m.links.at("GPU1").at("GPU0") == "NV4");
  CHECK(m.cpu_affinity.at("GPU1") == "0-23");
}

TEST_CASE("topo -m, DGX-2: 16 GPUs on NVSwitch and ten NICs under their own names") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/dgx2_16gpu_r418.txt");
  CHECK(spans(claimed) == "2-39");
  TopoMatrix m = only(out);
  REQUIRE(m.devices.size() == 26);
  CHECK(m.devices[15] == "GPU15");
  CHECK(m.links.at("GPU15").at("GPU0") == "NV6");
  CHECK(m.links.at("GPU10").at("GPU10") == "X");
  CHECK(m.links.at("GPU0").at("mlx5_0") == "PIX");
  CHECK(m.links.at("GPU0").at("mlx5_1") == "PXB");
  CHECK(m.links.at("GPU0").at("mlx5_2") == "NODE");
  CHECK(m.links.at("GPU0").at("mlx5_8") == "NODE");
  CHECK(m.links.at("GPU0").at("mlx5_9") == "SYS");
  check_symmetric(m);
  CHECK(m.cpu_affinity.at("GPU12") == "24-47,72-95");
}

TEST_CASE("topo -m, one GPU in a VM") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/single_gpu_vm_r550.txt");
  CHECK(spans(claimed) == "2-13");
  TopoMatrix m = only(out);
  CHECK(m.devices == std::vector<std::string>{"GPU0"});
  CHECK(m.links.at("GPU0").at("GPU0") == "X");
  CHECK(m.cpu_affinity.at("GPU0") == "0-31");
  CHECK(m.numa_affinity.at("GPU0") == "0");
  CHECK(m.gpu_numa_id.at("GPU0").empty());
}

TEST_CASE("topo -m followed by topo -p2p: the peer matrix and its legend are not ours") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/topo_then_p2p_r535.txt");
  CHECK(spans(claimed) == "2-17");
  TopoMatrix m = only(out);
  CHECK(m.devices.size() == 4);
  CHECK(m.links.at("GPU0").at("GPU1") == "PIX");
  CHECK(m.links.at("GPU0").at("GPU2") == "PHB");
}

TEST_CASE("topo -m through pdsh, the host prefix stripped") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/pdsh_host_prefix_r535.txt", true);
  CHECK(spans(claimed) == "2-24");
  TopoMatrix m = only(out);
  CHECK(m.devices == std::vector<std::string>{"GPU0", "GPU1", "GPU2", "GPU3", "mlx5_0", "mlx5_1"});
  CHECK(m.links.at("GPU3").at("mlx5_1") == "PXB");
  CHECK(m.links.at("GPU3").at("mlx5_0") == "SYS");
  CHECK(m.numa_affinity.at("GPU2") == "1");
}

TEST_CASE("topo --matrix copied from an 80-column terminal: wrapped legend lines are consumed") {
  GpuRecords out;
  TopoMatrixReader r(out);
  auto claimed = feed(r, "smi_topo/wrapped_legend_r525.txt");
  CHECK(spans(claimed) == "2-26");
  TopoMatrix m = only(out);
  CHECK(m.devices.back() == "mlx5_0");
  CHECK(m.links.at("GPU2").at("mlx5_0") == "NODE");
}

TEST_CASE("topo -m: the note on NICs left out of the matrix") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("64 NICs found in the topology, only displaying 56 in the matrix.", 1));
  CHECK_FALSE(r.in_block());
  CHECK(out.kinds == std::vector<SideKind>{SideKind::SmiTopo});
  CHECK_FALSE(r.take("64 NICs found in the topology", 2));
}

TEST_CASE("topo -m: a CPU Affinity cell emptied by a cgroup, the NUMA cell kept") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("        GPU0    GPU1    CPU Affinity    NUMA Affinity   GPU NUMA ID", 1));
  CHECK(r.take("GPU0     X      NV12                    3               N/A", 2));
  CHECK(r.take("GPU1    NV12     X      48-63,176-191   3", 3));
  r.finish();
  TopoMatrix m = only(out);
  CHECK(m.cpu_affinity.at("GPU0").empty());
  CHECK(m.numa_affinity.at("GPU0") == "3");
  CHECK(m.gpu_numa_id.at("GPU0").empty());
  // Fewer cells, the first a CPU list: the missing ones are at the end.
  CHECK(m.cpu_affinity.at("GPU1") == "48-63,176-191");
  CHECK(m.numa_affinity.at("GPU1") == "3");
  CHECK(m.gpu_numa_id.at("GPU1").empty());
}

TEST_CASE("topo -m: the underline's codes left in the header, N/A affinity") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("\t[4mGPU0\tGPU1\tCPU Affinity\tNUMA Affinity[0m", 7));
  CHECK(r.take("GPU0\t X \tSYS\tN/A\tN/A", 8));
  CHECK(r.take("GPU1\tSYS\t X \tN/A\tN/A\r", 9));
  r.finish();
  TopoMatrix m = only(out);
  CHECK(m.line == 7);
  CHECK(m.cpu_affinity.at("GPU0").empty());
  CHECK(m.numa_affinity.at("GPU1").empty());
}

TEST_CASE("topo -m, GB200 tray: the underline escapes kept, CPU Affinity empty on two rows") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("\t\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m", 1));
  CHECK(r.take("GPU0\t X \tNV18\tNV18\tNV18\tNODE\tSYS\t0-71\t0\t\t2", 2));
  CHECK(r.take("GPU1\tNV18\t X \tNV18\tNV18\tNODE\tSYS\t0-71\t0\t\t10", 3));
  CHECK(r.take("GPU2\tNV18\tNV18\t X \tNV18\tSYS\tNODE\t\t1\t\tN/A", 4));
  CHECK(r.take("GPU3\tNV18\tNV18\tNV18\t X \tSYS\tNODE\t\t1\t\tN/A", 5));
  CHECK(r.take("NIC0\tNODE\tNODE\tSYS\tSYS\t X \tSYS\t\t\t\t", 6));
  CHECK(r.take("NIC1\tSYS\tSYS\tNODE\tNODE\tSYS\t X \t\t\t\t", 7));
  r.finish();
  TopoMatrix m = only(out);
  CHECK(m.devices.size() == 6);
  CHECK(m.cpu_affinity.at("GPU0") == "0-71");
  CHECK(m.gpu_numa_id.at("GPU0") == "2");
  CHECK(m.gpu_numa_id.at("GPU1") == "10");
  CHECK(m.cpu_affinity.at("GPU2").empty());
  CHECK(m.numa_affinity.at("GPU2") == "1");
  CHECK(m.gpu_numa_id.at("GPU3").empty());
  CHECK(m.links.at("NIC1").at("GPU3") == "NODE");  // no NIC Legend came
  check_symmetric(m);
}

TEST_CASE("topo -m: two hosts' matrices one after the other, without legends") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("\tGPU0\tGPU1\tCPU Affinity", 1));
  CHECK(r.take("GPU0\t X \tPHB\t0-11", 2));
  CHECK(r.take("GPU1\tPHB\t X \t0-11", 3));
  CHECK(r.take("\tGPU0\tGPU1\tCPU Affinity", 4));
  CHECK(r.take("GPU0\t X \tNV4\t0-15", 5));
  CHECK(r.take("GPU1\tNV4\t X \t0-15", 6));
  CHECK_FALSE(r.take("done.", 7));
  CHECK_FALSE(r.in_block());
  REQUIRE(out.topologies.size() == 2);
  CHECK(out.topologies[0].links.at("GPU0").at("GPU1") == "PHB");
  CHECK(out.topologies[1].links.at("GPU0").at("GPU1") == "NV4");
  CHECK(out.topologies[1].line == 4);
}

TEST_CASE("topo -m: another writer's lines inside an unfinished matrix pass; finish() keeps it") {
  GpuRecords out;
  TopoMatrixReader r(out);
  CHECK(r.take("\tGPU0\tGPU1\tGPU2\tCPU Affinity", 1));
  CHECK(r.take("GPU0\t X \tNV2\tNV2\t0-7", 2));
  CHECK_FALSE(r.take("[rank3]: 12%|#2        | 120/1000", 3));
  CHECK_FALSE(r.take("GPU1\tNV2\tNV2\tNV2\t0-7", 4));  // no X of its own: not a row
  CHECK(r.in_block());
  CHECK(r.take("GPU1\tNV2\t X \tNV2\t0-7", 5));
  CHECK(r.take("GPU2\tNV2\tNV2\t X \t0-7", 6));
  // Complete: the next foreign line ends it.
  CHECK_FALSE(r.take("epoch 1 loss 0.3", 7));
  CHECK_FALSE(r.in_block());
  REQUIRE(out.topologies.size() == 1);

  CHECK(r.take("\tGPU0\tGPU1\tCPU Affinity", 8));
  CHECK(r.take("GPU0\t X \tSYS\t0-7", 9));
  CHECK(r.take("", 10));
  CHECK(r.take("Legend:", 11));
  CHECK(r.take("  X    = Self", 12));
  r.finish();
  REQUIRE(out.topologies.size() == 2);
  CHECK(out.topologies[1].links.size() == 1);  // GPU1's row never came
}

TEST_CASE("topo -m: lookalikes are not claimed") {
  GpuRecords out;
  TopoMatrixReader r(out);
  const char* lines[] = {
      " \tGPU0\tGPU1\tGPU2\tGPU3\t",  // topo -p2p header
      " GPU0\tX\tOK\tOK\tOK\t",
      "Legend:",
      "  X    = Self",
      "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)",
      "NIC Legend:",
      "  NIC0: mlx5_0",
      "GPU0     X      NV18    NV18    0-55,112-167    0               N/A",  // a row without its header
      "| GPU0 | GPU1 | CPU Affinity | NUMA Affinity |",
      "| MTHREADS | Device 0 | Device 1 | CPU Affinity | NUMA Affinity |",
      "GPU0 and GPU1 share CPU Affinity 0-7 here",
      "GPU1 GPU0 CPU Affinity",  // GPUs out of order
      "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:06:00.0 Off |                    0 |",
      "    0    312     61     70     98     41      0      0      0      0   2619   1980",
      "Epoch 3: 100%|##########| 1000/1000 [05:12<00:00, 3.20it/s, loss=0.31]",
      "GPU[0]\t\t: (Topology) Numa Node: 0",
      "================ Link Type between two GPUs ================",
      "       GPU0         GPU1",
      "GPU0   0            XGMI",
  };
  uint64_t n = 0;
  for (const char* line : lines) CHECK_MESSAGE(!r.take(line, ++n), line);
  r.finish();
  CHECK(out.topologies.empty());
  CHECK(out.kinds.empty());
}

TEST_CASE("topo -m and dmon do not read each other's fixtures") {
  namespace fs = std::filesystem;
  for (const char* kind : {"smi_topo", "smi_dmon"}) {
    for (const auto& e : fs::directory_iterator(fs::path(ND_SOURCE_ROOT) / "testdata" / "gpu" / kind)) {
      if (e.path().extension() != ".txt") continue;
      GpuRecords out;
      std::string name = std::string(kind) + "/" + e.path().filename().string();
      if (std::string(kind) == "smi_dmon") {
        TopoMatrixReader r(out);
        CHECK_MESSAGE(feed(r, name).empty(), name);
        CHECK(out.topologies.empty());
      } else {
        SmiDmonReader r(out);
        CHECK_MESSAGE(feed(r, name, name.find("pdsh") != std::string::npos).empty(), name);
        CHECK(out.samples.empty());
      }
      CHECK(out.kinds.empty());
    }
  }
}
