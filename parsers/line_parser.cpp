#include "parsers/line_parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include "parsers/char_classes.h"
#include "parsers/fast_shapes.h"
#include "parsers/nccl_prefix.h"

namespace nd {

LineCounts& LineCounts::operator+=(const LineCounts& o) {
  lines += o.lines;
  truncated_lines += o.truncated_lines;
  nccl_lines += o.nccl_lines;
  info_lines += o.info_lines;
  warn_lines += o.warn_lines;
  spliced_lines += o.spliced_lines;
  return *this;
}

LineCounts& LineCounts::operator-=(const LineCounts& o) {
  lines -= o.lines;
  truncated_lines -= o.truncated_lines;
  nccl_lines -= o.nccl_lines;
  info_lines -= o.info_lines;
  warn_lines -= o.warn_lines;
  spliced_lines -= o.spliced_lines;
  return *this;
}

void ParsedLines::clear() {
  items.clear();
  expect_last_error = false;
  first_text = {};
  first_number = first_items = 0;
  first_share = {};
  bindings.clear();
  frameworks.clear();
  others.clear();
  counts = {};
  cleaned.clear();
  hosts.clear();
  source = {};
  source_offset = -1;
}

bool holds_nccl_marker(std::string_view text) { return memmem(text.data(), text.size(), " NCCL ", 6) != nullptr; }

bool needs_line_by_line(std::string_view first_line) {
  return memmem(first_line.data(), first_line.size(), "Last error:", 11) != nullptr;
}

std::string_view launcher_host_name(std::string_view host) {
  bool ip = host.find_first_not_of("0123456789.") == std::string_view::npos;
  std::string_view name = ip ? host : host.substr(0, host.find('.'));
  return is_placeholder_host(name) ? std::string_view{} : name;
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

// Adds a parsed framework line; returns whether it opens a `Last error:` message.
bool push_framework(ParsedLines& out, const Line& line, std::string_view raw, FrameworkLine parsed,
                    ParsedLines::Kind item_kind = ParsedLines::Kind::Framework) {
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = item_kind;
  item.line = line.number;
  item.raw = raw;
  item.index = static_cast<uint32_t>(out.frameworks.size());
  return out.frameworks.emplace_back(std::move(parsed)).opens_last_error;
}

bool add_framework(ParsedLines& out, const Line& line, FrameworkKind kind, std::string_view raw,
                   ParsedLines::Kind item_kind = ParsedLines::Kind::Framework) {
  return push_framework(out, line, raw, parse_framework_line(kind, raw), item_kind);
}

// A view of `text` without control bytes that lives as long as `out`.
std::string_view cleaned(std::string_view text, ParsedLines& out) {
  std::string_view clean = strip_control(text, out.scratch);
  if (clean.data() == out.scratch.data()) {
    out.cleaned.push_back(std::move(out.scratch));
    clean = out.cleaned.back();
    out.scratch = std::string();
  }
  return clean;
}

// What counts_only_at() found out on the way, for the reading after it.
// Eight bytes, zeroed in one store: the per-operation lines that never
// read it make it on every line.
struct LineStart {
  uint32_t plain_tag = 0;  // plain_ompi_tag_length(); a line is cut long before 4 GB
  // is_per_operation() of an INFO message, when it was asked.
  std::optional<bool> per_operation;
};

// The bulk of a COLL log is one per-operation INFO line per call and rank.
// Such a line only counts, once its process's host is known. The caller has
// made sure that `marker` is the line's only " NCCL " and that the line holds
// no control byte or CR.
bool counts_only_at(std::string_view text, size_t marker, const ParsedLines& out, LineStart& start) {
  auto known = [&](std::string_view host) {
    return (out.known_hosts && out.known_hosts->contains(host)) || out.hosts.contains(host);
  };
  // A host never starts with '[': such a line is tagged or has no host.
  if (text[0] != '[') {
    if (size_t host_end = leading_per_operation_host(text, marker)) return known(text.substr(0, host_end));
  }
  // Behind mpirun --tag-output: its tag, then the same header, read forward
  // without the stripper. The host must start lower-case: then no other
  // launcher prefix could follow the tag (only pdsh's starts so, and it
  // needs `host: `, not `host:pid`).
  size_t tag = plain_ompi_tag_length(text);
  start.plain_tag = static_cast<uint32_t>(tag);
  if (tag == 0) tag = ompi_tag_length(text);
  if (tag > 0 && tag < marker && text[tag] >= 'a' && text[tag] <= 'z') {
    std::string_view rest = text.substr(tag);
    if (size_t host_end = leading_per_operation_host(rest, marker - tag)) return known(rest.substr(0, host_end));
  }
  auto host = per_operation_host(text, marker, start.per_operation);
  if (!host || !known(*host)) return false;
  // A header the envelope stripper would not leave at the start: full path.
  return host->data() == text.data() || strip_envelope(text).payload.data() == host->data();
}

// The line's " NCCL " when it is its only one (none after the level word,
// where the header scan looks) and the line holds no control byte or CR;
// npos otherwise.
size_t sole_nccl_marker(std::string_view text) {
  // glibc's memmem is several times slower than hopping on the 'N'.
  size_t marker = find_nccl_word(text);
  if (marker == std::string_view::npos || marker + 11 > text.size()) return std::string_view::npos;
  if (find_nccl_word(text, marker + 11) != std::string_view::npos || has_control_or_cr(text)) {
    return std::string_view::npos;
  }
  return marker;
}

// Returns false when the line is not a binding report after all (the
// command line `mpirun --bind-to none ...`).
bool parse_binding_line(const Line& line, ParsedLines& out) {
  std::string_view clean = cleaned(line.text, out);
  Envelope env = strip_envelope(clean);
  auto b = parse_binding(env.payload);
  if (!b) return false;
  // NCCL prints gethostname() cut at the first dot; launchers print it whole.
  b->host = b->host.substr(0, b->host.find('.'));
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = ParsedLines::Kind::Binding;
  item.line = line.number;
  item.raw = clean;
  item.index = static_cast<uint32_t>(out.bindings.size());
  out.bindings.push_back(std::move(*b));
  return true;
}

void add_other(const Line& line, std::string_view clean, const Envelope& env, ParsedLines& out) {
  std::string_view payload = env.payload;
  if (payload.find_first_not_of(" \t") == std::string_view::npos) return;
  std::string_view host = env.launcher_host;
  bool section = false;
  if (host.empty()) {
    if (size_t n = output_host_prefix(payload, host)) {
      payload.remove_prefix(n);
    } else if (!(host = ansible_section_host(payload)).empty()) {
      section = true;
    }
  }
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = ParsedLines::Kind::Other;
  item.line = line.number;
  item.raw = clean;
  item.index = static_cast<uint32_t>(out.others.size());
  // A record that srun cut into pieces is put together by launcher rank.
  item.launcher_rank = env.launcher_rank;
  item.rank_from = env.rank_from;
  out.others.push_back({payload, launcher_host_name(host), section});
}

// Words of every shape parse_framework_line() reads as a crash (see CrashReport).
bool may_report_crash(std::string_view text) {
  for (std::string_view word : {"ignal", "exitcode", "Segmentation fault", "Aborted", "Bus error", "Illegal instr",
                                "Floating point"}) {
    if (memmem(text.data(), text.size(), word.data(), word.size())) return true;
  }
  return false;
}

// A report of a process that died on a signal, kept when it is one: other
// lines that merely say "signal" go on to the other outputs' readers.
bool add_crash(ParsedLines& out, const Line& line) {
  FrameworkLine crash = parse_framework_line(FrameworkKind::Crash, line.text);
  if (!crash.crash) return false;
  push_framework(out, line, line.text, std::move(crash));
  return true;
}

// A backtrace frame in NCCL: ` 1 0x0000000000050dc2 pncclRedOpDestroy()  ???:0`,
// `#3 0x7f... in ncclAllReduce () from /usr/lib/libnccl.so.2`.
bool is_nccl_frame(std::string_view text) {
  if (!memmem(text.data(), text.size(), "nccl", 4)) return false;
  size_t p = text.find_first_not_of(" \t#");
  if (p == std::string_view::npos || !is_digit(text[p])) return false;
  p = text.find_first_not_of("0123456789", p);
  return p != std::string_view::npos && text.find("0x", p) == text.find_first_not_of(" :", p);
}

// A line without "NCCL ": a launcher's binding report, PyTorch's watchdog
// and `Last error:` lines, or a line of another tool's output.
void parse_other_line(const Line& line, ParsedLines& out) {
  // No tool prints a NUL: such a line is binary noise, not worth a copy.
  bool binary = std::memchr(line.text.data(), 0, line.text.size()) != nullptr;
  if (line.text.size() < 11) {
    if (binary) return;
    std::string_view clean = cleaned(line.text, out);
    return add_other(line, clean, strip_envelope(clean), out);
  }
  // Every marker below holds a letter; a sampling tool's rows (dmon, CSV
  // figures) hold none, and a day of them is hundreds of thousands of lines.
  bool letters = std::any_of(line.text.begin(), line.text.end(),
                             [](char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; });
  if (!letters && !binary) {
    std::string_view clean = cleaned(line.text, out);
    return add_other(line, clean, strip_envelope(clean), out);
  }
  if (has_binding_needle(line.text) && parse_binding_line(line, out)) return;
  if (memmem(line.text.data(), line.text.size(), "Watchdog caught", 15)) {
    add_framework(out, line, FrameworkKind::WatchdogTimeout, line.text);
  } else if (memmem(line.text.data(), line.text.size(), "watchdog got stuck", 18)) {
    add_framework(out, line, FrameworkKind::WatchdogStuck, line.text);
  } else if (memmem(line.text.data(), line.text.size(), "Last error:", 11)) {
    out.expect_last_error = add_framework(out, line, FrameworkKind::LastError, line.text);
  } else if (!binary && may_report_crash(line.text) && add_crash(out, line)) {
  } else if (!binary && is_nccl_frame(line.text)) {
    add_framework(out, line, FrameworkKind::CrashFrame, line.text);
  } else if (!binary) {
    std::string_view clean = cleaned(line.text, out);
    add_other(line, clean, strip_envelope(clean), out);
  }
}

// A log viewer's table row around a line (CloudWatch Logs Insights:
// `| 2025-05-16T16:39:51.208-07:00 | NCCL version 2.21.5+cuda12.8`): its
// last cell; the line as it is when it is no such row.
std::string_view viewer_cell(std::string_view payload) {
  if (!payload.starts_with("| ")) return payload;
  std::string_view p = payload.substr(2);
  size_t bar = p.find(" | ");
  if (bar != std::string_view::npos && bar <= 40 && !p.starts_with("NCCL ")) p.remove_prefix(bar + 3);
  return p;
}

// A part of a line with no NCCL header: PyTorch's error lines, or the raw
// stdout banner (<= 2.21) that a launcher prefix may name the host of.
void parse_headerless(const Line& line, std::string_view segment, const Envelope& env, ParsedLines& out) {
  bool watchdog = env.payload.find("Watchdog caught") != std::string_view::npos;
  if (watchdog || env.payload.find("NCCL error") != std::string_view::npos) {
    add_framework(out, line, watchdog ? FrameworkKind::WatchdogTimeout : FrameworkKind::NcclError, segment);
    return;
  }
  std::string_view rest;
  std::string_view banner = viewer_cell(env.payload);
  Event ev = is_raw_banner(banner, rest) ? classify_message(banner) : Event{IgnoredEvent{}};
  // nccl-tests' "Test NCCL failure" and the like.
  if (!std::holds_alternative<VersionEvent>(ev)) return add_other(line, segment, env, out);
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = ParsedLines::Kind::Banner;
  item.line = line.number;
  item.raw = segment;
  item.launcher_host = launcher_host_name(env.launcher_host);
  item.event = std::move(ev);
}

// Header i of `scan` over `scanned`, the first scan of the segment or not;
// `per_operation`: is_per_operation() of its payload, when known.
void add_message(const Line& line, std::string_view segment, const Envelope& env, const HeaderScan& scan, size_t i,
                 std::string_view scanned, bool first_scan, ParsedLines& out,
                 std::optional<bool> per_operation = std::nullopt) {
  const NcclHeader& h = scan.headers[i];
  ++out.counts.nccl_lines;
  if (h.level == Level::Warn) ++out.counts.warn_lines;
  if (h.level == Level::Info) ++out.counts.info_lines;
  bool spliced = !first_scan || i > 0 || h.column > 0;
  bool named = h.host_form == HostForm::Named;
  bool per_op = per_operation ? *per_operation : is_per_operation(h.payload);
  Event ev = classify(h, per_op);
  auto kind = ParsedLines::Kind::Message;
  if (per_op && std::holds_alternative<IgnoredEvent>(ev)) {
    // Without a host of its own, only a launcher's host could be news.
    if (!named && env.launcher_host.empty()) return;
    if (named && !spliced && ((out.known_hosts && out.known_hosts->contains(h.host)) || out.hosts.contains(h.host))) {
      return;
    }
    kind = ParsedLines::Kind::HostSighting;
  }
  if (!spliced && named) out.hosts.insert(h.host);
  ParsedLines::Item& item = out.items.emplace_back();
  item.kind = kind;
  item.spliced = spliced;
  item.line = line.number;
  item.raw = segment;
  if (scan.count == kMaxHeadersPerLine || !first_scan) {
    // One message of a flattened log: cite it, not the whole log.
    size_t end = i + 1 < scan.count ? scan.headers[i + 1].column : scanned.size();
    item.raw = scanned.substr(h.column, end - h.column);
  }
  item.header = h;
  item.event = std::move(ev);
  if (!named) {
    item.launcher_host = launcher_host_name(env.launcher_host);
    item.launcher_rank = env.launcher_rank;
    item.rank_from = env.rank_from;
  }
}

// A line whose only " NCCL " is at `marker`, without control bytes or CR:
// a per-operation line of a known host is only counted, and a line that
// starts with its header, or with mpirun's usual tag and then the header, is
// read forward, as parse_segment() would read it (see leading_nccl_header()
// and tagged_leading_nccl_header()). False: neither, the full path reads it.
bool parse_fast(const Line& line, size_t marker, ParsedLines& out) {
  LineStart start;
  if (counts_only_at(line.text, marker, out, start)) {
    ++out.counts.nccl_lines;
    ++out.counts.info_lines;
    return true;
  }
  HeaderScan scan;
  Envelope env;
  if (leading_nccl_header(line.text, marker, scan.headers[0])) {
    env.payload = line.text;
  } else if (!nccl_header_after_tag(line.text, start.plain_tag, marker, env, scan.headers[0])) {
    return false;
  }
  scan.count = 1;
  // The message starts where per_operation_host() looked, when it was INFO.
  std::optional<bool> per_operation;
  if (scan.headers[0].level == Level::Info) per_operation = start.per_operation;
  add_message(line, line.text, env, scan, 0, env.payload, /*first_scan=*/true, out, per_operation);
  return true;
}

// One screen line of a line that holds "NCCL ".
void parse_segment(const Line& line, std::string_view segment, ParsedLines& out) {
  Envelope env = strip_envelope(segment);
  HeaderScan scan = scan_nccl_headers(env.payload);
  if (scan.count == 0) return parse_headerless(line, segment, env, out);
  if (scan.spliced) ++out.counts.spliced_lines;
  // A paste that lost its newlines holds a whole log in one line: the scan
  // stops at kMaxHeadersPerLine, so scan again from the last header found.
  std::string_view scanned = env.payload;
  for (bool first_scan = true;; first_scan = false) {
    bool more = scan.count == kMaxHeadersPerLine;
    size_t use = more ? scan.count - 1 : scan.count;
    for (size_t i = 0; i < use; ++i) add_message(line, segment, env, scan, i, scanned, first_scan, out);
    if (!more) break;
    scanned = scanned.substr(scan.headers[use].column);
    scan = scan_nccl_headers(scanned);
  }
}

// `sole_marker`: what sole_nccl_marker() gives for the line, when the caller knows it.
void parse_one_line(const Line& line, ParsedLines& out, std::optional<size_t> sole_marker = std::nullopt) {
  ++out.counts.lines;
  if (line.truncated) ++out.counts.truncated_lines;
  // `Last error:` puts ncclGetLastError's text on the next line, which holds
  // no marker of its own.
  if (out.expect_last_error) {
    out.expect_last_error = false;
    // The message may be empty; then the next line is anything, NCCL's own included.
    if (!holds_nccl_marker(line.text)) {
      out.expect_last_error =
          add_framework(out, line, FrameworkKind::LastError, line.text, ParsedLines::Kind::LastErrorText);
      return;
    }
  }
  size_t marker = sole_marker ? *sole_marker : sole_nccl_marker(line.text);
  if (marker != std::string_view::npos && parse_fast(line, marker, out)) return;
  // Cheap reject: every NCCL line the model uses holds "NCCL ".
  if (!has_nccl(line.text)) return parse_other_line(line, out);
  std::string_view clean = line.text;
  bool special = has_control_or_cr(clean);
  if (special) clean = cleaned(line.text, out);
  // tqdm-style carriage returns put several screen lines in one; each counts.
  while (!clean.empty()) {
    size_t cr = special ? clean.find('\r') : std::string_view::npos;
    std::string_view segment = clean.substr(0, cr);
    clean = cr == std::string_view::npos ? std::string_view{} : clean.substr(cr + 1);
    parse_segment(line, segment, out);
  }
}

}  // namespace

void parse_line(const Line& line, ParsedLines& out) {
  if (out.counts.lines > 0) return parse_one_line(line, out);
  // The first line of a batch may turn out to be the message of a `Last
  // error:` line in the batch before; the merge then takes it back.
  LineCounts before = out.counts;
  parse_one_line(line, out);
  out.first_text = line.text;
  out.first_number = line.number;
  out.first_items = out.items.size();
  out.first_share = out.counts;
  out.first_share -= before;
  out.first_share.lines = out.first_share.truncated_lines = 0;
}

void parse_marked_line(const Line& line, size_t marker, ParsedLines& out) {
  // What parse_one_line() would do first: the first line of a batch, a line
  // after `Last error:` and a cut line each take the full path.
  if (marker == std::string_view::npos || out.counts.lines == 0 || out.expect_last_error || line.truncated) {
    return parse_line(line, out);
  }
  parse_one_line(line, out, marker);
}

}  // namespace nd
