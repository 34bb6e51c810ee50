// What each process printed about itself and its setting: versions, driver,
// environment, WARNs, CPU affinity and bindings, graph shapes, and the
// framework's error lines.

#include <algorithm>

#include <fmt/format.h>

#include "src/model/model_builder.h"
#include "src/util/text.h"

namespace nd {

void ModelBuilder::on(const At& at, const VersionEvent& e) {
  remember_text(0, at.ref, at.raw);
  observe(model_.versions, e.version, at.host, at.pid, at.ref);
  if (!e.cuda.empty()) observe(model_.cuda_versions, e.cuda, at.host, at.pid, at.ref);
}

// The raw stdout banner: the launcher prefix, if any, names its host.
void ModelBuilder::add_banner(LineRef ref, const ParsedLines::Item& item) {
  const auto& v = std::get<VersionEvent>(item.event);
  uint32_t host = item.launcher_host.empty() ? kNoHost : resolve_host(item.launcher_host, false);
  observe(model_.versions, v.version, host, 0, ref);
  if (!v.cuda.empty()) observe(model_.cuda_versions, v.cuda, host, 0, ref);
  remember_text(0, ref, item.raw);
}

void ModelBuilder::on(const At& at, const CudaDriverEvent& e) {
  if (!model_.driver_versions.count(e.version)) remember_text(0, at.ref, at.raw);
  auto& list = model_.driver_versions[e.version];
  if (list.size() < JobModel::kMaxObservations && observed_.insert(SeenKey{&list, at.host, at.pid}).second) {
    list.push_back({at.host, at.pid, at.ref});
  }
}

void ModelBuilder::on(const At& at, const EnvEvent& e) {
  if (model_.env.size() >= JobModel::kMaxEnvSettings) return;
  if (!env_seen_.insert(fmt::format("{}\n{}\n{}", at.host, e.name, e.value)).second) return;
  remember_text(0, at.ref, at.raw);
  model_.env.push_back({std::string(e.name), valid_utf8(e.value), at.host, at.ref});
}

void ModelBuilder::on(const At& at, const WarnEvent& e) {
  if (e.note) add_net_note(at, *e.note);
  if (model_.warnings.size() >= JobModel::kMaxWarnings) {
    at.process.last_warn = SIZE_MAX;  // its frames must not extend an older WARN
    ++model_.warnings_dropped;
    return;
  }
  remember_text(0, at.ref, at.raw);
  std::string message = valid_utf8(e.message);
  WarnClass cls = classify_warn(message);
  if (cls.carries_on && at.process.last_warn < model_.warnings.size()) {
    // What failed before it was caught: NCCL goes on, so no error.
    WarnRecord& caught = model_.warnings[at.process.last_warn];
    caught.returned_to_caller = false;
    if (caught.cls.severity == WarnSeverity::Error) caught.cls.severity = WarnSeverity::Warning;
  }
  at.process.last_warn = model_.warnings.size();
  at.process.last_warn_tid = at.header.tid;
  at.process.last_warn_reach = at.ref;
  WarnRecord& w = model_.warnings.emplace_back();
  w.host = at.host;
  w.pid = at.pid;
  w.dev = at.header.dev;
  w.location = valid_utf8(e.location);
  w.message = std::move(message);
  w.line = at.ref;
  w.cls = std::move(cls);
}

void ModelBuilder::note_failed_call(const At& at, const ReturnTraceEvent& e) {
  Process& p = at.process;
  std::string where = fmt::format("{}:{}", valid_utf8(e.file), e.line);
  if (!e.thread.empty()) where += fmt::format(" [{}]", valid_utf8(e.thread));
  if (p.failed_call >= model_.failed_calls.size()) {
    if (model_.failed_calls.size() >= JobModel::kMaxWarnings) return;
    p.failed_call = model_.failed_calls.size();
    FailedCallRecord& r = model_.failed_calls.emplace_back();
    r.host = at.host;
    r.pid = at.pid;
    r.dev = at.header.dev;
    r.first_at = where;
    r.first = at.ref;
    r.in_init = std::find(p.devs_in_init.begin(), p.devs_in_init.end(), at.header.dev) != p.devs_in_init.end() ||
                (!p.saw_start && p.rec.init_completes == 0);
  }
  FailedCallRecord& r = model_.failed_calls[p.failed_call];
  if (r.frames++ < 16) remember_text(0, at.ref, at.raw);  // a finding cites the first and the last frame
  r.code = e.code;
  r.last_at = std::move(where);
  r.last = at.ref;
  r.reached_caller = r.reached_caller || e.api_frame;
  r.reached_group = r.reached_group || e.group_frame;
}

void ModelBuilder::on(const At& at, const ReturnTraceEvent& e) {
  // Frames follow their WARN within a screenful, other threads' lines between.
  constexpr uint32_t kMaxGap = 64;
  Process& p = at.process;
  if (e.code == 0) return;
  if (p.last_warn >= model_.warnings.size()) {
    note_failed_call(at, e);
    return;
  }
  if (p.last_warn_tid != at.header.tid || p.last_warn_reach.file != at.ref.file || at.ref.line < p.last_warn_reach.line ||
      at.ref.line - p.last_warn_reach.line > kMaxGap) {
    return;
  }
  WarnRecord& w = model_.warnings[p.last_warn];
  p.last_warn_reach = at.ref;
  w.returned_code = e.code;
  w.returned_at = fmt::format("{}:{}", valid_utf8(e.file), e.line);
  // A fallback NCCL announces (CollNet) is caught above the frames it prints.
  if (e.on_failing_path && !w.cls.carries_on && !w.returned_to_caller) {
    w.returned_to_caller = true;
    bool in_init = std::find(p.devs_in_init.begin(), p.devs_in_init.end(), w.dev) != p.devs_in_init.end() ||
                   (!p.saw_start && p.rec.init_completes == 0);
    if (in_init && p.failed_in_init.size() < 64) p.failed_in_init.push_back(p.last_warn);
  }
}

void ModelBuilder::on(const At& at, const AffinityEvent& e) {
  if (model_.affinities.size() >= JobModel::kMaxTopologyRecords) return;
  if (!affinity_keys_.emplace(at.host, at.pid, e.gpu).second) return;
  AffinityRecord r;
  r.host = at.host;
  r.pid = at.pid;
  r.gpu = e.gpu;
  r.empty = e.empty;
  if (!e.affinity.empty()) r.affinity = e.hex_mask ? parse_cpu_mask(e.affinity) : parse_cpu_list(e.affinity);
  if (!e.gpu_affinity.empty()) r.gpu_set = parse_cpu_list(e.gpu_affinity);
  if (!e.cpu_affinity.empty()) r.cpu_set = parse_cpu_list(e.cpu_affinity);
  r.line = at.ref;
  remember_text(0, at.ref, at.raw);
  model_.affinities.push_back(std::move(r));
}

void ModelBuilder::on(const At& at, const GraphPatternEvent& e) {
  if (model_.graph_patterns.size() >= JobModel::kMaxTopologyRecords) return;
  if (!pattern_keys_.emplace(at.host, e.pattern, e.nchannels, std::string(e.type_intra), std::string(e.type_inter))
           .second) {
    return;
  }
  remember_text(0, at.ref, at.raw);
  model_.graph_patterns.push_back({at.host, at.pid, e.pattern, e.nchannels, e.bw_intra, e.bw_inter,
                                   std::string(e.type_intra), std::string(e.type_inter), at.ref});
}

void ModelBuilder::add_binding(LineRef ref, std::string_view clean, const BindingLine& b) {
  if (model_.bindings.size() >= JobModel::kMaxTopologyRecords) return;
  uint32_t host_id = b.host.empty() ? kNoHost : resolve_host(b.host, false);
  if (!binding_keys_.emplace(static_cast<int>(b.source), host_id, b.task).second) return;
  remember_text(0, ref, clean);
  model_.bindings.push_back({b.source, host_id, b.pid, b.task, b.unbound, b.whole_sockets, b.unit, b.cpus, ref});
}

void ModelBuilder::add_framework_line(LineRef ref, const FrameworkLine& f) {
  // Its message is on the next line: apply() carries that over.
  if (f.opens_last_error) return;
  if (f.kind == FrameworkKind::LastError && f.text.empty()) return;
  if (f.kind == FrameworkKind::CrashFrame) {
    // The crash report comes first, its backtrace right after it.
    for (auto it = model_.framework_errors.rbegin(); it != model_.framework_errors.rend(); ++it) {
      if (it->kind != FrameworkKind::Crash) continue;
      if (it->line.file == ref.file && ref.line >= it->line.line && ref.line - it->line.line <= 64) it->in_nccl = true;
      break;
    }
    return;
  }
  if (model_.framework_errors.size() >= JobModel::kMaxWarnings) {
    ++model_.warnings_dropped;
    return;
  }
  FrameworkRecord r;
  r.kind = f.kind;
  // Only a host the log already knows: `torch.distributed.DistBackendError: `
  // looks like a pdsh prefix too.
  if (!f.launcher_host.empty()) {
    if (auto id = model_.hosts.find(f.launcher_host)) r.host = *id;
  }
  r.launcher_rank = f.launcher_rank;
  r.text = f.text;
  r.line = ref;
  r.watchdog = f.watchdog;
  r.stuck = f.stuck;
  r.nccl_error = f.nccl_error;
  r.cls = f.cls;
  r.crash = f.crash;
  remember_text(0, ref, f.clean);
  model_.framework_errors.push_back(std::move(r));
  // "NCCL error in: ..." is followed by a detail line, then `Last error:`.
}

void ModelBuilder::mark_init_phase(Process& p, LineRef ref, std::string_view raw) {
  if (p.rec.init_phase) return;
  p.rec.init_phase = true;
  p.rec.init_phase_line = ref;
  remember_text(0, ref, raw);
}

}  // namespace nd
