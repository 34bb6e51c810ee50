#include "src/model/probe_records.h"

#include <algorithm>

#include <fmt/format.h>

#include "parsers/envelope.h"

namespace nd {

bool ProbeRecordsBuilder::add(LineRef ref, const ParsedLines::Item& item, const ParsedLines::OtherLine& line) {
  const std::optional<uint32_t>& launcher_rank = item.launcher_rank;
  Key key{ref.file, launcher_rank ? static_cast<int64_t>(*launcher_rank) : -1,
          launcher_rank ? std::string() : std::string(line.launcher_host)};
  bool opens = opens_probe_record(line.payload);
  if (!opens && open_.empty()) return false;
  auto it = open_.find(key);
  if (it != open_.end() && opens) {
    // A fresh record while this rank's last one is unfinished: that one was
    // cut short (the node died, output was lost).
    problem(LineRef{ref.file, static_cast<uint32_t>(it->second.pieces.line())},
            "truncated record (a new record started before it closed)", it->second.pieces.text());
    open_bytes_ -= it->second.pieces.text().size();
    open_.erase(it);
    it = open_.end();
  }
  if (it == open_.end()) {
    if (!opens) return false;
    it = open_.try_emplace(key, Open{RecordPieces(ref.line), std::string(line.launcher_host)}).first;
  }
  Open& o = it->second;
  size_t before = o.pieces.text().size();
  // A piece is cut anywhere: only the launcher's prefix comes off it, as
  // read_probe_records() takes it off (a "word: " at its start is the record's).
  bool closed = o.pieces.add(opens ? line.payload : strip_envelope(item.raw).payload);
  open_bytes_ += o.pieces.text().size() - before;
  LineRef start{ref.file, static_cast<uint32_t>(o.pieces.line())};
  if (closed) {
    close(key, o);
  } else if (!launcher_rank) {
    // Only a launcher that labels its lines cuts them; an unlabelled record
    // that does not close on its line lost its end.
    problem(start, "truncated record (it does not close on its line; lines longer than 64 KiB are cut)",
            o.pieces.text());
  } else if (o.pieces.text().size() > JobModel::kMaxProbeRecordBytes) {
    problem(start, "record larger than 4 MiB: not a probe record", o.pieces.text());
  } else if (open_bytes_ > kMaxOpenBytes) {
    problem(start, "record not read: too many records open at once (over 64 MiB of unfinished records)",
            o.pieces.text());
  } else {
    return true;
  }
  open_bytes_ -= o.pieces.text().size();
  open_.erase(it);
  return true;
}

void ProbeRecordsBuilder::close(const Key& key, Open& open) {
  LineRef start{std::get<0>(key), static_cast<uint32_t>(open.pieces.line())};
  std::string error;
  auto node = decode_probe_record(open.pieces.text(), error);
  if (!node) return problem(start, std::move(error), open.pieces.text());
  std::string host = node->host.host;
  if (host.empty()) host = open.launcher_host;
  if (host.empty()) {
    auto it = file_hosts_.find(start.file);
    if (it != file_hosts_.end()) host = it->second;
  }
  // One record a host: srun with several tasks a node sends the same one again.
  if (model_.probe_records.size() >= JobModel::kMaxProbeRecords || (!host.empty() && !hosts_.insert(host).second)) {
    ++model_.probe_records_repeated;
    return;
  }
  if (model_.line_text.size() < JobModel::kMaxCachedLines) {
    // The record's own text is tens of KiB of JSON: cite it by its host.
    model_.line_text.add(JobModel::key_of(start),
                         fmt::format("{}: nccl-doctor probe record", host.empty() ? "host unknown" : host));
  }
  model_.probe_records.push_back({start, std::move(host), std::move(*node)});
}

void ProbeRecordsBuilder::problem(LineRef ref, std::string error, std::string_view text) {
  if (model_.probe_problems.size() < JobModel::kMaxProbeRecords) {
    model_.probe_problems.push_back({ref, std::move(error), record_excerpt(text)});
  }
}

void ProbeRecordsBuilder::finish() {
  for (auto& [key, o] : open_) {
    problem(LineRef{std::get<0>(key), static_cast<uint32_t>(o.pieces.line())},
            "truncated record (no closing brace before end of input)", o.pieces.text());
  }
  open_.clear();
  open_bytes_ = 0;
  // In input order: srun's pieces close a short record before a long one
  // that started first.
  auto by_line = [](const auto& a, const auto& b) { return a.line < b.line; };
  std::stable_sort(model_.probe_records.begin(), model_.probe_records.end(), by_line);
  std::stable_sort(model_.probe_problems.begin(), model_.probe_problems.end(), by_line);
}

}  // namespace nd
