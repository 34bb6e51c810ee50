#include "src/report/gpu_summary.h"

#include <algorithm>
#include <array>

#include "src/model/busbw_expectation.h"
#include "src/model/topology_paths.h"

namespace nd {

const char* side_kind_name(SideKind kind) {
  switch (kind) {
    case SideKind::SmiTable: return "nvidia-smi";
    case SideKind::SmiCsv: return "nvidia-smi-csv";
    case SideKind::SmiDmon: return "nvidia-smi-dmon";
    case SideKind::SmiTopo: return "nvidia-smi-topo";
    case SideKind::NcclTests: return "nccl-tests";
    case SideKind::HorovodTimeline: return "horovod-timeline";
  }
  return "unknown";
}

namespace {

bool is_gpu_device(const std::string& name) { return name.starts_with("GPU"); }

std::vector<InputKind> input_kinds(const JobModel& model) {
  std::vector<InputKind> out;
  const GpuSide& side = model.gpu_side;
  for (uint32_t f = 0; f < model.files.size(); ++f) {
    if (f < model.file_nccl_lines.size() && model.file_nccl_lines[f] > 0) out.push_back({model.files[f], "nccl-log"});
    for (const auto& [file, kind] : side.input_kinds) {
      if (file == f) out.push_back({model.files[f], side_kind_name(kind)});
    }
    auto in_file = [f](const auto& r) { return r.line.file == f; };
    if (std::any_of(model.probe_records.begin(), model.probe_records.end(), in_file) ||
        std::any_of(model.probe_problems.begin(), model.probe_problems.end(), in_file)) {
      out.push_back({model.files[f], "probe-record"});
    }
    if (f < model.file_binding_lines.size() && model.file_binding_lines[f] > 0) {
      out.push_back({model.files[f], "bindings"});
    }
  }
  return out;
}

GpuRow gpu_row(const GpuTrack& g) {
  GpuRow row;
  row.host = g.host;
  row.index = g.index;
  row.name = g.name;
  row.bus_id = g.bus_id;
  row.samples = g.samples;
  if (g.util_samples > 0) row.util_mean = g.util_sum / static_cast<double>(g.util_samples);
  row.util_max = g.util_max;
  if (!g.util_series.empty()) row.util_p10 = steady_util(g.util_series, 0).p10;
  row.mem_used_mib = g.mem_used_mib;
  row.mem_total_mib = g.mem_total_mib;
  row.power_max_w = g.power_max_w;
  for (const auto& p : g.processes) row.processes.push_back({p.pid, p.mem_mib, p.type, p.name});
  return row;
}

TopologyRow topology_row(const TopologyFact& t) {
  TopologyRow row;
  row.host = t.host;
  row.links = t.matrix.links;
  for (const auto& d : t.matrix.devices) {
    if (is_gpu_device(d)) {
      ++row.gpus;
    } else {
      row.nics.push_back(d);
    }
  }
  for (const auto& d : t.matrix.devices) {
    if (!is_gpu_device(d)) continue;
    if (auto nearest = nearest_nic(t.matrix, d)) row.nearest_nic[d] = {nearest->nic, nearest->path};
  }
  return row;
}

NcclTestsSummary tests_summary(const NcclTestsRun& run, const JobModel& model) {
  NcclTestsSummary s;
  s.op = run.op;
  // Rank 0 lists every rank; without that list, the command line says.
  s.ranks = run.rank_count().value_or(0);
  for (const auto& r : run.ranks) {
    if (!r.host.empty() && std::find(s.hosts.begin(), s.hosts.end(), r.host) == s.hosts.end()) s.hosts.push_back(r.host);
  }
  s.rows = run.rows.size();
  s.failures = run.failure_lines.size();
  for (const auto& row : run.rows) {
    for (const auto& busbw : {row.oop_busbw_gbs, row.ip_busbw_gbs}) {
      if (busbw && (!s.max_busbw_gbs || *busbw > *s.max_busbw_gbs)) {
        s.max_busbw_gbs = busbw;
        s.max_busbw_bytes = row.size_bytes;
      }
    }
    s.wrong += row.oop_wrong.value_or(0) + row.ip_wrong.value_or(0);
  }
  s.avg_busbw_gbs = run.avg_busbw_gbs;
  s.out_of_bounds_failed = run.out_of_bounds_failed;
  if (const NcclTestsRow* row = largest_row(run)) {
    s.largest_bytes = row->size_bytes;
    s.largest_busbw_gbs = row_busbw(*row);
  }
  if (auto expected = expected_busbw(run, model)) {
    s.expected_gbs = expected->gbs;
    s.expected_source = expected->source;
  }
  return s;
}

}  // namespace

GpuSideSummary summarize_gpu_side(const JobModel& model) {
  GpuSideSummary s;
  s.inputs = input_kinds(model);
  for (const auto& g : model.gpu_side.gpus) s.gpus.push_back(gpu_row(g));
  for (const auto& t : model.gpu_side.topologies) s.topology.push_back(topology_row(t));
  for (const auto& t : model.gpu_side.nccl_tests) s.nccl_tests.push_back(tests_summary(t.run, model));
  s.timelines = model.gpu_side.timelines.size();
  for (const auto& r : model.probe_records) s.probe_records.push_back({r.host, model.files[r.line.file], r.line.line});
  s.probe_problems = model.probe_problems.size();
  return s;
}

}  // namespace nd
