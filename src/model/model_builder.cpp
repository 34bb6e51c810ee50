#include "src/model/model_builder.h"

#include <algorithm>

#include "src/util/parallel.h"
#include "src/util/text.h"

namespace nd {
namespace {

// A host's first processes are looked up without hashing (see process()).
constexpr size_t kFewProcesses = 32;
constexpr uint32_t kMaxIndexedHost = 1u << 24;

}  // namespace

uint32_t ModelBuilder::add_file(std::string display_name) {
  model_.files.push_back(std::move(display_name));
  model_.file_nccl_lines.push_back(0);
  model_.file_binding_lines.push_back(0);
  return static_cast<uint32_t>(model_.files.size() - 1);
}

uint32_t ModelBuilder::add_file(std::string display_name, std::string host) {
  uint32_t file = add_file(std::move(display_name));
  if (host.empty()) return file;
  probe_records_.set_file_host(file, host);
  gpu_side_.set_file_host(file, std::move(host));
  return file;
}

void ModelBuilder::add_source(uint32_t file, int fd) {
  size_t open = std::count_if(model_.sources.begin(), model_.sources.end(), [](const auto& s) { return s != nullptr; });
  // Per-rank files are many and small: past a few, their lines are copied.
  // Never more than a quarter of the descriptors the process may open.
  static const size_t kMaxOpen = descriptor_limit_share(4, JobModel::kMaxSourceFiles);
  if (open >= kMaxOpen) return;
  if (file >= model_.sources.size()) model_.sources.resize(file + 1);
  model_.sources[file] = SourceFile::open_copy(fd);
}

void ModelBuilder::add_line(uint32_t file, const Line& line) {
  single_.clear();
  parse_line(line, single_);
  apply(file, 0, single_);
}

void ModelBuilder::apply(uint32_t file, uint64_t line_base, const ParsedLines& parsed) {
  auto& c = model_.counters;
  c += parsed.counts;
  if (file < model_.file_nccl_lines.size()) {
    model_.file_nccl_lines[file] += parsed.counts.nccl_lines;
    model_.file_binding_lines[file] += parsed.bindings.size();
  }
  auto ref_of = [&](uint64_t line) {
    return LineRef{file, static_cast<uint32_t>(std::min<uint64_t>(line_base + line, UINT32_MAX))};
  };
  size_t first = 0;
  if (expect_last_error_ && parsed.counts.lines > 0 && !holds_nccl_marker(parsed.first_text)) {
    // The batch's first line is the message of the batch before's last line.
    c -= parsed.first_share;
    first = parsed.first_items;
    add_framework_line(ref_of(parsed.first_number), parse_framework_line(FrameworkKind::LastError, parsed.first_text));
  }
  bool placed = parsed.source_offset >= 0 && file < model_.sources.size() && model_.sources[file];
  source_ = placed ? parsed.source : std::string_view();
  source_offset_ = placed ? parsed.source_offset : -1;
  for (size_t k = first; k < parsed.items.size(); ++k) {
    const auto& item = parsed.items[k];
    apply_item(ref_of(item.line), parsed, item);
  }
  source_ = {};
  source_offset_ = -1;
  // Only a `Last error:` line that ends the batch carries over, to the next
  // batch's first line, whatever the lines after it in this batch left (a
  // counted per-operation line leaves no item).
  if (parsed.counts.lines > 0) expect_last_error_ = parsed.expect_last_error;
}

void ModelBuilder::apply_item(LineRef ref, const ParsedLines& parsed, const ParsedLines::Item& item) {
  switch (item.kind) {
    case ParsedLines::Kind::Framework:
    case ParsedLines::Kind::LastErrorText:
      add_framework_line(ref, parsed.frameworks[item.index]);
      break;
    case ParsedLines::Kind::Message:
      handle(ref, identify(ref, item, true), item.raw, item.header, item.event);
      break;
    case ParsedLines::Kind::HostSighting:
      identify(ref, item, false);
      break;
    case ParsedLines::Kind::Binding:
      add_binding(ref, item.raw, parsed.bindings[item.index]);
      break;
    case ParsedLines::Kind::Banner:
      add_banner(ref, item);
      break;
    case ParsedLines::Kind::Other:
      // nccl-doctor's own probe records first: their pieces are no tool's table.
      if (!probe_records_.add(ref, item, parsed.others[item.index])) {
        gpu_side_.add(ref, parsed.others[item.index]);
      }
      break;
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
  if (host != kNoHost && host < kMaxIndexedHost) {
    if (host >= host_processes_.size()) host_processes_.resize(static_cast<size_t>(host) + 1);
    few = &host_processes_[host];
    for (const auto& [p, proc] : *few) {
      if (p == pid) return *(last_process_ = proc);
    }
  }
  auto [it, added] = process_index_.try_emplace(key, nullptr);
  if (added) it->second = &processes_[{host, pid}];
  if (few && few->size() < kFewProcesses) few->emplace_back(pid, it->second);
  last_process_ = it->second;
  return *it->second;
}

void ModelBuilder::handle(LineRef ref, Who who, std::string_view raw, const NcclHeader& h, const Event& ev) {
  Process& p = process(who.host, who.pid);
  ProcessRecord& rec = p.rec;
  rec.host = who.host;
  rec.pid = who.pid;
  if (rec.lines++ == 0) rec.first_line = ref;
  rec.last_line = ref;
  const At at{ref, who.host, who.pid, raw, h, p};
  std::visit([&](const auto& e) { on(at, e); }, ev);
}

void ModelBuilder::on(const At& at, const UnknownEvent&) {
  ++model_.counters.unknown_lines;
  if (model_.unknown_samples.size() < JobModel::kMaxSamples) {
    model_.unknown_samples.push_back(at.ref);
    remember_text(0, at.ref, at.raw);
  }
}

void ModelBuilder::on(const At& at, const MalformedEvent&) {
  ++model_.counters.malformed_lines;
  if (model_.malformed_samples.size() < JobModel::kMaxSamples) {
    model_.malformed_samples.push_back(at.ref);
    remember_text(0, at.ref, at.raw);
  }
}

void ModelBuilder::remember_text(uint64_t bucket, LineRef ref, std::string_view raw) {
  if (model_.line_text.size() >= JobModel::kMaxCachedLines) return;
  if (bucket != 0 && !text_buckets_.insert(bucket)) return;
  std::string_view cut = raw.substr(0, JobModel::kMaxCitedText);
  const char* from = source_.data();
  if (source_offset_ >= 0 && cut.data() >= from && cut.data() + cut.size() <= from + source_.size()) {
    model_.line_text.add_place(JobModel::key_of(ref), ref.file,
                               static_cast<uint64_t>(source_offset_) + static_cast<uint64_t>(cut.data() - from), cut);
  } else {
    model_.line_text.add(JobModel::key_of(ref), valid_utf8(cut));
  }
}

void ModelBuilder::observe(std::map<std::string, std::vector<Observation>>& where, std::string_view key,
                           uint32_t host, uint64_t pid, LineRef ref) {
  auto& list = where[std::string(key)];
  // One observation per process is enough; logs repeat these per communicator.
  if (list.size() >= JobModel::kMaxObservations || !observed_.insert(SeenKey{&list, host, pid}).second) return;
  list.push_back({host, pid, ref});
}

}  // namespace nd
