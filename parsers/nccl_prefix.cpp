#include "parsers/nccl_prefix.h"

#include <cstring>
#include <optional>

#include "parsers/fast_shapes.h"
#include "src/util/numbers.h"

namespace nd {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Characters that cannot be part of a host name; they end the host token.
bool ends_host(char c) {
  return c == ' ' || c == '\t' || c == ']' || c == '>' || c == ')' || c == '[' || c == '<' ||
         c == '(' || c == ',' || c == '"' || c == '\'' || c == '|';
}

struct LevelWord {
  std::string_view text;
  Level level;
};
constexpr LevelWord kLevels[] = {
    {"INFO", Level::Info}, {"WARN", Level::Warn}, {"TRACE", Level::Trace},
    {"CALL", Level::Call}, {"ABORT", Level::Abort},
};

// The value of the decimal digits s[start, end); up to 18 digits cannot
// overflow, longer runs take the checked path.
std::optional<uint64_t> digits_value(std::string_view s, size_t start, size_t end) {
  if (end - start > 18) return parse_u64(s.substr(start, end - start));
  uint64_t v = 0;
  for (size_t i = start; i < end; ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  return v;
}

// Matches `:pid:tid [dev] ` (or `:pid:tid ` when dev_optional) at `colon`;
// returns the offset just past it, 0 on mismatch.
size_t match_ids(std::string_view s, size_t colon, NcclHeader& h, bool dev_optional) {
  size_t p = colon + 1;
  size_t start = p;
  while (p < s.size() && is_digit(s[p])) ++p;
  if (p == start || p >= s.size() || s[p] != ':') return 0;
  auto pid = digits_value(s, start, p);
  start = ++p;
  while (p < s.size() && is_digit(s[p])) ++p;
  if (p == start || p >= s.size() || s[p] != ' ') return 0;
  auto tid = digits_value(s, start, p);
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
      auto dev = digits_value(s, dstart, q);  // fewer than 9 digits
      h.dev = s[p + 1] == '-' ? -static_cast<int>(*dev) : static_cast<int>(*dev);
      return q + 2;
    }
    return 0;
  }
  return dev_optional ? p : 0;
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
    if (colon == from || ends_host(s[colon - 1])) continue;
    NcclHeader h;
    size_t end = match_ids(s, colon, h, level == Level::Call);
    if (end == 0 || end > nccl_pos + 1) continue;
    bool needs_location = level == Level::Warn || level == Level::Trace;
    if (end != nccl_pos + 1 && !needs_location) continue;
    size_t host_start = colon;
    while (host_start > from && !ends_host(s[host_start - 1]) && s[host_start - 1] != ':') --host_start;
    if (host_start == colon) continue;
    h.host = s.substr(host_start, colon - host_start);
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

}  // namespace

HeaderScan scan_nccl_headers(std::string_view s) {
  HeaderScan scan;
  size_t search = 0;
  size_t region_start = 0;
  while (scan.count < kMaxHeadersPerLine) {
    size_t nccl = find_nccl_word(s, search);
    if (nccl == std::string_view::npos) break;
    search = nccl + 1;
    std::string_view after = s.substr(nccl + 6);
    const LevelWord* word = nullptr;
    for (const auto& lw : kLevels) {
      if (after.starts_with(lw.text) &&
          (after.size() == lw.text.size() || after[lw.text.size()] == ' ')) {
        word = &lw;
        break;
      }
    }
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
  return scan;
}

bool is_raw_banner(std::string_view payload, std::string_view& rest) {
  constexpr std::string_view kBanner = "NCCL version ";
  if (!payload.starts_with(kBanner)) return false;
  rest = payload.substr(kBanner.size());
  return !rest.empty() && is_digit(rest.front());
}

}  // namespace nd
