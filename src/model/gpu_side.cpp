#include "src/model/gpu_side.h"

#include "src/model/job_model.h"

#include <algorithm>
#include <cmath>

namespace nd {
namespace {

// Keeps every stride-th value, at most `cap`: when full, drops every other
// value and doubles the stride, so the series spans the whole run.
void keep_sampled(std::vector<float>& series, uint32_t& stride, uint64_t seen, double value, size_t cap) {
  if (seen % stride != 0) return;
  if (series.size() == cap) {
    for (size_t i = 0; i < cap / 2; ++i) series[i] = series[2 * i];
    series.resize(cap / 2);
    stride *= 2;
    if (seen % stride != 0) return;
  }
  series.push_back(static_cast<float>(value));
}

// Whether two names nvidia-smi printed can be one GPU's: equal, or one the
// other cut short (`NVIDIA H100 80GB HB...`); unknown names can.
bool same_model(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return true;
  auto cut = [](std::string_view& n) {
    bool was_cut = n.ends_with("...");
    if (was_cut) n.remove_suffix(3);
    return was_cut;
  };
  bool a_cut = cut(a), b_cut = cut(b);
  if (a_cut && b.starts_with(a)) return true;
  if (b_cut && a.starts_with(b)) return true;
  return a == b;
}

void raise(std::optional<double>& best, const std::optional<double>& v) {
  if (v && (!best || *v > *best)) best = v;
}

}  // namespace

void GpuSideBuilder::set_file_host(uint32_t file, std::string host) {
  file_hosts_[file] = std::move(host);
  last_ = nullptr;
}

GpuSideBuilder::Stream& GpuSideBuilder::stream(uint32_t file, std::string_view host) {
  // Lines of one stream come in runs: most lines need no lookup.
  if (last_ && last_->file == file && last_->prefix_host == host) return *last_;
  std::string name(host);
  if (name.empty()) {
    auto it = file_hosts_.find(file);
    if (it != file_hosts_.end()) name = it->second;
  }
  auto key = std::make_tuple(file, name);
  auto it = streams_.find(key);
  if (it == streams_.end()) {
    it = streams_.try_emplace(key).first;
    it->second.file = file;
    it->second.host = name;
  }
  last_ = &it->second;
  last_->prefix_host.assign(host);
  return it->second;
}

void GpuSideBuilder::add(LineRef ref, const ParsedLines::OtherLine& line) {
  if (line.opens_host_section) {
    file_hosts_[ref.file] = std::string(line.launcher_host);
    last_ = nullptr;  // the unprefixed lines of this file change stream
    return;
  }
  Stream& s = stream(ref.file, line.launcher_host);
  if (!s.stream.feed(line.payload, ref.line)) return;
  // Records cite only lines a reader took.
  auto& slot = s.recent[s.next++ % s.recent.size()];
  slot.first = ref.line;
  slot.second.assign(line.payload);
  drain(s);
}

void GpuSideBuilder::cite(const Stream& s, uint64_t line) {
  if (texts_.size() >= cap_ || line == 0) return;
  for (const auto& [number, text] : s.recent) {
    if (number == line) {
      texts_.add(JobModel::key_of(LineRef{s.file, static_cast<uint32_t>(line)}), text);
      return;
    }
  }
}

// The lines a rule may cite of the blocks the readers ended since the last call.
void GpuSideBuilder::cite_documents(Stream& s) {
  const GpuRecords& r = s.stream.records;
  size_t documents = r.topologies.size() + r.timelines.size();
  if (documents != s.documents) {
    s.documents = documents;
    for (const auto& t : r.topologies) cite(s, t.line);
    for (const auto& t : r.timelines) cite(s, t.line);
  }
  // Only the last run known can still grow.
  for (size_t i = s.cited_runs.empty() ? 0 : s.cited_runs.size() - 1; i < r.nccl_tests.size(); ++i) {
    const NcclTestsRun& run = r.nccl_tests[i];
    if (i == s.cited_runs.size()) {
      s.cited_runs.emplace_back(0, 0);
      cite(s, run.line);
    }
    auto& [rows, failures] = s.cited_runs[i];
    for (; rows < run.rows.size(); ++rows) cite(s, run.rows[rows].line);
    for (; failures < run.failure_lines.size(); ++failures) cite(s, run.failure_lines[failures]);
  }
}

void GpuSideBuilder::drain(Stream& s) {
  GpuRecords& r = s.stream.records;
  for (const auto& sample : r.samples) add_sample(s, sample);
  for (const auto& p : r.processes) add_process(s, p);
  cite_documents(s);
  r.samples.clear();
  r.processes.clear();
  for (SideKind k : r.kinds) {
    auto entry = std::make_pair(s.file, k);
    if (std::find(side_.input_kinds.begin(), side_.input_kinds.end(), entry) == side_.input_kinds.end()) {
      side_.input_kinds.push_back(entry);
    }
  }
}

GpuTrack& GpuSideBuilder::track(uint32_t file, const std::string& host, const std::optional<uint32_t>& index,
                                const std::string& bus_id, const std::string& uuid, std::string_view name) {
  GpuTrack* found = nullptr;
  for (auto& g : side_.gpus) {
    if (g.host != host) continue;
    bool same = (index && g.index == index) || (!bus_id.empty() && g.bus_id == bus_id) ||
                (!uuid.empty() && g.uuid == uuid);
    // Two identifiers that disagree name two GPUs; so do two models.
    bool differs = (index && g.index && g.index != index) || (!bus_id.empty() && !g.bus_id.empty() && g.bus_id != bus_id) ||
                   (!uuid.empty() && !g.uuid.empty() && g.uuid != uuid) || !same_model(g.name, name);
    if (same && !differs) {
      if (!found || (g.last.file == file && found->last.file != file)) found = &g;
    }
  }
  if (found) {
    if (!found->index) found->index = index;
    if (found->bus_id.empty()) found->bus_id = bus_id;
    if (found->uuid.empty()) found->uuid = uuid;
    return *found;
  }
  if (side_.gpus.size() == GpuSide::kMaxGpus) return side_.gpus.back();
  GpuTrack& g = side_.gpus.emplace_back();
  g.host = host;
  g.index = index;
  g.bus_id = bus_id;
  g.uuid = uuid;
  return g;
}

void GpuSideBuilder::add_sample(Stream& s, const GpuSample& x) {
  std::string bus = canonical_bus_id(x.bus_id);
  if (!x.index && bus.empty() && x.uuid.empty()) return;  // no GPU to put it on
  GpuTrack& g = track(s.file, s.host, x.index, bus, x.uuid, x.name);
  LineRef ref{s.file, static_cast<uint32_t>(std::min<uint64_t>(x.line, UINT32_MAX))};
  if (g.samples++ == 0) {
    g.first = ref;
    cite(s, x.line);
  }
  g.last = ref;
  if (!x.name.empty() && (g.name.empty() || g.name.ends_with("..."))) g.name = x.name;
  if (x.util_pct) {
    g.util_sum += *x.util_pct;
    raise(g.util_max, x.util_pct);
    keep_sampled(g.util_series, g.util_stride, g.util_samples, *x.util_pct, GpuTrack::kMaxSeries);
    ++g.util_samples;
  }
  if (x.mem_used_mib) g.mem_used_mib = x.mem_used_mib;
  raise(g.mem_used_peak_mib, x.mem_used_mib);
  raise(g.mem_total_mib, x.mem_total_mib);
  raise(g.power_max_w, x.power_w);
  raise(g.power_limit_w, x.power_limit_w);
  raise(g.max_sm_clock_mhz, x.max_sm_clock_mhz);
  raise(g.max_sm_clock_mhz, x.sm_clock_mhz);
  if (x.util_pct && *x.util_pct >= GpuTrack::kLoaded) {
    bool violated = (x.power_violation && *x.power_violation > 0) || (x.thermal_violation && *x.thermal_violation > 0);
    if (violated && g.violation_samples++ == 0) {
      g.first_violation = ref;
      cite(s, x.line);
    }
    if (x.sm_clock_mhz) {
      keep_sampled(g.loaded_sm_clocks, g.clock_stride, g.loaded_samples, *x.sm_clock_mhz, GpuTrack::kMaxSeries);
    }
    ++g.loaded_samples;
  }
}

void GpuSideBuilder::add_process(Stream& s, const GpuProcess& p) {
  std::string bus = canonical_bus_id(p.gpu_bus_id);
  if (!p.gpu_index && bus.empty() && p.gpu_uuid.empty()) {
    if (s.unplaced.size() < GpuTrack::kMaxProcesses) {
      s.unplaced.push_back(p);
      cite(s, p.line);
    }
    return;
  }
  GpuTrack& g = track(s.file, s.host, p.gpu_index, bus, p.gpu_uuid, {});
  LineRef ref{s.file, static_cast<uint32_t>(std::min<uint64_t>(p.line, UINT32_MAX))};
  // A table printed in a loop lists the same processes again: keep the
  // latest memory figure.
  for (auto& known : g.processes) {
    if (known.pid && known.pid == p.pid && (p.type.empty() || known.type.empty() || known.type == p.type)) {
      if (p.mem_mib) known.mem_mib = p.mem_mib;
      if (known.type.empty()) known.type = p.type;
      if (known.name.empty() || known.name.ends_with("...")) known.name = p.name.empty() ? known.name : p.name;
      known.mps_server = known.mps_server || p.mps_server;
      return;
    }
  }
  if (g.processes.size() < GpuTrack::kMaxProcesses) {
    g.processes.push_back({p.pid, p.type, p.name, p.mem_mib, ref, p.gpu_instance, p.mps_server});
    cite(s, p.line);
  }
}

// The rows go to the one GPU the same input shows of the host, when what
// they hold fits in what it has in use: a table cut after GPU 0, or a query
// with `-i 0`, shows one GPU of several, whose memory the others' processes
// do not fit in.
void GpuSideBuilder::place_unplaced(Stream& s) {
  if (s.unplaced.empty()) return;
  const GpuTrack* only = nullptr;
  for (const auto& g : side_.gpus) {
    if (g.host != s.host) continue;
    if (only) return;  // several GPUs: the rows cannot be told apart
    only = &g;
  }
  if (!only || only->first.file != s.file || !only->mem_used_peak_mib) return;
  double held = 0;
  for (const GpuProcess& p : s.unplaced) {
    if (!p.mem_mib) return;
    held += *p.mem_mib;
  }
  if (held > *only->mem_used_peak_mib * 1.05 + 64) return;
  const std::optional<uint32_t> index = only->index;
  const std::string bus = only->bus_id, uuid = only->uuid;
  std::vector<GpuProcess> rows = std::move(s.unplaced);
  s.unplaced.clear();
  for (GpuProcess& p : rows) {
    p.gpu_index = index;
    p.gpu_bus_id = bus;
    p.gpu_uuid = uuid;
    add_process(s, p);
  }
}

void GpuSideBuilder::finish(GpuSide& side) {
  for (auto& [key, s] : streams_) {
    s.stream.finish();
    drain(s);
  }
  for (auto& [key, s] : streams_) {
    place_unplaced(s);
    GpuRecords& r = s.stream.records;
    auto cap = [](auto& v) { return v.size() < GpuSide::kMaxDocuments; };
    for (auto& t : r.topologies) {
      if (cap(side_.topologies)) side_.topologies.push_back({s.host, LineRef{s.file, static_cast<uint32_t>(t.line)}, std::move(t)});
    }
    for (auto& run : r.nccl_tests) {
      // A header alone (a noisy log that echoes one) is not a run; one that
      // lists its ranks is, though it measured nothing.
      if (run.rows.empty() && run.failure_lines.empty() && run.ranks.empty()) continue;
      if (cap(side_.nccl_tests)) side_.nccl_tests.push_back({LineRef{s.file, static_cast<uint32_t>(run.line)}, s.file, std::move(run)});
    }
    for (auto& t : r.timelines) {
      if (cap(side_.timelines)) side_.timelines.push_back({LineRef{s.file, static_cast<uint32_t>(t.line)}, std::move(t)});
    }
  }
  streams_.clear();
  last_ = nullptr;
  std::erase_if(side_.input_kinds, [&](const std::pair<uint32_t, SideKind>& k) {
    return k.second == SideKind::NcclTests &&
           std::none_of(side_.nccl_tests.begin(), side_.nccl_tests.end(),
                        [&](const NcclTestsFact& t) { return t.file == k.first; });
  });
  std::stable_sort(side_.gpus.begin(), side_.gpus.end(), [](const GpuTrack& a, const GpuTrack& b) {
    return std::tuple(a.host, !a.index, a.index.value_or(0), a.bus_id) <
           std::tuple(b.host, !b.index, b.index.value_or(0), b.bus_id);
  });
  auto by_ref = [](const auto& a, const auto& b) { return a.ref < b.ref; };
  std::stable_sort(side_.topologies.begin(), side_.topologies.end(), by_ref);
  std::stable_sort(side_.nccl_tests.begin(), side_.nccl_tests.end(), by_ref);
  std::stable_sort(side_.timelines.begin(), side_.timelines.end(), by_ref);
  std::sort(side_.input_kinds.begin(), side_.input_kinds.end());
  side = std::move(side_);
  side_ = GpuSide();
}

UtilStats steady_util(const std::vector<float>& series, double threshold) {
  UtilStats st;
  if (series.empty()) return st;
  std::vector<float> sorted = series;
  std::sort(sorted.begin(), sorted.end());
  double p90 = sorted[std::min(sorted.size() - 1, sorted.size() * 9 / 10)];
  double busy = p90 / 2;
  size_t begin = 0, end = series.size();
  while (begin < end && series[begin] < busy) ++begin;
  while (end > begin && series[end - 1] < busy) --end;
  if (begin == end) {  // never busy: the whole series is the steady state
    begin = 0;
    end = series.size();
  }
  std::vector<float> steady(series.begin() + static_cast<std::ptrdiff_t>(begin),
                            series.begin() + static_cast<std::ptrdiff_t>(end));
  st.samples = steady.size();
  double sum = 0;
  size_t below = 0;
  for (float v : steady) {
    sum += v;
    below += v < threshold;
  }
  st.mean = sum / static_cast<double>(steady.size());
  std::sort(steady.begin(), steady.end());
  st.p10 = steady[steady.size() / 10];
  st.dips = static_cast<double>(below) / static_cast<double>(steady.size());
  return st;
}

}  // namespace nd
