#include "src/probe/record_reader.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parsers/envelope.h"
#include "src/probe/snapshot_json.h"
#include "src/util/text.h"

namespace nd {

bool RecordPieces::add(std::string_view piece) {
  for (size_t i = 0; i < piece.size(); ++i) {
    char c = piece[i];
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{') {
      ++depth_;
    } else if (c == '}' && --depth_ == 0) {
      text_.append(piece.substr(0, i + 1));
      return true;
    }
  }
  text_.append(piece);
  return false;
}

bool opens_probe_record(std::string_view payload) {
  return payload.starts_with(R"({"schema":"nccl-doctor.probe/)");
}

std::optional<NodeSnapshot> decode_probe_record(std::string_view text, std::string& error) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    error = "not valid JSON";
    return std::nullopt;
  }
  return snapshot_from_json(j, error);
}

std::string record_excerpt(std::string_view s) {
  std::string p = printable(s.substr(0, 60));
  return s.size() > 60 ? p + "…" : p;
}

namespace {

void decode(const RecordPieces& p, std::optional<uint32_t> rank, RecordSet& out) {
  std::string error;
  auto node = decode_probe_record(p.text(), error);
  if (!node) {
    out.problems.push_back({p.line(), error, record_excerpt(p.text())});
    return;
  }
  out.records.push_back({std::move(*node), p.line(), rank});
}

}  // namespace

RecordSet read_probe_records(std::string_view input) {
  RecordSet out;
  // Keyed by launcher rank; -1 for lines without a launcher prefix.
  std::map<int64_t, RecordPieces> open;
  std::string scratch;
  size_t line_no = 0;
  while (!input.empty()) {
    size_t nl = input.find('\n');
    std::string_view raw = input.substr(0, nl);
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    Envelope env = strip_envelope(strip_control(raw, scratch));
    std::string_view payload = env.payload;
    int64_t key = env.launcher_rank ? static_cast<int64_t>(*env.launcher_rank) : -1;
    auto it = open.find(key);
    if (it != open.end() && payload.starts_with("{\"schema\"")) {
      // A fresh record while the last one of this rank is unfinished: that
      // one was cut short (node died, output lost).
      out.problems.push_back({it->second.line(), "truncated record (a new record started before it closed)",
                              record_excerpt(it->second.text())});
      open.erase(it);
      it = open.end();
    }
    if (it == open.end()) {
      size_t brace = payload.find('{');
      if (brace == std::string_view::npos) continue;  // launcher chatter, warnings
      payload.remove_prefix(brace);
      it = open.emplace(key, RecordPieces(line_no)).first;
    }
    RecordPieces& p = it->second;
    if (p.add(payload)) {
      decode(p, env.launcher_rank, out);
      open.erase(it);
    } else if (p.text().size() > kMaxRecordBytes) {
      out.problems.push_back({p.line(), "record larger than 16 MiB: not a probe record", record_excerpt(p.text())});
      open.erase(it);
    }
  }
  out.lines = line_no;
  for (auto& [key, p] : open) {
    out.problems.push_back({p.line(), "truncated record (no closing brace before end of input)", record_excerpt(p.text())});
  }
  std::stable_sort(out.problems.begin(), out.problems.end(),
                   [](const RecordProblem& a, const RecordProblem& b) { return a.line < b.line; });
  return out;
}

}  // namespace nd
