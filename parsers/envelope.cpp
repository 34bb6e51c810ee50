#include "parsers/envelope.h"

#include <algorithm>

#include <cstring>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// Counts leading digits of s from pos.
size_t digits_at(std::string_view s, size_t pos) {
  size_t n = 0;
  while (pos + n < s.size() && is_digit(s[pos + n])) ++n;
  return n;
}

bool starts_with_at(std::string_view s, size_t pos, std::string_view what) {
  return s.size() >= pos + what.size() && s.compare(pos, what.size(), what) == 0;
}

// `2024-03-18T15:46:14.238135024Z ` or `...+00:00 `, then optional CRI
// `stdout F `.
size_t match_iso_time(std::string_view s) {
  if (s.size() < 20) return 0;
  static constexpr char kShape[] = "dddd-dd-ddTdd:dd:dd";
  for (size_t i = 0; i < 19; ++i) {
    if (kShape[i] == 'd' ? !is_digit(s[i]) : s[i] != kShape[i]) return 0;
  }
  size_t p = 19;
  if (p < s.size() && s[p] == '.') p += 1 + digits_at(s, p + 1);
  if (p < s.size() && s[p] == 'Z') {
    ++p;
  } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    ++p;
    if (digits_at(s, p) < 2) return 0;
    p += 2;
    if (p < s.size() && s[p] == ':') ++p;
    if (digits_at(s, p) < 2) return 0;
    p += 2;
  } else {
    return 0;
  }
  if (p >= s.size() || s[p] != ' ') return 0;
  ++p;
  for (std::string_view stream : {"stdout ", "stderr "}) {
    if (starts_with_at(s, p, stream) && p + 9 <= s.size() &&
        (s[p + 7] == 'F' || s[p + 7] == 'P') && s[p + 8] == ' ') {
      return p + 9;
    }
  }
  return p;
}

// ctime(): `Thu May  7 10:39:20 2020` (24 characters).
bool is_ctime(std::string_view s, size_t p) {
  if (s.size() < p + 24) return false;
  std::string_view t = s.substr(p, 24);
  return is_upper(t[0]) && is_lower(t[1]) && is_lower(t[2]) && t[3] == ' ' &&
         is_upper(t[4]) && is_lower(t[5]) && is_lower(t[6]) && t[7] == ' ' &&
         (t[8] == ' ' || is_digit(t[8])) && is_digit(t[9]) && t[10] == ' ' &&
         is_digit(t[11]) && is_digit(t[12]) && t[13] == ':' && is_digit(t[14]) &&
         is_digit(t[15]) && t[16] == ':' && is_digit(t[17]) && is_digit(t[18]) &&
         t[19] == ' ' && digits_at(t, 20) == 4;
}

// Open MPI 4 glues ctime before the tag; Open MPI 5 brackets it.
size_t match_ompi_time(std::string_view s) {
  if (is_ctime(s, 0) && s.size() > 24 && (s[24] == '[' || s[24] == '<')) return 24;
  if (!s.empty() && s[0] == '[' && is_ctime(s, 1) && s.size() > 25 && s[25] == ']') return 26;
  return 0;
}

// `[1,0]<stdout>:`, `[1,0][host:pid]<stdout>: `, `[prterun-h-1@1,0]<stdout>: `,
// PMIx rank form `[0]<stdout>: `, or a bare `<stdout>:` after a timestamp.
size_t match_ompi_tag(std::string_view s, std::optional<uint32_t>& rank) {
  size_t p = 0;
  if (!s.empty() && s[0] == '[') {
    size_t close = s.find(']');
    if (close == std::string_view::npos) return 0;
    std::string_view inside = s.substr(1, close - 1);
    size_t comma = inside.rfind(',');
    std::string_view rank_text = comma == std::string_view::npos ? inside : inside.substr(comma + 1);
    auto r = parse_u32(rank_text);
    if (!r) return 0;
    p = close + 1;
    if (p < s.size() && s[p] == '[') {  // tag-detailed `[host:pid]`
      size_t close2 = s.find(']', p);
      if (close2 == std::string_view::npos) return 0;
      p = close2 + 1;
    }
    if (!starts_with_at(s, p, "<")) return 0;
    rank = r;
  }
  for (std::string_view stream : {"<stdout>:", "<stderr>:", "<stddiag>:"}) {
    if (starts_with_at(s, p, stream)) {
      p += stream.size();
      if (p < s.size() && s[p] == ' ') ++p;
      return p;
    }
  }
  return 0;
}

}  // namespace

size_t ompi_tag_length(std::string_view line) {
  // A timestamp in brackets is tried first, as strip_envelope() does.
  if (line.empty() || line[0] != '[' || match_ompi_time(line)) return 0;
  std::optional<uint32_t> rank;
  return match_ompi_tag(line, rank);
}

namespace {

// What follows the device bracket of a line that lost its `host:pid:tid`:
// `NCCL INFO ...`, or a WARN's source location `misc/socket.cc:42 NCCL WARN`.
bool follows_device(std::string_view rest) {
  for (std::string_view level : {"NCCL INFO", "NCCL WARN", "NCCL TRACE", "NCCL ABORT", "NCCL CALL"}) {
    if (rest.starts_with(level) && (rest.size() == level.size() || rest[level.size()] == ' ')) return true;
  }
  std::string_view word = rest.substr(0, rest.find(' '));
  size_t colon = word.rfind(':');
  return colon != std::string_view::npos && colon + 1 < word.size() && digits_at(word, colon + 1) == word.size() - colon - 1 &&
         word.substr(0, colon).find('.') != std::string_view::npos;
}

// Hydra `-prepend-rank` / viewer line numbers: `[12] `. Not the device of
// a header-less `[0] NCCL INFO ...`.
size_t match_hydra(std::string_view s, std::optional<uint32_t>& rank) {
  if (s.size() < 4 || s[0] != '[') return 0;
  size_t n = digits_at(s, 1);
  if (n == 0 || n > 9 || s.size() < n + 3 || s[1 + n] != ']' || s[2 + n] != ' ') return 0;
  if (follows_device(s.substr(n + 3))) return 0;
  rank = parse_u32(s.substr(1, n));
  return n + 3;
}

// What pastes put before a line: a Markdown quote `> `, a Markdown fence or
// code span glued to the line (```host:pid:tid …), a Databricks notebook
// export's `# MAGIC `, `# ` before the borders of a table pasted as
// comments, indentation, and the backslash of `\#`, which a Markdown source
// keeps so that a tool's `# gpu pwr` header line does not render as a heading.
size_t match_decoration(std::string_view s) {
  if (s[0] == '>') return s.size() > 1 && s[1] == ' ' ? 2 : 1;
  if (s[0] == '\\') return s.size() > 1 && s[1] == '#' ? 1 : 0;
  if (s[0] == '`') {  // a Markdown fence or code span glued to the line
    size_t p = 0;
    while (p < s.size() && s[p] == '`') ++p;
    return p;
  }
  if (s[0] == '#') {
    // A table pasted as comments: "# +----", "# | NVIDIA-SMI".
    if (s.size() > 2 && s[1] == ' ' && (s[2] == '|' || s[2] == '+')) return 2;
    if (!starts_with_at(s, 0, "# MAGIC")) return 0;
    return s.size() > 7 && s[7] == ' ' ? 8 : 7;
  }
  size_t p = 0;
  while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  return p;
}

// srun --label: right-aligned ` 3: `, heterogeneous `P1 3: `.
size_t match_srun(std::string_view s, std::optional<uint32_t>& rank) {
  size_t p = 0;
  if (!s.empty() && s[0] == 'P' && digits_at(s, 1) > 0) {
    p = 1 + digits_at(s, 1);
    if (p >= s.size() || s[p] != ' ') return 0;
  }
  while (p < s.size() && s[p] == ' ') ++p;
  size_t n = digits_at(s, p);
  if (n == 0 || n > 9 || p + n + 1 >= s.size() || s[p + n] != ':' || s[p + n + 1] != ' ') return 0;
  rank = parse_u32(s.substr(p, n));
  return p + n + 2;
}

// torchrun tee `[default0]:`, `[rank3]:`, excepthook `[rank3]: `.
size_t match_torchrun(std::string_view s, std::optional<uint32_t>& rank) {
  if (s.size() < 5 || s[0] != '[') return 0;
  size_t p = 1;
  while (p < s.size() && (is_lower(s[p]) || is_upper(s[p]) || s[p] == '_')) ++p;
  if (p == 1) return 0;
  size_t n = digits_at(s, p);
  if (n == 0 || n > 9 || p + n + 1 >= s.size() + 0 || s[p + n] != ']' ||
      p + n + 1 >= s.size() || s[p + n + 1] != ':') {
    return 0;
  }
  rank = parse_u32(s.substr(p, n));
  size_t end = p + n + 2;
  if (end < s.size() && s[end] == ' ') ++end;
  return end;
}

// Ray `(Actor pid=123) ` or `(Actor pid=123, ip=10.0.0.1) `.
size_t match_ray(std::string_view s) {
  if (s.size() < 8 || s[0] != '(') return 0;
  size_t close = s.find(") ");
  if (close == std::string_view::npos || close > 128) return 0;
  std::string_view inside = s.substr(1, close - 1);
  size_t pid = inside.find(" pid=");
  if (pid == std::string_view::npos || pid == 0) return 0;
  return close + 2;
}

// Ray's log deduplication ends a line it folded with ` [repeated 15x across cluster]`.
std::string_view strip_ray_repeat(std::string_view s) {
  constexpr std::string_view kTail = "x across cluster]";
  if (!s.ends_with(kTail)) return s;
  std::string_view head = s.substr(0, s.size() - kTail.size());
  size_t count = 0;
  while (count < head.size() && is_digit(head[head.size() - 1 - count])) ++count;
  constexpr std::string_view kOpen = " [repeated ";
  if (count == 0 || !head.substr(0, head.size() - count).ends_with(kOpen)) return s;
  return head.substr(0, head.size() - count - kOpen.size());
}

// kubectl --prefix `[pod/name/container] `.
size_t match_kubectl(std::string_view s) {
  if (!starts_with_at(s, 0, "[pod/")) return 0;
  size_t close = s.find("] ");
  return close == std::string_view::npos ? 0 : close + 2;
}

bool is_host_char(char c) {
  return is_digit(c) || is_lower(c) || is_upper(c) || c == '-' || c == '_' || c == '.';
}

// nccl-tests prints its failures after the host's name itself
// ("gpu07: Test NCCL failure common.cu:1005 '…'"): the name belongs to the
// run's text, not a launcher's prefix.
bool is_nccl_tests_failure(std::string_view after_host) { return after_host.starts_with("Test "); }

// pdsh/clush `host: `; only taken when NCCL text follows, because `word: `
// starts too many ordinary lines.
size_t match_pdsh(std::string_view s, std::string_view& host) {
  size_t p = 0;
  while (p < s.size() && p < 256 && is_host_char(s[p])) ++p;
  if (p == 0 || p + 2 > s.size() || s[p] != ':' || s[p + 1] != ' ') return 0;
  std::string_view rest = s.substr(p + 2);
  if (rest.find(" NCCL ") == std::string_view::npos && !rest.starts_with("NCCL ")) return 0;
  if (is_nccl_tests_failure(rest)) return 0;
  host = s.substr(0, p);
  return p + 2;
}

}  // namespace

std::string_view strip_control(std::string_view line, std::string& scratch) {
  if (std::memchr(line.data(), 0x1b, line.size()) == nullptr &&
      std::memchr(line.data(), 0, line.size()) == nullptr) {
    return line;
  }
  scratch.clear();
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == 0) continue;
    if (c != 0x1b) {
      scratch.push_back(c);
      continue;
    }
    if (i + 1 < line.size() && line[i + 1] == '[') {  // CSI: ESC [ params final
      size_t j = i + 2;
      while (j < line.size() && line[j] >= 0x30 && line[j] <= 0x3f) ++j;
      while (j < line.size() && line[j] >= 0x20 && line[j] <= 0x2f) ++j;
      i = j < line.size() ? j : line.size() - 1;
    } else if (i + 1 < line.size() && line[i + 1] == ']') {  // OSC: ends BEL or ESC '\'
      size_t j = i + 2;
      while (j < line.size() && line[j] != 0x07 && !(line[j] == 0x1b && j + 1 < line.size() && line[j + 1] == '\\')) ++j;
      i = (j < line.size() && line[j] == 0x1b) ? j + 1 : j;
    } else {
      ++i;  // two-byte escape
    }
  }
  return scratch;
}

size_t output_host_prefix(std::string_view payload, std::string_view& host) {
  size_t p = 0;
  bool marked = false;
  while (p < payload.size() && p < 256 && is_host_char(payload[p])) {
    marked |= is_digit(payload[p]) || payload[p] == '-' || payload[p] == '.';
    ++p;
  }
  if (p == 0 || !marked || !(is_lower(payload[0]) || is_upper(payload[0]))) return 0;
  if (p + 1 >= payload.size() || payload[p] != ':' || (payload[p + 1] != ' ' && payload[p + 1] != '\t')) return 0;
  // `nvidia-smi topo -m`'s NIC Legend ("  NIC0: mlx5_0") names a NIC, not a host.
  if (p > 3 && payload.starts_with("NIC") &&
      std::all_of(payload.begin() + 3, payload.begin() + static_cast<std::ptrdiff_t>(p), [](char c) { return is_digit(c); })) {
    return 0;
  }
  if (is_nccl_tests_failure(payload.substr(p + 2))) return 0;
  host = payload.substr(0, p);
  return p + 2;
}

std::string_view ansible_section_host(std::string_view payload) {
  size_t bar = payload.find(" | ");
  if (bar == 0 || bar == std::string_view::npos) return {};
  std::string_view host = payload.substr(0, bar);
  for (char c : host) {
    if (!is_host_char(c)) return {};
  }
  std::string_view rest = payload.substr(bar + 3);
  bool status = false;
  for (std::string_view word : {"CHANGED", "SUCCESS", "FAILED", "UNREACHABLE!"}) {
    if (rest.starts_with(word)) {
      rest.remove_prefix(word.size());
      status = true;
      break;
    }
  }
  if (!status) return {};
  if (rest.starts_with(" | rc=")) {
    rest.remove_prefix(6);
    while (!rest.empty() && (is_digit(rest.front()) || rest.front() == '-')) rest.remove_prefix(1);
  }
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  return rest == " >>" ? host : std::string_view{};
}

Envelope strip_envelope(std::string_view line) {
  Envelope env;
  std::string_view s = line;
  bool code_span_opened = false;
  // Bounded: every matcher consumes at least one byte.
  for (int round = 0; round < 16 && !s.empty(); ++round) {
    size_t n = 0;
    std::optional<uint32_t> rank;
    // Every prefix starts with a digit, '[', '<', '(', ' ', a host-name
    // character or a decoration ('>', '#', tab, '`'): most lines are decided on
    // their first byte.
    char first = s.front();
    if (!is_digit(first) && !is_upper(first) && !is_lower(first) && first != '[' && first != '<' &&
        first != '(' && first != ' ' && first != '-' && first != '_' && first != '.' && first != '>' &&
        first != '#' && first != '\t' && first != '\\' && first != '`') {
      break;
    }
    if (first == '>' || first == '#' || first == '\t' || first == '\\' || first == '`') {
      if (!(n = match_decoration(s))) break;
      code_span_opened = code_span_opened || first == '`';
    } else if (is_lower(first) && (n = match_pdsh(s, env.launcher_host))) {
      // A host name: only pdsh/clush starts so (the matchers below need
      // a digit, an upper-case letter or punctuation first).
      env.launcher = Launcher::Pdsh;
    } else if (is_lower(first)) {
      break;
    } else if ((n = match_iso_time(s))) {
      env.launcher = Launcher::Kubernetes;
    } else if ((n = match_ompi_time(s))) {
    } else if ((n = match_ompi_tag(s, rank))) {
      env.launcher = Launcher::OpenMpi;
    } else if ((n = match_kubectl(s))) {
      env.launcher = Launcher::Kubernetes;
    } else if ((n = match_hydra(s, rank))) {
      env.launcher = Launcher::Hydra;
    } else if ((n = match_torchrun(s, rank))) {
      env.launcher = Launcher::Torchrun;
    } else if ((n = match_ray(s))) {
      env.launcher = Launcher::Ray;
    } else if ((n = match_srun(s, rank))) {
      env.launcher = Launcher::Slurm;
    } else if ((n = match_pdsh(s, env.launcher_host))) {
      env.launcher = Launcher::Pdsh;
    } else if (first == ' ' && (n = match_decoration(s))) {
    } else {
      break;
    }
    if (rank) {
      env.launcher_rank = rank;
      env.rank_from = env.launcher;
    }
    s.remove_prefix(n);
  }
  env.prefix_length = line.size() - s.size();
  // A code span opened before the line closes at its end.
  if (code_span_opened) {
    while (!s.empty() && s.back() == '`') s.remove_suffix(1);
  }
  if (env.launcher == Launcher::Ray) s = strip_ray_repeat(s);
  env.payload = s;
  return env;
}

}  // namespace nd
