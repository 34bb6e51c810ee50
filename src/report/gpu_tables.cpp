#include "src/report/gpu_tables.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace nd {
namespace {

// Tables of a hostile input stay bounded; the JSON has every row.
constexpr size_t kMaxRows = 64;

std::string number(const std::optional<double>& v, const char* unit) {
  return v ? fmt::format("{:.0f}{}", *v, unit) : "-";
}

std::string size_text(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30)) return fmt::format("{:g} GiB", static_cast<double>(bytes) / (1 << 30));
  if (bytes >= (uint64_t{1} << 20)) return fmt::format("{:g} MiB", static_cast<double>(bytes) / (1 << 20));
  return fmt::format("{} B", bytes);
}

std::string processes_text(const GpuRow& g) {
  if (g.processes.empty()) return "-";
  std::string out;
  for (size_t i = 0; i < g.processes.size() && i < 3; ++i) {
    const auto& p = g.processes[i];
    if (!out.empty()) out += ", ";
    out += p.pid ? fmt::format("{}", *p.pid) : "pid ?";
    if (!p.type.empty()) out += " " + p.type;
    if (p.mem_mib) out += fmt::format(" {:.0f} MiB", *p.mem_mib);
  }
  if (g.processes.size() > 3) out += fmt::format(" (+{})", g.processes.size() - 3);
  return out;
}

std::string cut(const std::string& s, size_t width) { return s.size() <= width ? s : s.substr(0, width - 3) + "..."; }

void gpus_text(const GpuSideSummary& s, std::string& out) {
  out += "\nGPUs (nvidia-smi)\n";
  out += fmt::format("  {:<16} {:>3}  {:<24} {:>7} {:>5} {:>6} {:>15} {:>6}  {}\n", "HOST", "GPU", "NAME", "SAMPLES",
                     "UTIL", "P10", "MEMORY MiB", "POWER", "PROCESSES");
  for (size_t i = 0; i < s.gpus.size() && i < kMaxRows; ++i) {
    const GpuRow& g = s.gpus[i];
    std::string memory = g.mem_used_mib || g.mem_total_mib
                             ? fmt::format("{} / {}", number(g.mem_used_mib, ""), number(g.mem_total_mib, ""))
                             : "-";
    out += fmt::format("  {:<16} {:>3}  {:<24} {:>7} {:>5} {:>6} {:>15} {:>6}  {}\n",
                       cut(g.host.empty() ? "host unknown" : g.host, 16), g.index ? fmt::format("{}", *g.index) : "?",
                       cut(g.name.empty() ? "-" : g.name, 24), g.samples, number(g.util_mean, "%"),
                       number(g.util_p10, "%"), memory, number(g.power_max_w, "W"), processes_text(g));
  }
  if (s.gpus.size() > kMaxRows) out += fmt::format("  ... {} GPUs in all (the JSON lists each)\n", s.gpus.size());
}

void tests_text(const GpuSideSummary& s, std::string& out) {
  out += "\nnccl-tests (bus bandwidth at the largest size)\n";
  out += fmt::format("  {:<16} {:>5} {:>5}  {:>9} {:>12} {:>9} {:>6}  {}\n", "OP", "RANKS", "HOSTS", "SIZE", "BUSBW GB/s",
                     "EXPECTED", "RATIO", "WRONG");
  for (size_t i = 0; i < s.nccl_tests.size() && i < kMaxRows; ++i) {
    const NcclTestsSummary& t = s.nccl_tests[i];
    bool ratio = t.expected_gbs && t.largest_busbw_gbs;
    out += fmt::format("  {:<16} {:>5} {:>5}  {:>9} {:>12} {:>9} {:>6}  {}\n", cut(t.op.empty() ? "?" : t.op, 16), t.ranks,
                       t.hosts.size(), t.largest_bytes ? size_text(*t.largest_bytes) : "-",
                       t.largest_busbw_gbs ? fmt::format("{:.1f}", *t.largest_busbw_gbs) : "-",
                       t.expected_gbs ? fmt::format("{:.0f}", *t.expected_gbs) : "-",
                       ratio ? fmt::format("{:.2f}", *t.largest_busbw_gbs / *t.expected_gbs) : "-",
                       t.wrong > 0 || t.out_of_bounds_failed ? fmt::format("{} FAILED", t.wrong) : "0");
  }
  if (s.nccl_tests.size() > kMaxRows) out += fmt::format("  ... {} runs in all\n", s.nccl_tests.size());
  for (const auto& t : s.nccl_tests) {
    if (t.expected_gbs) {
      out += fmt::format("  expected: {}\n", t.expected_source);
      break;
    }
  }
}

// Per host: its GPUs and NICs, and each GPU's nearest NIC, GPUs in number
// order (GPU2 before GPU10).
void topology_text(const GpuSideSummary& s, std::string& out) {
  out += "\nTopology (nvidia-smi topo -m)\n";
  for (size_t i = 0; i < s.topology.size() && i < kMaxRows; ++i) {
    const TopologyRow& t = s.topology[i];
    out += fmt::format("  {}: {}, {}{}\n", t.host.empty() ? "host unknown" : t.host,
                       t.gpus == 1 ? "1 GPU" : fmt::format("{} GPUs", t.gpus),
                       t.nics.size() == 1 ? "1 NIC" : fmt::format("{} NICs", t.nics.size()),
                       t.nics.empty() ? "" : fmt::format(" ({})", fmt::join(t.nics, ", ")));
    std::vector<std::pair<uint32_t, std::string>> nearest;
    for (const auto& [gpu, nic] : t.nearest_nic) {
      uint32_t n = 0;
      for (char c : gpu) {
        if (c >= '0' && c <= '9') n = n * 10 + static_cast<uint32_t>(c - '0');
      }
      nearest.emplace_back(n, fmt::format("{} {} {}", gpu, nic.nic, nic.path));
    }
    std::sort(nearest.begin(), nearest.end());
    std::vector<std::string> parts;
    for (auto& [n, text] : nearest) parts.push_back(std::move(text));
    if (!parts.empty()) out += fmt::format("    nearest NIC: {}\n", fmt::join(parts, ", "));
  }
  if (s.topology.size() > kMaxRows) out += fmt::format("  ... {} matrices in all\n", s.topology.size());
}

}  // namespace

void gpu_side_text(const GpuSideSummary& s, std::string& out) {
  if (!s.gpus.empty()) gpus_text(s, out);
  if (!s.topology.empty()) topology_text(s, out);
  if (!s.nccl_tests.empty()) tests_text(s, out);
}

}  // namespace nd
