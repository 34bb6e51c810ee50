#include "src/probe/record_reader.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parsers/envelope.h"
#include "src/probe/snapshot_json.h"
#include "src/util/text.h"

namespace nd {
namespace {

// A record larger than this is not ours (a DGX record is ~40 KiB).
constexpr size_t kMaxRecordBytes = 16u << 20;

// Tracks brace depth outside JSON strings, so we know when a record closes
// without parsing it on every line.
struct Pending {
  std::string text;
  size_t line = 0;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;

  // Feeds s; returns how many bytes of s belong to the record when it
  // closes inside s, or npos while it is still open.
  size_t feed(std::string_view s) {
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        if (--depth == 0) return i + 1;
      }
    }
    return std::string_view::npos;
  }
};

std::string excerpt(std::string_view s) {
  std::string p = printable(s.substr(0, 60));
  return s.size() > 60 ? p + "…" : p;
}

void decode(Pending& p, std::optional<uint32_t> rank, RecordSet& out) {
  auto j = nlohmann::json::parse(p.text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    out.problems.push_back({p.line, "not valid JSON", excerpt(p.text)});
    return;
  }
  std::string error;
  auto node = snapshot_from_json(j, error);
  if (!node) {
    out.problems.push_back({p.line, error, excerpt(p.text)});
    return;
  }
  out.records.push_back({std::move(*node), p.line, rank});
}

}  // namespace

RecordSet read_probe_records(std::string_view input) {
  RecordSet out;
  // Keyed by launcher rank; -1 for lines without a launcher prefix.
  std::map<int64_t, Pending> open;
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
      out.problems.push_back({it->second.line, "truncated record (a new record started before it closed)",
                              excerpt(it->second.text)});
      open.erase(it);
      it = open.end();
    }
    if (it == open.end()) {
      size_t brace = payload.find('{');
      if (brace == std::string_view::npos) continue;  // launcher chatter, warnings
      payload.remove_prefix(brace);
      it = open.emplace(key, Pending{}).first;
      it->second.line = line_no;
    }
    Pending& p = it->second;
    size_t end = p.feed(payload);
    p.text.append(payload.substr(0, end));
    if (end != std::string_view::npos) {
      decode(p, env.launcher_rank, out);
      open.erase(it);
    } else if (p.text.size() > kMaxRecordBytes) {
      out.problems.push_back({p.line, "record larger than 16 MiB: not a probe record", excerpt(p.text)});
      open.erase(it);
    }
  }
  out.lines = line_no;
  for (auto& [key, p] : open) {
    out.problems.push_back({p.line, "truncated record (no closing brace before end of input)", excerpt(p.text)});
  }
  std::stable_sort(out.problems.begin(), out.problems.end(),
                   [](const RecordProblem& a, const RecordProblem& b) { return a.line < b.line; });
  return out;
}

}  // namespace nd
