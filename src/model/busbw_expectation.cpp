#include "src/model/busbw_expectation.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include <fmt/format.h>

#include "src/model/topology_paths.h"
#include "src/probe/ib_attrs.h"

namespace nd {
namespace {

// All-reduce busbw of one host's 8 GPUs through NVSwitch, ring algorithm
// (NVLS can go higher), as measured in public nccl-tests results.
struct SystemPeak {
  const char* name_part;  // in the GPU name nvidia-smi and nccl-tests print
  double gbs;
  const char* system;
};

constexpr std::array<SystemPeak, 4> kPeaks = {{
    {"H800", 215, "8x H800 SXM in one host (NVLink, NVSwitch)"},
    {"H100", 370, "8x H100 SXM in one host (NVLink 4, NVSwitch)"},
    {"H200", 370, "8x H200 SXM in one host (NVLink 4, NVSwitch)"},
    {"A100-SXM", 230, "8x A100 SXM in one host (NVLink 3, NVSwitch)"},
}};

// PCIe cards and NVL pairs have no NVSwitch between all eight.
bool without_nvswitch(const std::string& name) {
  return name.find("PCIe") != std::string::npos || name.find("PCIE") != std::string::npos ||
         name.find("NVL") != std::string::npos;
}

bool busbw_comparable(const std::string& op) {
  return op == "all_reduce" || op == "all_gather" || op == "reduce_scatter";
}

// NVLink bandwidth per link, each way, by the GPU family in the name
// nvidia-smi and nccl-tests print. The first part found wins: H200 before H20.
struct NvlinkGeneration {
  const char* name_part;
  double link_gbs;
  const char* generation;
};

constexpr std::array<NvlinkGeneration, 14> kNvlinkGenerations = {{
    {"P100", 20, "NVLink 1"},
    {"V100", 25, "NVLink 2"},
    {"A100", 25, "NVLink 3"},
    {"A800", 25, "NVLink 3"},
    {"A30", 25, "NVLink 3"},
    {"GH200", 25, "NVLink 4"},
    {"H100", 25, "NVLink 4"},
    {"H200", 25, "NVLink 4"},
    {"H800", 25, "NVLink 4"},
    {"H20", 25, "NVLink 4"},
    {"GB200", 50, "NVLink 5"},
    {"B200", 50, "NVLink 5"},
    {"B100", 50, "NVLink 5"},
    {"B300", 50, "NVLink 5"},
}};

const NvlinkGeneration* nvlink_generation(const std::string& gpu_name) {
  for (const auto& g : kNvlinkGenerations) {
    if (gpu_name.find(g.name_part) != std::string::npos) return &g;
  }
  return nullptr;
}

// The fewest NVLinks between any two of `gpus` ("GPU0", …); nullopt when a
// pair has none.
std::optional<uint32_t> fewest_nvlinks(const TopoMatrix& matrix, const std::vector<std::string>& gpus) {
  std::optional<uint32_t> fewest;
  for (size_t i = 0; i < gpus.size(); ++i) {
    auto row = matrix.links.find(gpus[i]);
    if (row == matrix.links.end()) return std::nullopt;
    for (size_t j = 0; j < gpus.size(); ++j) {
      if (i == j) continue;
      auto cell = row->second.find(gpus[j]);
      if (cell == row->second.end()) return std::nullopt;
      auto links = nvlink_count(cell->second);
      if (!links) return std::nullopt;
      fewest = fewest ? std::min(*fewest, *links) : *links;
    }
  }
  return fewest;
}

}  // namespace

std::optional<BusbwExpectation> derived_nvlink_busbw(const NcclTestsRun& run, const JobModel& model) {
  // Three GPUs or more, every pair joined: NVSwitch or a full mesh. What a
  // bridged pair reaches has no public measure to hold it to.
  if (!busbw_comparable(run.op) || run.ranks.size() < 3) return std::nullopt;
  std::set<std::string> hosts, names;
  std::set<uint32_t> devices;
  for (const auto& r : run.ranks) {
    if (r.host.empty()) return std::nullopt;
    hosts.insert(r.host);
    if (!r.name.empty()) names.insert(r.name);
    devices.insert(r.device);
  }
  if (hosts.size() != 1 || devices.size() != run.ranks.size()) return std::nullopt;
  const TopologyFact* topology = topology_of_host(model.gpu_side, *hosts.begin());
  if (!topology) return std::nullopt;
  if (names.empty()) {
    for (const auto& g : model.gpu_side.gpus) {
      if (g.host == topology->host && !g.name.empty()) names.insert(g.name);
    }
  }
  if (names.size() != 1) return std::nullopt;
  const NvlinkGeneration* generation = nvlink_generation(*names.begin());
  if (!generation) return std::nullopt;

  std::vector<std::string> all_gpus;
  for (const auto& d : topology->matrix.devices) {
    if (d.starts_with("GPU")) all_gpus.push_back(d);
  }
  if (run.ranks.size() > all_gpus.size()) return std::nullopt;
  // The pairs the run used: all of the host's GPUs; or, when it used some,
  // its devices, trusted only where every pair of the host has the same
  // links (a CUDA device number need not be nvidia-smi's).
  std::optional<uint32_t> links;
  if (run.ranks.size() == all_gpus.size()) {
    links = fewest_nvlinks(topology->matrix, all_gpus);
  } else {
    std::vector<std::string> used;
    for (uint32_t d : devices) used.push_back(fmt::format("GPU{}", d));
    links = fewest_nvlinks(topology->matrix, used);
    if (links && fewest_nvlinks(topology->matrix, all_gpus) != links) return std::nullopt;
  }
  if (!links) return std::nullopt;
  double per_gpu = *links * generation->link_gbs;
  return BusbwExpectation{
      per_gpu * kNvlinkShare,
      fmt::format("{} GPUs of one host with NV{} between each pair in `nvidia-smi topo -m`: {} x {:g} GB/s each way "
                  "({}), {:.0f} % of that",
                  run.ranks.size(), *links, *links, generation->link_gbs, generation->generation, kNvlinkShare * 100)};
}

const NcclTestsRow* largest_row(const NcclTestsRun& run) {
  const NcclTestsRow* best = nullptr;
  for (const auto& row : run.rows) {
    if (!best || row.size_bytes > best->size_bytes) best = &row;
  }
  return best;
}

std::optional<double> row_busbw(const NcclTestsRow& row) {
  if (row.oop_busbw_gbs && row.ip_busbw_gbs) return std::max(*row.oop_busbw_gbs, *row.ip_busbw_gbs);
  return row.oop_busbw_gbs ? row.oop_busbw_gbs : row.ip_busbw_gbs;
}

namespace {

const ProbeRecordFact* record_of(const JobModel& m, const std::string& host) {
  for (const auto& r : m.probe_records) {
    if (same_host_name(host, r.host)) return &r;
  }
  return nullptr;
}

// The line rates in Gb/s of the active ports the host can use: those NCCL
// listed when the log says, else every active port.
std::vector<double> port_rates(const JobModel& m, const std::string& host, const NodeSnapshot& node) {
  const HostNets* listed = nullptr;
  for (uint32_t h = 0; h < m.hosts.size() && !listed; ++h) {
    if (same_host_name(m.hosts.name(h), host)) listed = m.nets_of(h, "IB");
  }
  std::vector<double> rates;
  for (const auto& hca : node.hcas) {
    for (const auto& port : hca.ports) {
      if (port.state != kPortActive || !port.rate_gbps) continue;
      bool used = !listed || std::any_of(listed->devices.begin(), listed->devices.end(), [&](const NetDevice& d) {
        return d.name == hca.name && (d.port < 0 || static_cast<uint32_t>(d.port) == port.port);
      });
      if (used) rates.push_back(*port.rate_gbps);
    }
  }
  return rates;
}

}  // namespace

std::optional<BusbwExpectation> derived_fabric_busbw(const NcclTestsRun& run, const JobModel& model) {
  if (!busbw_comparable(run.op) || model.probe_records.empty()) return std::nullopt;
  std::map<std::string, size_t> ranks_on;
  for (const auto& r : run.ranks) {
    if (r.host.empty()) return std::nullopt;
    ++ranks_on[r.host];
  }
  if (ranks_on.size() < 2) return std::nullopt;
  std::optional<double> slowest_gbps;
  size_t nics = 0;
  std::set<double> rates_seen;
  for (const auto& [host, ranks] : ranks_on) {
    const ProbeRecordFact* record = record_of(model, host);
    if (!record) return std::nullopt;
    std::vector<double> rates = port_rates(model, host, record->node);
    if (rates.empty()) return std::nullopt;
    std::sort(rates.rbegin(), rates.rend());
    rates.resize(std::min(rates.size(), ranks));
    double total = 0;
    for (double r : rates) {
      total += r;
      rates_seen.insert(r);
    }
    if (!slowest_gbps || total < *slowest_gbps) {
      slowest_gbps = total;
      nics = rates.size();
    }
  }
  double gbs = *slowest_gbps / 8 * kFabricShare;
  std::string rate = rates_seen.size() == 1 ? fmt::format("{:g} Gb/s", *rates_seen.begin()) : "mixed rates";
  std::string source = fmt::format("{} hosts, {} NIC{} of {} each in the probe records, {:.0f} % of line rate",
                                   ranks_on.size(), nics, nics == 1 ? "" : "s", rate, kFabricShare * 100);
  // The NVLink side may be the narrower one.
  NcclTestsRun one_host = run;
  std::erase_if(one_host.ranks, [&](const NcclTestsRank& r) { return r.host != ranks_on.begin()->first; });
  if (auto peak = derived_busbw(one_host); peak && peak->gbs < gbs) return peak;
  return BusbwExpectation{gbs, source};
}

std::optional<BusbwExpectation> expected_busbw(const NcclTestsRun& run, const JobModel& model) {
  if (auto one_host = derived_busbw(run)) return one_host;
  if (auto nvlink = derived_nvlink_busbw(run, model)) return nvlink;
  return derived_fabric_busbw(run, model);
}

std::optional<BusbwExpectation> derived_busbw(const NcclTestsRun& run) {
  if (!busbw_comparable(run.op) || run.ranks.size() != 8) return std::nullopt;
  std::set<std::string> hosts, names;
  for (const auto& r : run.ranks) {
    // A rank line without its host (an empty hostname) cannot tell one host from several.
    if (r.host.empty()) return std::nullopt;
    hosts.insert(r.host);
    names.insert(r.name);
  }
  if (hosts.size() != 1 || names.size() != 1) return std::nullopt;
  const std::string& name = *names.begin();
  if (without_nvswitch(name)) return std::nullopt;
  for (const auto& peak : kPeaks) {
    if (name.find(peak.name_part) != std::string::npos) {
      return BusbwExpectation{peak.gbs, peak.system};
    }
  }
  return std::nullopt;
}

}  // namespace nd
