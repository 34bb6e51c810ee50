#include "src/model/busbw_expectation.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include <fmt/format.h>

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

}  // namespace

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
