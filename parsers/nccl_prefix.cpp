#include "parsers/nccl_prefix.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "parsers/char_classes.h"
#include "parsers/fast_shapes.h"
#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {


// Characters that cannot be part of a host name; they end the host token.
bool ends_host(char c) {
  return c == ' ' || c == '\t' || c == ']' || c == '>' || c == ')' || c == '[' || c == '<' ||
         c == '(' || c == ',' || c == '"' || c == '\'' || c == '|' || c == '`' || c == '*' || c == '=';
}

struct LevelWord {
  std::string_view text;
  Level level;
};
constexpr LevelWord kLevels[] = {
    {"INFO", Level::Info}, {"WARN", Level::Warn}, {"TRACE", Level::Trace},
    {"CALL", Level::Call}, {"ABORT", Level::Abort},
};

// The decimal digits from `p`: where they end, and their value as
// parse_digits_u64() gives it, read in the same pass (every header has two).
size_t read_digits(std::string_view s, size_t p, std::optional<uint64_t>& value) {
  size_t start = p;
  uint64_t v = 0;  // wraps past 19 digits, and is then not used
  for (; p < s.size() && is_digit(s[p]); ++p) v = v * 10 + static_cast<uint64_t>(s[p] - '0');
  value = p - start > 18 ? parse_u64(s.substr(start, p - start)) : std::optional<uint64_t>(v);
  return p;
}

// Matches `:pid:tid [dev] ` (or `:pid:tid ` when dev_optional) at `colon`;
// returns the offset just past it, 0 on mismatch.
size_t match_ids(std::string_view s, size_t colon, NcclHeader& h, bool dev_optional) {
  std::optional<uint64_t> pid, tid;
  size_t start = colon + 1;
  size_t p = read_digits(s, start, pid);
  if (p == start || p >= s.size() || s[p] != ':') return 0;
  start = p + 1;
  p = read_digits(s, start, tid);
  if (p == start || p >= s.size() || s[p] != ' ') return 0;
  if (!pid || !tid) return 0;
  ++p;
  h.pid = *pid;
  h.tid = *tid;
  h.dev = -1;
  if (p < s.size() && s[p] == '[') {
    size_t q = p + 1;
    if (q < s.size() && s[q] == '-') ++q;
    size_t dstart = q;
    while (q < s.size() && is_digit(s[q])) ++q;
    if (q > dstart && q + 1 < s.size() && s[q] == ']' && s[q + 1] == ' ' && q - dstart < 9) {
      auto dev = parse_digits_u32(s.substr(dstart, q - dstart));  // 1 to 8 digits
      h.dev = s[p + 1] == '-' ? -static_cast<int>(*dev) : static_cast<int>(*dev);
      return q + 2;
    }
    return 0;
  }
  return dev_optional ? p : 0;
}

// `12:34:56 [0] NCCL INFO ...`: a time of day before a header-less line, not
// host "12" with pid 34 and tid 56. Hosts of one or two digits with a pid and
// a tid of two digits under 60 are far rarer than clock times.
bool is_clock_time(std::string_view s, size_t host_start, size_t colon) {
  size_t n = colon - host_start;
  if (n > 2 || colon + 6 >= s.size() || s[colon + 3] != ':' || s[colon + 6] != ' ') return false;
  for (size_t i : {host_start, host_start + n - 1, colon + 1, colon + 2, colon + 4, colon + 5}) {
    if (!is_digit(s[i])) return false;
  }
  auto two = [&](size_t at) { return (s[at] - '0') * 10 + (s[at + 1] - '0'); };
  int hours = n == 2 ? two(host_start) : s[host_start] - '0';
  return hours <= 24 && two(colon + 1) <= 59 && two(colon + 4) <= 60;
}

// Where a bracketed stand-in host (`<cluster_name>`, `[hostname]`, `{host}`)
// ending just before `colon` opens; npos when it is none.
size_t bracketed_host_start(std::string_view s, size_t from, size_t colon) {
  char close = s[colon - 1];
  char open = close == '>' ? '<' : close == ']' ? '[' : close == '}' ? '{' : 0;
  if (open == 0 || colon < from + 3) return std::string_view::npos;
  for (size_t i = colon - 2; i >= from && colon - i <= 64; --i) {
    char c = s[i];
    if (c == open) return i + 2 < colon ? i : std::string_view::npos;
    if (c == ' ' || c == '\t' || c == ':' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' ||
        c == '}') {
      return std::string_view::npos;
    }
    if (i == 0) break;
  }
  return std::string_view::npos;
}

// Finds the header that ends at `nccl_pos` (the space before "NCCL").
bool header_before(std::string_view s, size_t from, size_t nccl_pos, Level level, NcclHeader& out) {
  // The last `host:pid:tid [dev] ` before the level word wins: earlier ones
  // belong to spliced fragments or a custom timestamp.
  bool found = false;
  size_t pos = from;
  while (pos < nccl_pos) {
    const void* hit = std::memchr(s.data() + pos, ':', nccl_pos - pos);
    if (!hit) break;
    size_t colon = static_cast<size_t>(static_cast<const char*>(hit) - s.data());
    pos = colon + 1;
    // `:22901:22901 [0] NCCL INFO`: gethostname() gave an empty name (some
    // containers), or a paste blanked it out. Its pid and tid still count.
    bool nameless = colon == from || s[colon - 1] == ' ' || s[colon - 1] == '\t';
    bool bracketed = !nameless && ends_host(s[colon - 1]);
    size_t bracket_start = bracketed ? bracketed_host_start(s, from, colon) : 0;
    if (bracket_start == std::string_view::npos) continue;
    NcclHeader h;
    size_t end = match_ids(s, colon, h, level == Level::Call);
    if (end == 0 || end > nccl_pos + 1) continue;
    bool needs_location = level == Level::Warn || level == Level::Trace;
    if (end != nccl_pos + 1 && !needs_location) continue;
    size_t host_start = colon;
    if (bracketed) {
      host_start = bracket_start;
    } else {
      while (host_start > from && !ends_host(s[host_start - 1]) && s[host_start - 1] != ':') --host_start;
      if (host_start == colon && !nameless) continue;
    }
    if (!nameless && is_clock_time(s, host_start, colon)) continue;
    h.host = s.substr(host_start, colon - host_start);
    h.host_form = is_placeholder_host(h.host) ? HostForm::Placeholder : HostForm::Named;
    h.column = host_start;
    h.location = end < nccl_pos ? s.substr(end, nccl_pos - end) : std::string_view{};
    h.level = level;
    out = h;
    found = true;
    // Right before the level word: what follows ("pid:tid [dev]") holds no
    // other header, so the search is over.
    if (end == nccl_pos + 1) break;
  }
  return found;
}

// A time stamp that may stand before a header-less line: NCCL 2.26+'s
// `[2026-01-02 10:24:27] ` (any bracketed date and time), `2026-01-02
// 10:24:27,123 ` or `10:24:27.123 `. Returns its length with the space, 0
// when none.
size_t timestamp_length(std::string_view s) {
  auto time_char = [](char c) { return is_digit(c) || c == '-' || c == ':' || c == '.' || c == ',' || c == '/'; };
  size_t p = 0;
  if (!s.empty() && s[0] == '[') {
    size_t q = 1;
    while (q < s.size() && q < 48 && (time_char(s[q]) || s[q] == ' ' || s[q] == 'T')) ++q;
    if (q + 1 >= s.size() || s[q] != ']' || s[q + 1] != ' ') return 0;
    std::string_view inside = s.substr(1, q - 1);
    return inside.find(':') != std::string_view::npos && std::count_if(inside.begin(), inside.end(), is_digit) >= 4
               ? q + 2
               : 0;
  }
  // An optional date, then hh:mm:ss with an optional fraction.
  if (s.size() > 11 && is_digit(s[0]) && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 'T')) p = 11;
  if (s.size() < p + 9 || !is_digit(s[p]) || !is_digit(s[p + 1]) || s[p + 2] != ':' || !is_digit(s[p + 3]) ||
      !is_digit(s[p + 4]) || s[p + 5] != ':' || !is_digit(s[p + 6]) || !is_digit(s[p + 7])) {
    return 0;
  }
  p += 8;
  if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
    ++p;
    while (p < s.size() && is_digit(s[p])) ++p;
  }
  return p < s.size() && s[p] == ' ' ? p + 1 : 0;
}

// `12  ` or `12\t` before a header-less line: up to 7 digits and blanks.
size_t line_number_length(std::string_view s) {
  size_t p = 0;
  while (p < s.size() && p < 7 && is_digit(s[p])) ++p;
  if (p == 0 || p >= s.size() || (s[p] != ' ' && s[p] != '\t')) return 0;
  while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  return p;
}

// `misc/socket.cc:42`, `init.cc:1234`, `transport/net_ib/p2p.cc:688 (func)`:
// the first word is a source file and line.
bool starts_with_source_location(std::string_view loc) {
  std::string_view word = loc.substr(0, loc.find(' '));
  size_t colon = word.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == word.size()) return false;
  for (size_t i = colon + 1; i < word.size(); ++i) {
    if (!is_digit(word[i])) return false;
  }
  return word.substr(0, colon).find('.') != std::string_view::npos;
}

const LevelWord* level_at(std::string_view s, size_t at) {
  std::string_view after = s.substr(at);
  for (const auto& lw : kLevels) {
    if (after.starts_with(lw.text) && (after.size() == lw.text.size() || after[lw.text.size()] == ' ')) return &lw;
  }
  return nullptr;
}

// The host of a prefix that lost its ids, before ` [dev]`: `node-a` (a paste
// that cut `:pid:tid`), `[Node-A]:[PID]:[Thread]` (stand-ins for all three).
// Digits for the ids would have made a full header.
std::optional<std::string_view> host_without_ids(std::string_view token) {
  if (token.empty() || token.size() > 128) return std::nullopt;
  size_t colon = token.find(':');
  if (colon == std::string_view::npos) {
    bool letter = false;
    for (char c : token) {
      bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      letter |= alpha;
      if (!alpha && !is_digit(c) && c != '-' && c != '.' && c != '_') return std::nullopt;
    }
    return letter ? std::optional(token) : std::nullopt;
  }
  size_t second = token.find(':', colon + 1);
  if (colon == 0 || second == std::string_view::npos || token.find(':', second + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  for (std::string_view id : {token.substr(colon + 1, second - colon - 1), token.substr(second + 1)}) {
    bool stand_in = id.size() >= 3 && ((id.front() == '[' && id.back() == ']') || (id.front() == '<' && id.back() == '>'));
    if (!stand_in) return std::nullopt;
  }
  return token.substr(0, colon);
}

// A line that lost its `host:pid:tid`: `[0] NCCL INFO msg`, `NCCL INFO msg`,
// `[3] misc/socket.cc:42 NCCL WARN msg`, at the start of what the envelope
// left (after an optional time stamp). Anywhere else in a line, `NCCL INFO`
// is ordinary text. A WARN or TRACE needs its device or its source location,
// so that prose such as "NCCL WARN lines appear" is not taken for one.
bool bare_header(std::string_view s, NcclHeader& h) {
  size_t p = timestamp_length(s);
  // A line number the user put in front (`12  [4] NCCL INFO`, `cat -n`) is
  // taken only before a device bracket.
  size_t numbered = p == 0 ? line_number_length(s) : 0;
  p += numbered;
  h = NcclHeader{};
  h.host_form = HostForm::Absent;
  h.column = p;
  bool has_dev = false;
  if (numbered > 0 && (p >= s.size() || s[p] != '[')) return false;
  bool host_kept = false;
  if (numbered == 0 && p < s.size()) {
    size_t space = s.find(' ', p);
    // A bracket opens a device, unless it is a stand-in host's `[Node-A]:`.
    bool device_first = s[p] == '[' && s.substr(p, space - p).find(':') == std::string_view::npos;
    if (!device_first && space != std::string_view::npos && space + 1 < s.size() && s[space + 1] == '[') {
      if (auto host = host_without_ids(s.substr(p, space - p))) {
        h.host = *host;
        h.host_form = is_placeholder_host(*host) ? HostForm::Placeholder : HostForm::Named;
        host_kept = true;
        p = space + 1;
      }
    }
  }
  if (p < s.size() && s[p] == '[') {
    size_t q = p + 1;
    if (q < s.size() && s[q] == '-') ++q;
    size_t dstart = q;
    while (q < s.size() && is_digit(s[q])) ++q;
    if (q == dstart || q - dstart >= 9 || q + 1 >= s.size() || s[q] != ']' || s[q + 1] != ' ') return false;
    int dev = static_cast<int>(*parse_digits_u32(s.substr(dstart, q - dstart)));
    h.dev = s[p + 1] == '-' ? -dev : dev;
    has_dev = true;
    p = q + 2;
  }
  if (host_kept && !has_dev) return false;
  size_t word;
  if (s.substr(p).starts_with("NCCL ")) {
    word = p + 5;
  } else {
    size_t nccl = find_nccl_word(s, p);
    if (nccl == std::string_view::npos || nccl == p) return false;
    word = nccl + 6;
    h.location = s.substr(p, nccl - p);
  }
  const LevelWord* lw = level_at(s, word);
  if (!lw) return false;
  bool warn = lw->level == Level::Warn || lw->level == Level::Trace;
  if (!h.location.empty() && !warn) return false;
  if (warn && !has_dev && !starts_with_source_location(h.location)) return false;
  h.level = lw->level;
  h.payload = s.substr(std::min(s.size(), word + lw->text.size() + 1));
  return true;
}

}  // namespace

bool is_placeholder_host(std::string_view host) {
  if (host.empty()) return true;
  bool digits = std::any_of(host.begin(), host.end(), is_digit);
  // `<cluster_name>`, `[hostname]`, `{host}`; `<node1>` names one host.
  if (host.front() == '<' || host.front() == '[' || host.front() == '{') return !digits;
  if (digits) return false;
  // `xxx`, `XXXX-XX`, `***`, `node-X`, `gpu-xx`: a part made of x's or stars.
  size_t start = 0;
  while (start <= host.size()) {
    size_t end = host.find_first_of("-_.", start);
    if (end == std::string_view::npos) end = host.size();
    std::string_view part = host.substr(start, end - start);
    if (!part.empty() && part.find_first_not_of("xX*#?") == std::string_view::npos) return true;
    start = end + 1;
  }
  static constexpr std::string_view kWords[] = {"hostname", "host", "redacted", "hidden", "masked",
                                                "anonymized", "anonymised", "placeholder"};
  for (auto w : kWords) {
    if (host.size() == w.size() &&
        std::equal(host.begin(), host.end(), w.begin(), [](char a, char b) { return (a | 0x20) == b; })) {
      return true;
    }
  }
  return false;
}

HeaderScan scan_nccl_headers(std::string_view s) {
  HeaderScan scan;
  size_t search = 0;
  size_t region_start = 0;
  while (scan.count < kMaxHeadersPerLine) {
    size_t nccl = find_nccl_word(s, search);
    if (nccl == std::string_view::npos) break;
    search = nccl + 1;
    const LevelWord* word = level_at(s, nccl + 6);
    if (!word) continue;
    NcclHeader h;
    if (!header_before(s, region_start, nccl, word->level, h)) continue;
    size_t payload_start = std::min(s.size(), nccl + 6 + word->text.size() + 1);
    h.payload = s.substr(payload_start);
    if (scan.count > 0) {
      NcclHeader& prev = scan.headers[scan.count - 1];
      size_t prev_start = static_cast<size_t>(prev.payload.data() - s.data());
      prev.payload = s.substr(prev_start, h.column > prev_start ? h.column - prev_start : 0);
      scan.spliced = true;
    }
    scan.headers[scan.count++] = h;
    region_start = payload_start;
    search = payload_start;
  }
  // Only a line without any full header can be a header-less one: few lines
  // get here, and those that do are decided on their first bytes.
  if (scan.count == 0 && !s.empty() && bare_header(s, scan.headers[0])) {
    scan.count = 1;
  }
  return scan;
}

bool leading_nccl_header(std::string_view s, size_t marker, NcclHeader& out) {
  if (s.empty() || !is_alpha(s[0]) || marker + 6 > s.size()) return false;
  size_t colon = 1;
  bool digit = false;
  for (; colon < marker; ++colon) {
    char c = s[colon];
    if (is_digit(c)) {
      digit = true;
    } else if (!is_alpha(c) && c != '-' && c != '_') {
      break;
    }
  }
  if (colon >= marker || s[colon] != ':') return false;
  const LevelWord* word = level_at(s, marker + 6);
  if (!word) return false;
  NcclHeader h;
  if (match_ids(s, colon, h, word->level == Level::Call) != marker + 1) return false;
  h.host = s.substr(0, colon);
  // A host that starts with a letter and holds a digit names one (see
  // is_placeholder_host()): most do, and are not asked.
  h.host_form = !digit && is_placeholder_host(h.host) ? HostForm::Placeholder : HostForm::Named;
  h.level = word->level;
  h.payload = s.substr(std::min(s.size(), marker + 6 + word->text.size() + 1));
  out = h;
  return true;
}

bool tagged_leading_nccl_header(std::string_view s, size_t marker, Envelope& env, NcclHeader& out) {
  return nccl_header_after_tag(s, plain_ompi_tag_length(s), marker, env, out);
}

bool nccl_header_after_tag(std::string_view s, size_t tag, size_t marker, Envelope& env, NcclHeader& out) {
  if (tag == 0 || tag >= marker || s[tag] < 'a' || s[tag] > 'z') return false;
  std::string_view payload = s.substr(tag);
  if (!leading_nccl_header(payload, marker - tag, out)) return false;
  env = Envelope{};
  env.payload = payload;
  env.launcher = Launcher::OpenMpi;
  env.launcher_rank = plain_ompi_tag_rank(s);
  env.rank_from = Launcher::OpenMpi;
  env.prefix_length = tag;
  return true;
}

bool is_raw_banner(std::string_view payload, std::string_view& rest) {
  constexpr std::string_view kBanner = "NCCL version ";
  if (!payload.starts_with(kBanner)) return false;
  rest = payload.substr(kBanner.size());
  return !rest.empty() && is_digit(rest.front());
}

}  // namespace nd
