#include "src/model/model_builder.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "parsers/envelope.h"
#include "parsers/fast_shapes.h"
#include "parsers/net_notes.h"
#include "parsers/nccl_prefix.h"
#include "src/util/text.h"

namespace nd {

RankInfo& Communicator::rank(uint32_t r) {
  if (r >= ranks.size()) ranks.resize(static_cast<size_t>(r) + 1);
  return ranks[r];
}

const std::string* JobModel::text_of(LineRef ref) const {
  auto it = line_text.find(key_of(ref));
  return it == line_text.end() ? nullptr : &it->second;
}

std::string JobModel::where(LineRef ref) const {
  const std::string& file = ref.file < files.size() ? files[ref.file] : std::string("?");
  return fmt::format("{}:{}", file, ref.line);
}

uint64_t synthetic_pid(const SyntheticProcess& p) {
  auto value = static_cast<uint32_t>(p.value + 1);  // -1, no device, is 0
  return kSyntheticPid | (uint64_t{static_cast<uint8_t>(p.source)} << 56) | (uint64_t{p.launcher} << 48) |
         (uint64_t{p.file & 0xffff} << 32) | value;
}

SyntheticProcess synthetic_process(uint64_t pid) {
  SyntheticProcess p;
  p.source = static_cast<SyntheticSource>((pid >> 56) & 0x3f);
  p.launcher = static_cast<uint8_t>(pid >> 48);
  p.file = static_cast<uint32_t>((pid >> 32) & 0xffff);
  p.value = static_cast<int64_t>(pid & 0xffffffff) - 1;
  return p;
}

std::string JobModel::process_name(uint32_t host, uint64_t pid) const {
  if (!is_synthetic_pid(pid)) return fmt::format("{} pid {}", host_name(host), pid);
  SyntheticProcess p = synthetic_process(pid);
  if (p.source == SyntheticSource::Device) {
    return p.value < 0 ? fmt::format("{}, no pid", host_name(host)) : fmt::format("{}, device {}", host_name(host), p.value);
  }
  const char* what = "launcher rank";
  switch (static_cast<Launcher>(p.launcher)) {
    case Launcher::OpenMpi: what = "Open MPI rank"; break;
    case Launcher::Slurm: what = "srun task"; break;
    case Launcher::Hydra: what = "Hydra rank"; break;
    case Launcher::Torchrun: what = "torchrun rank"; break;
    default: break;
  }
  return fmt::format("{}, {} {}", host_name(host), what, p.value);
}

uint32_t ModelBuilder::add_file(std::string display_name) {
  model_.files.push_back(std::move(display_name));
  return static_cast<uint32_t>(model_.files.size() - 1);
}

void ParsedLines::clear() {
  items.clear();
  expect_last_error = false;
  first_text = {};
  first_number = first_items = first_nccl = first_info = first_warn = first_spliced = 0;
  bindings.clear();
  lines = truncated_lines = nccl_lines = info_lines = warn_lines = spliced_lines = 0;
  cleaned.clear();
  hosts.clear();
}

namespace {

// Every line the model uses holds "NCCL ": hop on the rare 'N'.
bool has_nccl(std::string_view s) {
  size_t pos = 0;
  while (pos + 5 <= s.size()) {
    const void* hit = std::memchr(s.data() + pos, 'N', s.size() - 4 - pos);
    if (!hit) return false;
    pos = static_cast<size_t>(static_cast<const char*>(hit) - s.data());
    if (std::memcmp(s.data() + pos, "NCCL ", 5) == 0) return true;
    ++pos;
  }
  return false;
}

}  // namespace

void ModelBuilder::add_line(uint32_t file, const Line& line) {
  single_.clear();
  parse_line(line, single_);
  apply(file, 0, single_);
}

namespace {

// True when `text` ends in `Last error:` with nothing after it: the message
// is on the next line. The same test as add_framework_line() makes.
bool holds_nccl_marker(std::string_view text) { return memmem(text.data(), text.size(), " NCCL ", 6) != nullptr; }

bool opens_last_error(std::string_view text, std::string& scratch) {
  std::string_view payload = strip_envelope(strip_control(text, scratch)).payload;
  size_t pos = payload.find("Last error:");
  if (pos == std::string_view::npos) return false;
  payload = payload.substr(pos + 11);
  while (!payload.empty() && payload.front() == ' ') payload.remove_prefix(1);
  return payload.empty();
}

void add_framework_item(ParsedLines& out, const Line& line, FrameworkKind kind, std::string_view raw,
                        ParsedLines::Kind item_kind = ParsedLines::Kind::Framework) {
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = item_kind;
  item.framework = kind;
  item.line = line.number;
  item.raw = raw;
}

}  // namespace

bool ModelBuilder::needs_line_by_line(std::string_view first_line) {
  return memmem(first_line.data(), first_line.size(), "Last error:", 11) != nullptr;
}

void ModelBuilder::parse_line(const Line& line, ParsedLines& out) {
  if (out.lines > 0) return parse_one_line(line, out);
  // The first line of a batch may turn out to be the message of a `Last
  // error:` line in the batch before; apply() then takes it back.
  uint64_t nccl = out.nccl_lines, info = out.info_lines, warn = out.warn_lines, spliced = out.spliced_lines;
  parse_one_line(line, out);
  out.first_text = line.text;
  out.first_number = line.number;
  out.first_items = out.items.size();
  out.first_nccl = out.nccl_lines - nccl;
  out.first_info = out.info_lines - info;
  out.first_warn = out.warn_lines - warn;
  out.first_spliced = out.spliced_lines - spliced;
}

namespace {

// The bulk of a COLL log is one per-operation INFO line per call and rank.
// Such a line only counts, once its process's host is known. The caller has
// made sure that `marker` is the line's only " NCCL " and that the line holds
// no control byte or CR.
bool counts_only_at(std::string_view text, size_t marker, const ParsedLines& out) {
  auto known = [&](std::string_view host) {
    return (out.known_hosts && out.known_hosts->contains(host)) || out.hosts.contains(host);
  };
  if (size_t host_end = leading_per_operation_host(text, marker)) return known(text.substr(0, host_end));
  auto host = per_operation_host(text, marker);
  if (!host || !known(*host)) return false;
  // A header the envelope stripper would not leave at the start: full path.
  return host->data() == text.data() || strip_envelope(text).payload.data() == host->data();
}

bool counts_only(std::string_view text, const ParsedLines& out) {
  // glibc's memmem is several times slower than hopping on the 'N'.
  size_t marker = find_nccl_word(text);
  if (marker == std::string_view::npos || marker + 11 > text.size()) return false;
  if (find_nccl_word(text, marker + 11) != std::string_view::npos || has_control_or_cr(text)) return false;
  return counts_only_at(text, marker, out);
}

}  // namespace

void ModelBuilder::parse_marked_line(const Line& line, size_t marker, ParsedLines& out) {
  // What parse_one_line() would do first: the first line of a batch, a line
  // after `Last error:` and a cut line each take the full path.
  if (marker == std::string_view::npos || out.lines == 0 || out.expect_last_error || line.truncated) return parse_line(line, out);
  if (!counts_only_at(line.text, marker, out)) return parse_one_line(line, out, /*try_count=*/false);
  ++out.lines;
  ++out.nccl_lines;
  ++out.info_lines;
}

void ModelBuilder::parse_one_line(const Line& line, ParsedLines& out, bool try_count) {
  ++out.lines;
  if (line.truncated) ++out.truncated_lines;
  // `Last error:` puts ncclGetLastError's text on the next line, which holds
  // no marker of its own (launcher-output.md §5.2).
  if (out.expect_last_error) {
    out.expect_last_error = false;
    // The body may be empty; then the next line is anything, NCCL's own included.
    if (!holds_nccl_marker(line.text)) {
      add_framework_item(out, line, FrameworkKind::LastError, line.text, ParsedLines::Kind::LastErrorText);
      out.expect_last_error = opens_last_error(line.text, out.scratch);
      return;
    }
  }
  if (try_count && counts_only(line.text, out)) {
    ++out.nccl_lines;
    ++out.info_lines;
    return;
  }
  // Cheap reject: every NCCL line the model uses holds "NCCL "; the others it
  // reads are launcher binding reports ("bound to", "cpu-bind") and PyTorch's
  // watchdog and `Last error:` lines.
  if (!has_nccl(line.text)) {
    if (line.text.size() >= 11) {
      if (has_binding_needle(line.text)) {
        parse_binding_line(line, out);
      } else if (memmem(line.text.data(), line.text.size(), "Watchdog caught", 15)) {
        add_framework_item(out, line, FrameworkKind::WatchdogTimeout, line.text);
      } else if (memmem(line.text.data(), line.text.size(), "Last error:", 11)) {
        add_framework_item(out, line, FrameworkKind::LastError, line.text);
        out.expect_last_error = opens_last_error(line.text, out.scratch);
      }
    }
    return;
  }
  std::string_view clean = line.text;
  bool special = has_control_or_cr(clean);
  if (special) {
    clean = strip_control(line.text, out.scratch);
    if (clean.data() == out.scratch.data()) {
      out.cleaned.push_back(std::move(out.scratch));
      clean = out.cleaned.back();
      out.scratch = std::string();
    }
  }
  // tqdm-style carriage returns put several screen lines in one; each counts.
  while (!clean.empty()) {
    size_t cr = special ? clean.find('\r') : std::string_view::npos;
    std::string_view segment = clean.substr(0, cr);
    clean = cr == std::string_view::npos ? std::string_view{} : clean.substr(cr + 1);
    Envelope env = strip_envelope(segment);
    HeaderScan scan = scan_nccl_headers(env.payload);
    if (scan.count == 0) {
      if (env.payload.find("NCCL error") != std::string_view::npos ||
          env.payload.find("Watchdog caught") != std::string_view::npos) {
        add_framework_item(out, line,
                           env.payload.find("Watchdog caught") != std::string_view::npos
                               ? FrameworkKind::WatchdogTimeout
                               : FrameworkKind::NcclError,
                           segment);
        continue;
      }
      std::string_view rest;
      if (is_raw_banner(env.payload, rest)) {
        Event ev = classify_message(env.payload);
        if (std::holds_alternative<VersionEvent>(ev)) {
          ParsedLines::Item& item = out.items.emplace_back();
          item.kind = ParsedLines::Kind::Banner;
          item.line = line.number;
          item.raw = segment;
          item.header.host = env.launcher_host;
          item.event = ev;
        }
      }
      continue;
    }
    if (scan.spliced) ++out.spliced_lines;
    // A paste that lost its newlines holds a whole log in one line: the scan
    // stops at kMaxHeadersPerLine, so scan again from the last header found.
    std::string_view scanned = env.payload;
    for (bool first_scan = true;; first_scan = false) {
      bool more = scan.count == kMaxHeadersPerLine;
      size_t use = more ? scan.count - 1 : scan.count;
      for (size_t i = 0; i < use; ++i) {
        const NcclHeader& h = scan.headers[i];
        ++out.nccl_lines;
        if (h.level == Level::Warn) ++out.warn_lines;
        if (h.level == Level::Info) ++out.info_lines;
        bool spliced = !first_scan || i > 0 || h.column > 0;
        bool named = h.host_form == HostForm::Named;
        // classify() takes a per-operation message for IgnoredEvent at once.
        bool per_op = is_per_operation(h.payload);
        bool plain = h.level == Level::Info || h.level == Level::Abort || h.level == Level::Version;
        Event ev = per_op && plain ? Event{IgnoredEvent{}} : classify(h);
        auto kind = ParsedLines::Kind::Message;
        if (per_op && std::holds_alternative<IgnoredEvent>(ev)) {
          // Without a host of its own, only a launcher's host could be news.
          if (!named && env.launcher_host.empty()) continue;
          if (named && !spliced && ((out.known_hosts && out.known_hosts->contains(h.host)) || out.hosts.contains(h.host))) {
            continue;
          }
          kind = ParsedLines::Kind::HostSighting;
        }
        if (!spliced && named) out.hosts.insert(h.host);
        ParsedLines::Item& item = out.items.emplace_back();
        item.kind = kind;
        item.spliced = spliced;
        item.line = line.number;
        item.raw = segment;
        if (more || !first_scan) {
          // One message of a flattened log: cite it, not the whole log.
          size_t end = i + 1 < scan.count ? scan.headers[i + 1].column : scanned.size();
          item.raw = scanned.substr(h.column, end - h.column);
        }
        item.header = h;
        item.event = std::move(ev);
        if (!named) {
          item.launcher_host = env.launcher_host;
          item.launcher_rank = env.launcher_rank;
          item.rank_from = env.rank_from;
        }
      }
      if (!more) break;
      scanned = scanned.substr(scan.headers[use].column);
      scan = scan_nccl_headers(scanned);
    }
  }
}

namespace {

// The launcher's host of a pdsh/clush line, as NCCL would print it: cut at
// the first dot, unless it is an IPv4 address.
std::string_view launcher_host_name(std::string_view host) {
  bool ip = host.find_first_not_of("0123456789.") == std::string_view::npos;
  return ip ? host : host.substr(0, host.find('.'));
}

}  // namespace

void ModelBuilder::apply(uint32_t file, uint64_t line_base, const ParsedLines& parsed) {
  auto& c = model_.counters;
  c.lines += parsed.lines;
  c.truncated_lines += parsed.truncated_lines;
  c.nccl_lines += parsed.nccl_lines;
  c.info_lines += parsed.info_lines;
  c.warn_lines += parsed.warn_lines;
  c.spliced_lines += parsed.spliced_lines;
  size_t first = 0;
  if (expect_last_error_ && parsed.lines > 0 && !holds_nccl_marker(parsed.first_text)) {
    // The batch's first line is the message of the batch before's last line.
    expect_last_error_ = false;
    c.nccl_lines -= parsed.first_nccl;
    c.info_lines -= parsed.first_info;
    c.warn_lines -= parsed.first_warn;
    c.spliced_lines -= parsed.first_spliced;
    first = parsed.first_items;
    LineRef ref{file, static_cast<uint32_t>(std::min<uint64_t>(line_base + parsed.first_number, UINT32_MAX))};
    add_framework_line(FrameworkKind::LastError, ref, parsed.first_text);
  }
  for (size_t k = first; k < parsed.items.size(); ++k) {
    const auto& item = parsed.items[k];
    // Only a `Last error:` line just before the batch's end carries over.
    expect_last_error_ = false;
    LineRef ref{file, static_cast<uint32_t>(std::min<uint64_t>(line_base + item.line, UINT32_MAX))};
    switch (item.kind) {
      case ParsedLines::Kind::Framework:
        add_framework_line(item.framework, ref, item.raw);
        break;
      case ParsedLines::Kind::LastErrorText:
        expect_last_error_ = false;
        add_framework_line(item.framework, ref, item.raw);
        break;
      case ParsedLines::Kind::Message:
        handle(ref, identify(ref, item, true), item.raw, item.header, item.event);
        break;
      case ParsedLines::Kind::HostSighting:
        identify(ref, item, false);
        break;
      case ParsedLines::Kind::Binding:
        add_binding(ref, item.raw, &parsed.bindings[item.index]);
        break;
      case ParsedLines::Kind::Banner: {
        const auto& v = std::get<VersionEvent>(item.event);
        std::string_view launcher_host = launcher_host_name(item.header.host);
        uint32_t host = launcher_host.empty() || is_placeholder_host(launcher_host) ? kNoHost : resolve_host(launcher_host, false);
        observe(model_.versions, v.version, host, 0, ref);
        if (!v.cuda.empty()) observe(model_.cuda_versions, v.cuda, host, 0, ref);
        remember_text(0, ref, item.raw);
        break;
      }
    }
  }
}

std::shared_ptr<const NameSet> ModelBuilder::host_snapshot() {
  size_t known = host_snapshot_ ? host_snapshot_->size() : 0;
  size_t now = model_.hosts.size();
  // A host missing from the snapshot sends its per-operation lines down the
  // full path, so a stale snapshot is costly; rebuilding costs O(hosts).
  // Rebuild when the hosts have grown by an eighth, or when they have grown
  // at all and enough lines went by to pay for it.
  uint64_t lines = model_.counters.lines;
  if (now > known && (now > known + known / 8 || lines - snapshot_lines_ >= 16 * static_cast<uint64_t>(now))) {
    auto set = std::make_shared<NameSet>();
    for (const auto& name : model_.hosts.names()) set->insert(name);
    set->own();
    host_snapshot_ = std::move(set);
    snapshot_lines_ = lines;
  }
  return host_snapshot_;
}

ModelBuilder::Process& ModelBuilder::process(uint32_t host, uint64_t pid) {
  // A process prints its lines in runs; the last one found is often asked again.
  ProcessKey key{host, pid};
  if (last_process_ && last_process_key_ == key) return *last_process_;
  last_process_key_ = key;
  std::vector<std::pair<uint64_t, Process*>>* few = nullptr;
  if (host != kNoHost && host < (1u << 24)) {
    if (host >= host_processes_.size()) host_processes_.resize(static_cast<size_t>(host) + 1);
    few = &host_processes_[host];
    for (const auto& [p, proc] : *few) {
      if (p == pid) return *(last_process_ = proc);
    }
  }
  auto [it, added] = process_index_.try_emplace(key, nullptr);
  if (added) it->second = &processes_[{host, pid}];
  if (few && few->size() < 32) few->emplace_back(pid, it->second);
  last_process_ = it->second;
  return *it->second;
}

void ModelBuilder::parse_binding_line(const Line& line, ParsedLines& out) {
  std::string_view clean = strip_control(line.text, out.scratch);
  if (clean.data() == out.scratch.data()) {
    out.cleaned.push_back(std::move(out.scratch));
    clean = out.cleaned.back();
    out.scratch = std::string();
  }
  Envelope env = strip_envelope(clean);
  auto b = parse_binding(env.payload);
  if (!b) return;
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = ParsedLines::Kind::Binding;
  item.line = line.number;
  item.raw = clean;
  item.index = static_cast<uint32_t>(out.bindings.size());
  out.bindings.push_back(std::move(*b));
}

void ModelBuilder::add_binding(LineRef ref, std::string_view clean, const BindingLine* b) {
  if (model_.bindings.size() >= JobModel::kMaxTopologyRecords) return;
  // NCCL prints gethostname() cut at the first dot; launchers print it whole.
  std::string_view host = b->host.substr(0, b->host.find('.'));
  uint32_t host_id = host.empty() ? kNoHost : resolve_host(host, false);
  if (!binding_keys_.emplace(static_cast<int>(b->source), host_id, b->task).second) return;
  remember_text(0, ref, clean);
  model_.bindings.push_back({b->source, host_id, b->pid, b->task, b->unbound, b->whole_sockets, b->unit, b->cpus, ref});
}

void ModelBuilder::add_affinity(uint32_t host, uint64_t pid, LineRef ref, std::string_view raw, const AffinityEvent& e) {
  if (model_.affinities.size() >= JobModel::kMaxTopologyRecords) return;
  if (!affinity_keys_.emplace(host, pid, e.gpu).second) return;
  AffinityRecord r;
  r.host = host;
  r.pid = pid;
  r.gpu = e.gpu;
  r.empty = e.empty;
  if (!e.affinity.empty()) r.affinity = e.hex_mask ? parse_cpu_mask(e.affinity) : parse_cpu_list(e.affinity);
  if (!e.gpu_affinity.empty()) r.gpu_set = parse_cpu_list(e.gpu_affinity);
  if (!e.cpu_affinity.empty()) r.cpu_set = parse_cpu_list(e.cpu_affinity);
  r.line = ref;
  remember_text(0, ref, raw);
  model_.affinities.push_back(std::move(r));
}

namespace {

// `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ...`: devices at
// brace depth 0 (2.20-2.23 merged NICs print `[0]={[0] mlx5_0:1/IB, ...}`).
uint32_t count_nics(std::string_view list) {
  uint32_t n = 0;
  int depth = 0;
  for (size_t i = 0; i < list.size() && list[i] != ';'; ++i) {
    char c = list[i];
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == '[' && depth == 0 && i + 1 < list.size() && list[i + 1] >= '0' && list[i + 1] <= '9') ++n;
  }
  return n;
}

}  // namespace
void ModelBuilder::add_framework_line(FrameworkKind kind, LineRef ref, std::string_view text) {
  std::string_view clean = strip_control(text, scratch_);
  Envelope env = strip_envelope(clean);
  std::string_view payload = env.payload;
  // A `Last error:` body may sit on the same line ("Last error: socket...").
  if (kind == FrameworkKind::LastError) {
    if (size_t pos = payload.find("Last error:"); pos != std::string_view::npos) {
      payload = payload.substr(pos + 11);
      while (!payload.empty() && payload.front() == ' ') payload.remove_prefix(1);
      if (payload.empty()) {
        expect_last_error_ = true;
        return;
      }
    }
    if (payload.empty()) return;
  }
  if (model_.framework_errors.size() >= JobModel::kMaxWarnings) {
    ++model_.warnings_dropped;
    return;
  }
  FrameworkRecord r;
  r.kind = kind;
  // Only a host the log already knows: `torch.distributed.DistBackendError: `
  // looks like a pdsh prefix too.
  if (!env.launcher_host.empty()) {
    if (auto id = model_.hosts.find(env.launcher_host)) r.host = *id;
  }
  r.launcher_rank = env.launcher_rank;
  r.text = valid_utf8(payload.substr(0, 4096));
  r.line = ref;
  remember_text(0, ref, clean);
  model_.framework_errors.push_back(std::move(r));
  // "NCCL error in: ..." is followed by a detail line, then `Last error:`.
}

// `OOB ib0:10.0.4.19<0>`, `[0]eno1:192.168.50.11<0>`, `Bootstrap : Using ib0:10.1.0.10<0>`:
// every IPv4 address that ends in `<port>` belongs to this host.
void ModelBuilder::learn_addresses(std::string_view text, uint32_t host) {
  size_t pos = 0;
  while ((pos = text.find('<', pos)) != std::string_view::npos) {
    size_t start = pos;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
    std::string_view ip = text.substr(start, pos - start);
    ++pos;
    if (ip.size() < 7 || std::count(ip.begin(), ip.end(), '.') != 3 || start == 0 || text[start - 1] != ':') continue;
    if (model_.ip_hosts.size() < 100000) model_.ip_hosts.emplace(std::string(ip), host);
  }
}

void ModelBuilder::mark_init_phase(Process& p, LineRef ref, std::string_view raw) {
  if (p.init_phase) return;
  p.init_phase = true;
  p.init_phase_line = ref;
  remember_text(0, ref, raw);
}

uint32_t ModelBuilder::resolve_host(std::string_view host, bool spliced, bool* added) {
  if (auto id = model_.hosts.find(host)) return *id;
  if (spliced) {
    // `Channel 00node02:...`: the fragment's tail glued to the host name.
    const std::string* best = nullptr;
    for (const auto& known : model_.hosts.names()) {
      if (host.ends_with(known) && (!best || known.size() > best->size())) best = &known;
    }
    if (best) return *model_.hosts.find(*best);
  }
  if (!renamed_hosts_.empty()) {
    if (auto it = renamed_hosts_.find(std::string(host)); it != renamed_hosts_.end()) return it->second;
  }
  // A copy from a terminal may lose the first characters of its first line:
  // `pgds-aihub0007:` there, `tpgds-aihub0007:` after. A host seen on no line
  // but the first of a file, that a new name ends with, was that name.
  for (auto it = first_line_hosts_.begin(); !spliced && it != first_line_hosts_.end(); ++it) {
    const std::string& cut = model_.hosts.name(it->host);
    if (host.size() > cut.size() && host.size() <= cut.size() + 3 && cut.size() >= 2 && host.ends_with(cut)) {
      uint32_t id = it->host;
      renamed_hosts_.emplace(cut, id);
      model_.hosts.rename(id, host);
      first_line_hosts_.erase(it);
      host_snapshot_.reset();  // names the old name, not the new
      return id;
    }
  }
  if (added) *added = true;
  return model_.hosts.intern(host);
}


ModelBuilder::Who ModelBuilder::identify(LineRef ref, const ParsedLines::Item& item, bool message) {
  const NcclHeader& h = item.header;
  if (h.host_form == HostForm::Named) {
    bool added = false;
    uint32_t host = resolve_host(h.host, item.spliced, &added);
    if (added && ref.line == 1 && !item.spliced) {
      first_line_hosts_.push_back({host, ref.file});
    } else if (message && !first_line_hosts_.empty()) {
      // Seen again: a host of its own. Only NCCL messages count, which every
      // way of reading the input sees alike (per-operation lines may be
      // skipped once their host is known).
      std::erase_if(first_line_hosts_, [&](const FirstLineHost& f) {
        return f.host == host && (ref.line != 1 || ref.file != f.file);
      });
    }
    return {host, h.pid};
  }
  // A stand-in host or none: a pdsh/clush prefix may still name the host.
  Who who;
  std::string_view launcher_host = launcher_host_name(item.launcher_host);
  if (!launcher_host.empty() && !is_placeholder_host(launcher_host)) who.host = resolve_host(launcher_host, false);
  if (h.host_form == HostForm::Placeholder) {
    who.pid = h.pid;
  } else if (item.launcher_rank) {
    who.pid = synthetic_pid({SyntheticSource::LauncherRank, static_cast<uint8_t>(item.rank_from), ref.file,
                             *item.launcher_rank});
  } else {
    who.pid = synthetic_pid({SyntheticSource::Device, 0, ref.file, h.dev});
  }
  return who;
}

uint16_t ModelBuilder::intern_transport(std::string_view text) {
  if (auto id = model_.transport_texts.find(text)) return static_cast<uint16_t>(*id);
  if (model_.transport_texts.size() >= kNoTransport - 1) return kNoTransport;
  auto id = static_cast<uint16_t>(model_.transport_texts.intern(text));
  model_.transports.push_back(parse_transport(text));
  return id;
}

void ModelBuilder::remember_text(uint64_t bucket, LineRef ref, std::string_view raw) {
  if (model_.line_text.size() >= JobModel::kMaxCachedLines) return;
  if (bucket != 0 && !text_buckets_.insert(bucket)) return;
  model_.line_text.emplace(JobModel::key_of(ref), valid_utf8(raw.substr(0, 4096)));
}

void ModelBuilder::observe(std::map<std::string, std::vector<Observation>>& where, std::string_view key,
                           uint32_t host, uint64_t pid, LineRef ref) {
  auto& list = where[std::string(key)];
  // One observation per process is enough; logs repeat these per communicator.
  if (list.size() >= 100000 || !observed_.insert(SeenKey{&list, host, pid}).second) return;
  list.push_back({host, pid, ref});
}

const HostNets* JobModel::nets_of(uint32_t host, std::string_view net) const {
  auto it = std::lower_bound(host_nets.begin(), host_nets.end(), host,
                             [](const HostNets& n, uint32_t h) { return n.host < h; });
  for (; it != host_nets.end() && it->host == host; ++it) {
    if (it->net == net) return &*it;
  }
  return nullptr;
}

void ModelBuilder::add_host_nets(uint32_t host, const NetUsingEvent& e, LineRef ref) {
  if (e.devices.empty() || host == kNoHost || model_.host_nets.size() >= 100000) return;
  auto [it, inserted] = host_net_index_.try_emplace({host, std::string(e.net)}, model_.host_nets.size());
  if (!inserted) return;
  HostNets nets{host, valid_utf8(e.net), {}, ref};
  for (const auto& d : e.devices) {
    nets.devices.push_back({d.index, valid_utf8(d.name), d.port, valid_utf8(d.link_layer), valid_utf8(d.address)});
  }
  model_.host_nets.push_back(std::move(nets));
}

void ModelBuilder::add_net_note(uint32_t host, uint64_t pid, const NetNoteEvent& e, LineRef ref, std::string_view raw) {
  if (model_.net_notes.size() >= 100000) return;
  std::string name = valid_utf8(e.name.substr(0, 512));
  std::string call = valid_utf8(e.call);
  if (!net_note_keys_.emplace(host, static_cast<int>(e.note), name, e.status, call).second) return;
  remember_text(0, ref, raw);
  model_.net_notes.push_back({e.note, host, pid, std::move(name), e.version, e.status, std::move(call), ref});
}

void ModelBuilder::handle(LineRef ref, Who who, std::string_view raw, const NcclHeader& h, const Event& ev) {
  auto& c = model_.counters;
  const uint32_t host = who.host;
  const uint64_t pid = who.pid;
  Process& p = process(host, pid);
  p.host = host;
  p.pid = pid;
  if (p.lines++ == 0) p.first_line = ref;
  p.last_line = ref;
  if (observer_) observer_(ref, raw, h, ev);

  std::visit(
      [&](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, UnknownEvent>) {
          ++c.unknown_lines;
          if (model_.unknown_samples.size() < JobModel::kMaxSamples) {
            model_.unknown_samples.push_back(ref);
            remember_text(0, ref, raw);
          }
        } else if constexpr (std::is_same_v<T, MalformedEvent>) {
          ++c.malformed_lines;
          if (model_.malformed_samples.size() < JobModel::kMaxSamples) {
            model_.malformed_samples.push_back(ref);
            remember_text(0, ref, raw);
          }
        } else if constexpr (std::is_same_v<T, ConnectionEvent>) {
          ++c.connection_lines;
          ConnectionRecord r;
          r.sender = e.sender;
          r.receiver = e.receiver;
          r.channel = static_cast<uint16_t>(e.channel);
          r.conn_index = static_cast<int8_t>(e.conn_index);
          r.direction = e.direction;
          r.transport = intern_transport(e.transport);
          r.line = ref;
          uint32_t own = e.direction == Direction::Receive ? e.receiver : e.sender;
          mark_init_phase(p, ref, raw);
          if (p.own_rank < 0) p.own_rank = own;
          uint32_t peer = e.direction == Direction::Receive ? e.sender : e.receiver;
          remember_text((uint64_t{host} << 40) ^ (uint64_t{r.transport} << 24) ^ peer ^ (1ull << 63), ref, raw);
          route(p, ref, own, std::max(e.sender, e.receiver), r);
        } else if constexpr (std::is_same_v<T, RingListingEvent>) {
          remember_text(0, ref, raw);
          ListingRecord r{static_cast<uint16_t>(e.channel), e.ranks, e.truncated, e.four_byte_slots, ref};
          mark_init_phase(p, ref, raw);
          uint32_t max_rank = e.ranks.empty() ? 0 : *std::max_element(e.ranks.begin(), e.ranks.end());
          route(p, ref, 0, max_rank, std::move(r));
        } else if constexpr (std::is_same_v<T, GraphRingEvent>) {
          remember_text(0, ref, raw);
          GraphRingRecord r{static_cast<uint16_t>(e.channel), e.prev, e.me, e.next, ref};
          mark_init_phase(p, ref, raw);
          if (p.own_rank < 0) p.own_rank = e.me;
          auto max_rank = static_cast<uint32_t>(std::max({e.prev, e.me, e.next}));
          route(p, ref, static_cast<uint32_t>(e.me), max_rank, r);
        } else if constexpr (std::is_same_v<T, TreesEvent>) {
          remember_text(0, ref, raw);
          mark_init_phase(p, ref, raw);
          if (p.own_rank < 0 && !e.entries.empty()) p.own_rank = e.entries.front().me;
          for (const auto& entry : e.entries) {
            int64_t m = std::max({entry.up, entry.me, entry.down[0], entry.down[1], entry.down[2]});
            route(p, ref, static_cast<uint32_t>(entry.me), static_cast<uint32_t>(m), TreeRecord{entry, ref});
          }
        } else if constexpr (std::is_same_v<T, InitEvent>) {
          remember_text(0, ref, raw);
          on_init(p, ref, h, e);
        } else if constexpr (std::is_same_v<T, CommShapeEvent>) {
          for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
            if (it->comm_ptr == e.comm_ptr) {
              auto& comm = model_.comms[it->comm];
              comm.nnodes = std::max(comm.nnodes, e.nnodes);
              break;
            }
          }
        } else if constexpr (std::is_same_v<T, VersionEvent>) {
          remember_text(0, ref, raw);
          observe(model_.versions, e.version, host, pid, ref);
          if (!e.cuda.empty()) observe(model_.cuda_versions, e.cuda, host, pid, ref);
        } else if constexpr (std::is_same_v<T, UsingNetworkEvent>) {
          remember_text(0, ref, raw);
          observe(model_.using_network, e.name, host, pid, ref);
          mark_init_phase(p, ref, raw);
        } else if constexpr (std::is_same_v<T, NetUsingEvent>) {
          remember_text(0, ref, raw);
          observe(model_.net_using, e.net, host, pid, ref);
          add_host_nets(host, e, ref);
          if (e.net == "IB") {
            uint32_t& nics = model_.nics_per_host[host];
            nics = std::max(nics, count_nics(e.list));
          }
          learn_addresses(e.list, host);
          mark_init_phase(p, ref, raw);
        } else if constexpr (std::is_same_v<T, AffinityEvent>) {
          add_affinity(host, pid, ref, raw, e);
        } else if constexpr (std::is_same_v<T, GraphPatternEvent>) {
          if (model_.graph_patterns.size() < JobModel::kMaxTopologyRecords &&
              pattern_keys_.emplace(host, e.pattern, e.nchannels, std::string(e.type_intra), std::string(e.type_inter)).second) {
            remember_text(0, ref, raw);
            model_.graph_patterns.push_back({host, pid, e.pattern, e.nchannels, e.bw_intra, e.bw_inter,
                                             std::string(e.type_intra), std::string(e.type_inter), ref});
          }
        } else if constexpr (std::is_same_v<T, CudaDriverEvent>) {
          if (!model_.driver_versions.count(e.version)) remember_text(0, ref, raw);
          auto& list = model_.driver_versions[e.version];
          if (list.size() < 100000 && observed_.insert(SeenKey{&list, host, pid}).second) {
            list.push_back({host, pid, ref});
          }
        } else if constexpr (std::is_same_v<T, EnvEvent>) {
          bool seen = model_.env.size() >= 100000 ||
                      !env_seen_.insert(fmt::format("{}\n{}\n{}", host, e.name, e.value)).second;
          if (!seen) {
            remember_text(0, ref, raw);
            model_.env.push_back({std::string(e.name), valid_utf8(e.value), host, ref});
          }
        } else if constexpr (std::is_same_v<T, NetNoteEvent>) {
          add_net_note(host, pid, e, ref, raw);
        } else if constexpr (std::is_same_v<T, WarnEvent>) {
          // WARNs rarely come in floods that matter, so each gets a look.
          if (auto note = parse_net_note(e.message, true)) add_net_note(host, pid, *note, ref, raw);
          if (model_.warnings.size() < JobModel::kMaxWarnings) {
            remember_text(0, ref, raw);
            std::string message = valid_utf8(e.message);
            WarnClass cls = classify_warn(message);
            model_.warnings.push_back(
                {host, pid, h.dev, valid_utf8(e.location), std::move(message), ref, std::move(cls)});
          } else {
            ++model_.warnings_dropped;
          }
        } else if constexpr (std::is_same_v<T, IgnoredEvent>) {
          std::string_view msg = h.payload;
          if (is_per_operation(msg)) {
            // COLL/TUNING lines: nothing for the model (parse_line skips them).
          } else if (msg.starts_with("Bootstrap")) {
            learn_addresses(msg, host);
          } else if (size_t pos = msg.find(" nvls channels"); pos != std::string_view::npos) {
            size_t start = msg.rfind(' ', pos - 1);
            start = start == std::string_view::npos ? 0 : start + 1;
            uint32_t n = 0;
            for (size_t i = start; i < pos && msg[i] >= '0' && msg[i] <= '9'; ++i) n = std::min<uint32_t>(n * 10 + (msg[i] - '0'), 1u << 20);
            model_.max_nvls_channels = std::max(model_.max_nvls_channels, n);
          } else if (msg.starts_with("Connected NVLS")) {
            model_.nvls_connected = true;
          }
        }
      },
      ev);
}

size_t ModelBuilder::find_or_add_comm(const std::string& key, std::optional<uint64_t> id, uint32_t nranks) {
  if (auto it = comm_index_.find(key); it != comm_index_.end()) {
    auto& comm = model_.comms[it->second];
    comm.nranks = std::max(comm.nranks, nranks);
    return it->second;
  }
  Communicator comm;
  comm.key = key;
  comm.comm_id = id;
  comm.nranks = nranks;
  model_.comms.push_back(std::move(comm));
  comm_index_.emplace(key, model_.comms.size() - 1);
  return model_.comms.size() - 1;
}

void ModelBuilder::on_init(Process& p, LineRef ref, const NcclHeader& h, const InitEvent& ev) {
  ++model_.counters.init_lines;
  std::string ptr(ev.comm_ptr);
  CommSlot* slot = nullptr;
  for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
    if (it->comm_ptr == ptr && it->my_rank == ev.rank && (it->open || ev.phase == InitPhase::Start)) {
      slot = &*it;
      break;
    }
  }
  if (ev.phase == InitPhase::Start && slot && slot->open) {
    // Repeated START for the same pointer: same communicator.
  } else if (!slot || ev.phase == InitPhase::Start) {
    std::string key;
    if (ev.comm_id) {
      key = fmt::format("0x{:x}", *ev.comm_id);
    } else {
      // No commId before 2.16: the k-th communicator of every process is taken
      // to be the same one (§4.6 of the format notes).
      // Lines without a pid, or without a host (placeholders: containers
      // repeat pids across nodes), can share a process across hosts: there
      // each rank counts its own communicators.
      bool shared = is_synthetic_pid(p.pid) || p.host == kNoHost;
      int counter = shared ? -2 - static_cast<int>(ev.rank) : h.dev;
      uint32_t seq = p.completes_per_dev[counter]++;
      key = fmt::format("#{}/{}", seq, ev.nranks);
    }
    size_t comm = find_or_add_comm(key, ev.comm_id, ev.nranks);
    p.slots.push_back({comm, ev.rank, ev.nranks, ptr, ev.phase == InitPhase::Start});
    slot = &p.slots.back();
  }
  if (ev.phase == InitPhase::Start) {
    p.saw_start = true;
    ++p.init_starts;
  } else {
    ++p.init_completes;
  }
  auto& comm = model_.comms[slot->comm];
  RankInfo& info = comm.rank(ev.rank);
  info.host = p.host;
  info.pid = p.pid;
  info.cuda_dev = ev.cuda_dev;
  if (ev.nvml_dev >= 0) info.nvml_dev = ev.nvml_dev;
  if (ev.bus_id) info.bus_id = ev.bus_id;
  if (ev.phase == InitPhase::Start) {
    info.init_started = true;
    info.init_line = ref;
  } else {
    info.init_completed = true;
    info.complete_line = ref;
    if (!info.init_started) info.init_line = ref;
    slot->open = false;
    flush_pending(p, *slot);
  }
  if (comm.first_line.line == 0) comm.first_line = ref;
}

void ModelBuilder::route(Process& p, LineRef, uint32_t own_rank, uint32_t max_rank, Scoped item) {
  const CommSlot* chosen = nullptr;
  size_t matches = 0;
  for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
    if (it->open && it->my_rank == own_rank && max_rank < it->nranks) {
      chosen = &*it;
      break;
    }
  }
  if (!chosen && p.saw_start) {
    // 2.22+ connects at the first collective, after Init COMPLETE.
    for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
      if (it->my_rank == own_rank && max_rank < it->nranks) {
        if (!chosen) chosen = &*it;
        if (it->comm != chosen->comm) ++matches;
      }
    }
    if (matches > 0) ++model_.counters.ambiguous_assignments;
  }
  if (chosen) {
    store(chosen->comm, p, own_rank, std::move(item));
  } else {
    p.pending.push_back({own_rank, max_rank, std::move(item)});
  }
}

void ModelBuilder::store(size_t comm_index, Process& p, uint32_t own_rank, Scoped&& item) {
  auto& comm = model_.comms[comm_index];
  RankInfo& info = comm.rank(own_rank);
  if (info.host == kNoHost) {
    info.host = p.host;
    info.pid = p.pid;
  }
  std::visit(
      [&](auto&& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ConnectionRecord>) {
          if (comm.synthetic) comm.rank(std::max(v.sender, v.receiver));
          comm.records.push_back(v);
          // Bounded by distinct edges, not by lines, even when a log repeats itself.
          if (comm.records.size() >= std::max<size_t>(1 << 16, comm.edges.size())) merge_records(comm);
        } else if constexpr (std::is_same_v<T, ListingRecord>) {
          comm.listings.push_back(std::move(v));
        } else if constexpr (std::is_same_v<T, GraphRingRecord>) {
          comm.graph_rings.push_back(v);
        } else {
          comm.trees.push_back(v);
        }
      },
      std::move(item));
}

void ModelBuilder::flush_pending(Process& p, const CommSlot& slot) {
  if (p.pending.empty()) return;
  std::vector<Pending> keep;
  for (auto& item : p.pending) {
    if (item.own_rank == slot.my_rank && item.max_rank < slot.nranks) {
      store(slot.comm, p, item.own_rank, std::move(item.item));
    } else {
      keep.push_back(std::move(item));
    }
  }
  p.pending = std::move(keep);
}

void ModelBuilder::finish() {
  // By host for nets_of(); a host's networks stay in the order the log gave them.
  std::stable_sort(model_.host_nets.begin(), model_.host_nets.end(),
                   [](const HostNets& a, const HostNets& b) { return a.host < b.host; });
  for (auto& [key, p] : processes_) {
    ProcessRecord rec;
    rec.host = p.host;
    rec.pid = p.pid;
    rec.first_line = p.first_line;
    rec.last_line = p.last_line;
    rec.lines = p.lines;
    rec.init_starts = p.init_starts;
    rec.init_completes = p.init_completes;
    rec.own_rank = p.own_rank;
    rec.init_phase = p.init_phase || p.init_starts > 0;
    rec.init_phase_line = p.init_phase_line;
    model_.processes.push_back(rec);
  }
  for (auto& [key, p] : processes_) {
    for (auto& item : p.pending) {
      const CommSlot* chosen = nullptr;
      for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
        if (it->my_rank == item.own_rank && item.max_rank < it->nranks) {
          chosen = &*it;
          break;
        }
      }
      size_t comm;
      if (chosen) {
        comm = chosen->comm;
      } else {
        // Lines that no Init line claims: the job never finished init, or the
        // log lacks the Init lines. Keep them in one stand-in communicator.
        comm = find_or_add_comm("unclaimed", std::nullopt, 0);
        model_.comms[comm].synthetic = true;
      }
      store(comm, p, item.own_rank, std::move(item.item));
    }
    p.pending.clear();
  }
  for (auto& comm : model_.comms) {
    if (comm.nranks && comm.ranks.size() < comm.nranks) comm.ranks.resize(comm.nranks);
    merge_records(comm);
    comm.records.shrink_to_fit();
    infer_hosts_from_local_links(comm);
    group_unnamed_hosts(comm);
  }
}

void ModelBuilder::merge_records(Communicator& comm) {
  auto& recs = comm.records;
  if (recs.empty()) return;
  auto norm = [](int8_t c) { return c < 0 ? 0 : c; };
  auto key = [&](const auto& x) { return std::tuple(x.channel, norm(x.conn_index), x.sender, x.receiver); };
  // Stable: within one edge the first [send] and the first [receive] line win.
  std::stable_sort(recs.begin(), recs.end(),
                   [&](const ConnectionRecord& a, const ConnectionRecord& b) { return key(a) < key(b); });
  // Edges merged earlier came from earlier lines, so they keep precedence.
  const std::vector<Edge>& old = comm.edges;
  std::vector<Edge> merged;
  merged.reserve(old.size() + recs.size() / 2);
  size_t i = 0;
  for (const auto& r : recs) {
    while (i < old.size() && key(old[i]) < key(r)) merged.push_back(old[i++]);
    if (merged.empty() || key(merged.back()) != key(r)) {
      if (i < old.size() && key(old[i]) == key(r)) {
        merged.push_back(old[i++]);
      } else {
        Edge e;
        e.sender = r.sender;
        e.receiver = r.receiver;
        e.channel = r.channel;
        e.conn_index = r.conn_index;
        merged.push_back(e);
      }
    }
    Edge& e = merged.back();
    if (r.direction == Direction::Receive) {
      if (e.recv_transport == kNoTransport) {
        e.recv_transport = r.transport;
        e.recv_line = r.line;
      }
    } else if (e.send_transport == kNoTransport) {
      e.send_transport = r.transport;
      e.send_line = r.line;
    }
    if (e.conn_index < 0) e.conn_index = r.conn_index;
  }
  merged.insert(merged.end(), old.begin() + static_cast<std::ptrdiff_t>(i), old.end());
  comm.edges = std::move(merged);
  recs.clear();
}

bool ModelBuilder::is_local_link(const Edge& e) const {
  uint16_t t = e.transport();
  if (t == kNoTransport) return false;
  const Transport& tr = model_.transports[t];
  return tr.family == TransportFamily::SHM || (tr.family == TransportFamily::P2P && tr.mechanism != "MNNVL");
}

// Ranks whose host is unknown and that P2P or SHM join sit on one host all
// the same: one group per such host, so that their links count as
// intra-node. NET links prove nothing (NCCL may use NET inside a node).
void ModelBuilder::group_unnamed_hosts(Communicator& comm) {
  std::vector<uint32_t> parent;  // union-find over ranks; empty until needed
  std::vector<bool> joined;
  auto find = [&](uint32_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  for (const auto& e : comm.edges) {
    if (!is_local_link(e) || comm.host_of(e.sender) != kNoHost || comm.host_of(e.receiver) != kNoHost) continue;
    if (parent.empty()) {
      comm.rank(0);
      parent.resize(comm.ranks.size());
      joined.resize(comm.ranks.size());
      for (uint32_t r = 0; r < parent.size(); ++r) parent[r] = r;
    }
    if (e.sender >= parent.size() || e.receiver >= parent.size()) continue;
    joined[e.sender] = joined[e.receiver] = true;
    uint32_t a = find(e.sender), b = find(e.receiver);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  for (uint32_t r = 0; r < parent.size(); ++r) {
    if (joined[r]) comm.ranks[r].host_group = find(r);
  }
}

// P2P (other than multi-node NVLink) and SHM only connect GPUs of one host, so
// a rank whose own lines are missing sits on its P2P/SHM peer's host.
void ModelBuilder::infer_hosts_from_local_links(Communicator& comm) {
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (const auto& e : comm.edges) {
      if (!is_local_link(e)) continue;
      comm.rank(std::max(e.sender, e.receiver));  // grow once, before taking references
      RankInfo& s = comm.rank(e.sender);
      RankInfo& r = comm.rank(e.receiver);
      if (s.host == kNoHost && r.host != kNoHost) {
        s.host = r.host;
        changed = true;
      } else if (r.host == kNoHost && s.host != kNoHost) {
        r.host = s.host;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

}  // namespace nd
