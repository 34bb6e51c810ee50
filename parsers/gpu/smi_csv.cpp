#include "parsers/gpu/smi_csv.h"

#include <array>
#include <cmath>
#include <charconv>
#include <optional>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

using Field = SmiCsvReader::Field;
using Column = SmiCsvReader::Column;

// Lines within which a command's first row must come when no header line
// follows it (`noheader`, or a paste that dropped the header).
constexpr uint32_t kCommandReach = 6;

struct Name {
  std::string_view name;
  Field field;
};

// --query-gpu names, canonical (as the header prints them) and the aliases
// a command line may use (`nvidia-smi --help-query-gpu`).
constexpr std::array<Name, 26> kGpuNames = {{
    {"index", Field::Index},
    {"name", Field::Name},
    {"gpu_name", Field::Name},
    {"pci.bus_id", Field::BusId},
    {"gpu_bus_id", Field::BusId},
    {"uuid", Field::Uuid},
    {"gpu_uuid", Field::Uuid},
    {"utilization.gpu", Field::UtilGpu},
    {"utilization.memory", Field::UtilMem},
    {"memory.used", Field::MemUsed},
    {"memory.total", Field::MemTotal},
    {"memory.free", Field::MemFree},
    {"power.draw", Field::PowerDraw},
    {"power.draw.instant", Field::PowerDrawInstant},
    {"power.draw.average", Field::PowerDrawAverage},
    {"power.limit", Field::PowerLimit},
    {"enforced.power.limit", Field::EnforcedPowerLimit},
    {"temperature.gpu", Field::Temp},
    {"clocks.sm", Field::SmClock},
    {"clocks.current.sm", Field::SmClock},
    {"clocks.max.sm", Field::MaxSmClock},
    {"pstate", Field::PState},
    {"timestamp", Field::Timestamp},
    {"driver_version", Field::DriverVersion},
    {"count", Field::Other},
    {"serial", Field::Other},
}};

// --query-compute-apps names (`--help-query-compute-apps`).
constexpr std::array<Name, 10> kAppNames = {{
    {"pid", Field::Pid},
    {"process_name", Field::ProcessName},
    {"name", Field::ProcessName},
    {"used_gpu_memory", Field::UsedMemory},
    {"used_memory", Field::UsedMemory},
    {"gpu_bus_id", Field::BusId},
    {"gpu_uuid", Field::Uuid},
    {"gpu_name", Field::Other},
    {"gpu_serial", Field::Other},
    {"timestamp", Field::Timestamp},
}};

// Non-dotted --query-gpu names we do not keep but must know to accept a
// header that holds them.
constexpr std::array<std::string_view, 6> kOtherGpuNames = {
    "vbios_version", "compute_mode", "compute_cap", "persistence_mode", "display_mode", "display_active"};

std::optional<Field> lookup(std::string_view name, bool apps) {
  if (apps) {
    for (const Name& n : kAppNames) {
      if (n.name == name) return n.field;
    }
    return std::nullopt;
  }
  for (const Name& n : kGpuNames) {
    if (n.name == name) return n.field;
  }
  for (std::string_view n : kOtherGpuNames) {
    if (n == name) return Field::Other;
  }
  // The throttle reasons and any later dotted field: read past.
  if (name.find('.') != std::string_view::npos) return Field::Other;
  return std::nullopt;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// nvidia-smi's field names: `memory.used`, `clocks_event_reasons.hw_slowdown`,
// `encoder.stats.sessionCount`.
bool is_field_name(std::string_view s) {
  if (s.empty() || !is_lower(s.front()) || s.back() == '.') return false;
  char prev = 0;
  for (char c : s) {
    bool ok = is_lower(c) || is_digit(c) || c == '_' || c == '.' || (c >= 'A' && c <= 'Z');
    if (!ok || (c == '.' && prev == '.')) return false;
    prev = c;
  }
  return true;
}

// MiB per unit. nvidia-smi means MiB where it writes MB (dmon does too).
std::optional<double> memory_scale(std::string_view unit) {
  if (unit.empty() || unit == "MiB" || unit == "MB") return 1.0;
  if (unit == "KiB" || unit == "KB") return 1.0 / 1024;
  if (unit == "GiB" || unit == "GB") return 1024.0;
  if (unit == "TiB" || unit == "TB") return 1024.0 * 1024;
  if (unit == "B") return 1.0 / (1024 * 1024);
  return std::nullopt;
}

bool is_memory(Field f) {
  return f == Field::MemUsed || f == Field::MemTotal || f == Field::MemFree || f == Field::UsedMemory;
}

// The header: `index, name, utilization.gpu [%], memory.used [MiB]`.
bool parse_header(std::string_view s, std::vector<Column>& columns, bool& apps) {
  if (s.empty() || !is_lower(s.front())) return false;
  struct Seen {
    std::string_view name, unit;
  };
  std::array<Seen, 64> seen;
  size_t n = 0;
  bool dotted_or_unit = false;
  for (size_t at = 0; at <= s.size();) {
    size_t comma = s.find(',', at);
    if (comma == std::string_view::npos) comma = s.size();
    std::string_view f = trim(s.substr(at, comma - at));
    at = comma + 1;
    std::string_view unit;
    if (f.ends_with(']')) {
      size_t open = f.rfind(" [");
      if (open == std::string_view::npos) return false;
      unit = f.substr(open + 2, f.size() - open - 3);
      f = f.substr(0, open);
      dotted_or_unit = true;
    }
    if (!is_field_name(f) || n == seen.size()) return false;
    if (f.find('.') != std::string_view::npos) dotted_or_unit = true;
    seen[n++] = {f, unit};
  }
  if (n == 1 && !dotted_or_unit) return false;

  // Which query: the process fields say --query-compute-apps, and then every
  // field must be one of its own; otherwise every field must be a
  // --query-gpu name and one a measurement or identity, so that the headers
  // of --query-retired-pages or --query-accounted-apps are not taken.
  // (`name` is the GPU's here: a process's is printed `process_name`.)
  bool has_app = false;
  for (size_t i = 0; i < n; ++i) {
    std::string_view f = seen[i].name;
    if (f == "pid" || f == "process_name" || f == "used_gpu_memory" || f == "used_memory") has_app = true;
  }
  bool measured = false;
  columns.clear();
  for (size_t i = 0; i < n; ++i) {
    auto f = lookup(seen[i].name, has_app);
    if (!f) return false;
    // A --query-gpu header prints canonical names; `gpu_bus_id` there is
    // --query-retired-pages or --query-remapped-rows.
    if (!has_app && seen[i].name.starts_with("gpu_")) return false;
    Column c;
    c.field = *f;
    if (is_memory(c.field)) {
      auto scale = memory_scale(seen[i].unit);
      if (!scale) return false;
      c.scale = *scale;
    }
    if (c.field != Field::Other && c.field != Field::Timestamp && c.field != Field::DriverVersion) measured = true;
    columns.push_back(c);
  }
  apps = has_app;
  return measured;
}

bool is_command_prefix(std::string_view p) {
  if (p.empty()) return true;
  char first = p.front(), last = p.back();
  auto prompt = [](char c) { return c == '$' || c == '#' || c == '>' || c == '%'; };
  if (prompt(last) || prompt(first) || first == '+') return true;
  // `watch`'s title, and wrappers after a prompt (`$ watch -n 1 nvidia-smi`).
  return p.starts_with("Every ") || p.starts_with("watch ") || p.find("$ ") != std::string_view::npos ||
         p.find("# ") != std::string_view::npos;
}

std::string_view unquote(std::string_view s) {
  while (!s.empty() && (s.front() == '"' || s.front() == '\'')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '"' || s.back() == '\'' || s.back() == ';')) s.remove_suffix(1);
  return s;
}

// `$ nvidia-smi --query-gpu=index,name --format=csv,noheader -l 1`: the
// columns. Returns false for any other line.
bool parse_command(std::string_view s, std::vector<Column>& columns, bool& apps, SmiCsvReader::Selection& sel) {
  size_t at = s.find("nvidia-smi");
  if (at == std::string_view::npos) return false;
  size_t end = at + 10;
  if (s.substr(end).starts_with(".exe")) end += 4;
  if (end < s.size() && s[end] != ' ' && s[end] != '\t') return false;
  size_t start = at;
  if (start > 0 && s[start - 1] == '/') {
    // A path (`/usr/bin/nvidia-smi`), not a quoted string in code.
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != '\t') --start;
    if (s.substr(start, at - start).find_first_of("'\"(=") != std::string_view::npos) return false;
  } else if (start > 0 && s[start - 1] != ' ' && s[start - 1] != '\t') {
    return false;
  }
  if (!is_command_prefix(trim(s.substr(0, start)))) return false;

  std::string_view query, format, id;
  bool want_query = false, want_format = false, want_id = false, has_id = false;
  sel = {};
  std::string_view rest = s.substr(end);
  while (!rest.empty()) {
    rest = trim(rest);
    size_t sp = rest.find_first_of(" \t");
    std::string_view arg = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp);
    if (want_query || want_format || want_id) {
      (want_query ? query : want_format ? format : id) = unquote(arg);
      want_query = want_format = want_id = false;
      continue;
    }
    // `-l 5`, `--loop=5`, `-lms 500`, `--loop-ms=500`: rows come again and again.
    if (arg == "-l" || arg == "-lms" || arg.starts_with("--loop")) sel.loop = true;
    // `-i 1`, `--id=1`: only the GPUs named.
    if (arg == "-i" || arg == "--id") {
      want_id = has_id = true;
    } else if (arg.starts_with("--id=")) {
      id = unquote(arg.substr(5));
      has_id = true;
    }
    for (std::string_view opt : {"--query-gpu", "--query-compute-apps"}) {
      if (!arg.starts_with(opt)) continue;
      std::string_view tail = arg.substr(opt.size());
      if (!tail.empty() && tail.front() != '=') continue;
      apps = opt == "--query-compute-apps";
      if (tail.empty()) {
        want_query = true;
      } else {
        query = unquote(tail.substr(1));
      }
    }
    if (arg.starts_with("--format=")) {
      format = unquote(arg.substr(9));
    } else if (arg == "--format") {
      want_format = true;
    }
  }
  if (query.empty() || format.find("csv") == std::string_view::npos) return false;
  if (has_id) {
    auto n = parse_u32(id);
    if (n) {
      sel.id = *n;
    } else {
      sel.ids = true;  // several, or by bus id / UUID
    }
  }
  columns.clear();
  for (size_t pos = 0; pos <= query.size();) {
    size_t comma = query.find(',', pos);
    if (comma == std::string_view::npos) comma = query.size();
    std::string_view name = query.substr(pos, comma - pos);
    pos = comma + 1;
    if (!is_field_name(name)) return false;
    Column c;
    c.field = lookup(name, apps).value_or(Field::Other);
    columns.push_back(c);
  }
  return true;
}

// "[N/A]", "N/A", "[Not Supported]", "[Unknown Error]", "[GPU is lost]".
bool is_absent(std::string_view v) { return v == "N/A" || (v.size() >= 2 && v.front() == '[' && v.back() == ']'); }

// A number with its unit ("98 %", "22000 MiB", "62.35 W", "1410 MHz") or
// bare (`nounits`). `unit` is set to what followed the number.
std::optional<double> number(std::string_view v, std::string_view& unit) {
  if (v.empty() || !(is_digit(v.front()) || v.front() == '-')) return std::nullopt;
  double d = 0;
  auto [ptr, ec] = read_double(v.data(), v.data() + v.size(), d);
  if (ec != std::errc()) return std::nullopt;
  unit = trim(v.substr(ptr - v.data()));
  return d;
}

bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool is_bus_id(std::string_view s) {
  size_t c1 = s.find(':');
  size_t c2 = c1 == std::string_view::npos ? c1 : s.find(':', c1 + 1);
  size_t dot = s.rfind('.');
  if (c2 == std::string_view::npos || dot == std::string_view::npos || dot < c2 || c1 < 4 || c1 > 8 ||
      c2 - c1 != 3 || dot - c2 != 3 || dot + 2 != s.size())
    return false;
  for (char c : s) {
    if (!is_hex(c) && c != ':' && c != '.') return false;
  }
  return true;
}

// `2024/03/01 12:00:00.000`
bool is_timestamp(std::string_view s) {
  if (s.size() < 19 || s[4] != '/' || s[7] != '/' || s[10] != ' ' || s[13] != ':' || s[16] != ':') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
    if (!is_digit(s[i])) return false;
  }
  return true;
}

// Reads one value into `g`/`p`; returns false when the value cannot be of
// this column. `score` adds what the value proves: one in nvidia-smi's own
// shape (with its unit, a bus id, a UUID, a timestamp, a pstate) counts two,
// a bare number one. A row away from the header must score two, so that a
// stray "Saving checkpoint, 1234" does not pass for `name, memory.used`
// without units.
bool read_value(std::string_view v, const Column& c, GpuSample& g, GpuProcess& p, int& score) {
  switch (c.field) {
    case Field::Other: return true;
    case Field::Name:
      if (v.empty()) return false;
      g.name.assign(v);
      return true;
    case Field::ProcessName:
      if (v.empty()) return false;
      p.name.assign(v);
      return true;
    case Field::DriverVersion:
      if (v.empty()) return false;
      if (!is_absent(v)) g.driver_version.assign(v);
      return true;
    case Field::Index:
    case Field::Pid: {
      if (is_absent(v)) return true;
      auto n = parse_u64(v);
      if (!n) return false;
      if (c.field == Field::Pid) {
        p.pid = n;
      } else {
        if (*n > UINT32_MAX) return false;
        g.index = static_cast<uint32_t>(*n);
      }
      score += 1;
      return true;
    }
    case Field::BusId:
      if (is_absent(v)) return true;
      if (!is_bus_id(v)) return false;
      g.bus_id.assign(v);
      p.gpu_bus_id.assign(v);
      score += 2;
      return true;
    case Field::Uuid:
      if (is_absent(v)) return true;
      if (!v.starts_with("GPU-") && !v.starts_with("MIG-")) return false;
      g.uuid.assign(v);
      p.gpu_uuid.assign(v);
      score += 2;
      return true;
    case Field::PState:
      if (is_absent(v)) return true;
      if (v.size() < 2 || v.front() != 'P' || !parse_u32(v.substr(1))) return false;
      g.perf_state.assign(v);
      score += 2;
      return true;
    case Field::Timestamp:
      if (is_absent(v)) return true;
      if (!is_timestamp(v)) return false;
      g.time.assign(v);
      score += 2;
      return true;
    default: break;
  }
  // The numbers.
  if (is_absent(v)) return true;
  std::string_view unit;
  auto d = number(v, unit);
  if (!d) return false;
  std::string_view want;
  switch (c.field) {
    case Field::UtilGpu:
    case Field::UtilMem: want = "%"; break;
    case Field::PowerDraw:
    case Field::PowerDrawInstant:
    case Field::PowerDrawAverage:
    case Field::PowerLimit:
    case Field::EnforcedPowerLimit: want = "W"; break;
    case Field::SmClock:
    case Field::MaxSmClock: want = "MHz"; break;
    case Field::Temp: want = "C"; break;
    default: break;
  }
  double x = *d;
  if (is_memory(c.field)) {
    auto scale = unit.empty() ? std::optional<double>(c.scale) : memory_scale(unit);
    if (!scale) return false;
    x *= *scale;
  } else if (!unit.empty() && unit != want) {
    return false;
  }
  score += unit.empty() ? 1 : 2;
  switch (c.field) {
    case Field::UtilGpu: g.util_pct = x; break;
    case Field::UtilMem: g.mem_bw_util_pct = x; break;
    case Field::MemUsed: g.mem_used_mib = x; break;
    case Field::MemTotal: g.mem_total_mib = x; break;
    case Field::UsedMemory: p.mem_mib = x; break;
    // power.draw first; the instant and average readings (R530+) stand in.
    case Field::PowerDraw: g.power_w = x; break;
    case Field::PowerDrawInstant:
    case Field::PowerDrawAverage:
      if (!g.power_w) g.power_w = x;
      break;
    // The enforced limit is the one that holds where both are asked.
    case Field::PowerLimit:
      if (!g.power_limit_w) g.power_limit_w = x;
      break;
    case Field::EnforcedPowerLimit: g.power_limit_w = x; break;
    case Field::Temp: g.temp_c = x; break;
    case Field::SmClock: g.sm_clock_mhz = x; break;
    case Field::MaxSmClock: g.max_sm_clock_mhz = x; break;
    case Field::MemFree: break;  // below
    default: break;
  }
  return true;
}

// memory.free where it is asked without memory.used.
std::optional<double> free_mib(std::string_view v, const Column& c) {
  std::string_view unit;
  auto d = number(v, unit);
  if (!d) return std::nullopt;
  auto scale = unit.empty() ? std::optional<double>(c.scale) : memory_scale(unit);
  if (!scale) return std::nullopt;
  return *d * *scale;
}

}  // namespace

bool SmiCsvReader::take(std::string_view payload, uint64_t line) {
  std::string_view s = trim(payload);
  if (s.empty()) return false;  // a blank line breaks no run of rows
  uint32_t ttl = cmd_ttl_;
  if (cmd_ttl_ > 0) --cmd_ttl_;

  // Cheap tests first: most lines offered are noise.
  bool has_comma = s.find(',') != std::string_view::npos;
  if (s.find("nvidia-smi") != std::string_view::npos) {
    std::vector<Column> cols;
    bool apps = false;
    Selection sel;
    if (parse_command(s, cols, apps, sel)) {
      selection_ = sel;
      selection_.shown = true;
      // Without `noheader` a header line comes first and replaces these
      // columns; a paste may have dropped it.
      cmd_columns_ = std::move(cols);
      cmd_apps_ = apps;
      cmd_ttl_ = kCommandReach;
      adjacent_ = true;
      return true;
    }
  }
  if (is_lower(s.front()) && (has_comma || s.find('.') != std::string_view::npos)) {
    std::vector<Column> cols;
    bool apps = false;
    if (parse_header(s, cols, apps)) {
      out_.saw(SideKind::SmiCsv);
      columns_ = std::move(cols);
      apps_ = apps;
      cmd_ttl_ = 0;
      if (!adjacent_) selection_ = {};  // a command line is only this header's when just before it
      adjacent_ = true;
      set_positions();
      return true;
    }
  }
  if (ttl > 0 && take_row(s, line, cmd_columns_, cmd_apps_, adjacent_)) {
    out_.saw(SideKind::SmiCsv);
    columns_ = std::move(cmd_columns_);
    apps_ = cmd_apps_;
    cmd_columns_.clear();
    cmd_ttl_ = 0;
    adjacent_ = true;
    set_positions();
    place(out_.samples, true);
    return true;
  }
  if (!columns_.empty() && take_row(s, line, columns_, apps_, adjacent_)) {
    place(out_.samples, !adjacent_);
    adjacent_ = true;
    return true;
  }
  release_unshown();
  adjacent_ = false;
  return false;
}

namespace {

// "2024/04/18 21:07:55.118" -> 76075.118: the clock part of a CSV
// timestamp; none when it has none.
std::optional<double> seconds_of_day(std::string_view time) {
  size_t space = time.rfind(' ');
  std::string_view clock = space == std::string_view::npos ? time : time.substr(space + 1);
  if (clock.size() < 8 || clock[2] != ':' || clock[5] != ':') return std::nullopt;
  auto field = [&](size_t at, size_t n) -> std::optional<double> {
    double v = 0;
    for (char c : clock.substr(at, n)) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  auto h = field(0, 2), m = field(3, 2), s = field(6, 2);
  if (!h || !m || !s) return std::nullopt;
  double frac = 0, scale = 0.1;
  for (char c : clock.substr(8)) {
    if (c == '.') continue;
    if (c < '0' || c > '9') break;
    frac += (c - '0') * scale;
    scale /= 10;
  }
  return *h * 3600 + *m * 60 + *s + frac;
}

}  // namespace

// Rows without index, bus id or UUID (`--query-gpu=utilization.gpu,memory.used`)
// come in nvidia-smi's order, GPU 0 first, once per query: where a row's
// place in its query can be told, it is the GPU's index (`-i N`: N). It can
// be told from the timestamp (the rows of one query are printed within
// a fraction of a second, a loop's queries at least -lms apart), or, without
// one, where the rows of one query stand together after a command line
// without a loop, or after a header whose command line was not kept (a
// paste shows one query; up to kMaxUnshownPositions rows, and a loop over
// GPUs of different models tells its queries apart by name); not for a loop
// without timestamps, nor `-i` naming several GPUs or naming them by bus id
// or UUID.
void SmiCsvReader::set_positions() {
  release_unshown();
  positional_ = false;
  unshown_ = false;
  first_name_.clear();
  other_name_ = false;
  next_position_ = 0;
  query_time_.reset();
  query_time_text_.clear();
  if (apps_) return;
  bool timed = false;
  for (const Column& c : columns_) {
    if (c.field == Field::Index || c.field == Field::BusId || c.field == Field::Uuid) return;
    timed = timed || c.field == Field::Timestamp;
  }
  if (selection_.ids || (!timed && selection_.shown && selection_.loop)) return;
  positional_ = true;
  timed_ = timed;
  unshown_ = !timed && !selection_.shown;
}

void SmiCsvReader::place(std::vector<GpuSample>& samples, bool first_of_run) {
  if (!positional_ || apps_ || samples.empty()) return;
  if (unshown_) return place_unshown(samples, first_of_run);
  GpuSample& g = samples.back();
  if (timed_) {
    std::optional<double> at = seconds_of_day(g.time);
    bool next_query = at && query_time_ ? std::abs(*at - *query_time_) >= kQueryGap
                                        : g.time != query_time_text_;
    if (first_of_run || next_query) {
      next_position_ = 0;
      query_time_ = at;
      query_time_text_ = g.time;
    }
  } else if (first_of_run) {
    next_position_ = 0;
  }
  if (selection_.id) {
    // One GPU asked for: every row is that one.
    g.index = *selection_.id;
    return;
  }
  if (next_position_ < kMaxPositions) g.index = next_position_++;
}

void SmiCsvReader::place_unshown(std::vector<GpuSample>& samples, bool first_of_run) {
  GpuSample row = std::move(samples.back());
  samples.pop_back();
  bool next_query = first_of_run;
  if (!first_of_run && next_position_ > 0) {
    if (row.name != first_name_) {
      other_name_ = true;
    } else if (other_name_) {
      next_query = true;
    }
  }
  if (next_query) {
    release_unshown();
    next_position_ = 0;
    other_name_ = false;
  }
  if (next_position_ >= kMaxUnshownPositions) {
    give_up_unshown();
    samples.push_back(std::move(row));
    return;
  }
  if (next_position_ == 0) first_name_ = row.name;
  row.index = next_position_++;
  unshown_rows_.push_back(std::move(row));
}

void SmiCsvReader::release_unshown() {
  for (GpuSample& g : unshown_rows_) out_.samples.push_back(std::move(g));
  unshown_rows_.clear();
}

void SmiCsvReader::give_up_unshown() {
  for (GpuSample& g : unshown_rows_) g.index.reset();
  release_unshown();
  positional_ = unshown_ = false;
}

bool SmiCsvReader::take_row(std::string_view s, uint64_t line, const std::vector<Column>& columns, bool apps,
                            bool adjacent) {
  size_t commas = 0;
  for (char c : s) commas += c == ',';
  if (commas + 1 != columns.size()) return false;
  GpuSample g;
  GpuProcess p;
  int score = 0;
  std::optional<double> free;
  size_t at = 0;
  for (const Column& c : columns) {
    size_t comma = s.find(',', at);
    if (comma == std::string_view::npos) comma = s.size();
    std::string_view v = trim(s.substr(at, comma - at));
    at = comma + 1;
    if (!read_value(v, c, g, p, score)) return false;
    if (c.field == Field::MemFree && !is_absent(v)) free = free_mib(v, c);
  }
  if (!adjacent && score < 2) return false;
  if (apps) {
    p.from = SideKind::SmiCsv;
    p.line = line;
    p.mps_server = names_mps_server(p.name);
    out_.processes.push_back(std::move(p));
  } else {
    if (!g.mem_used_mib && g.mem_total_mib && free) g.mem_used_mib = *g.mem_total_mib - *free;
    g.from = SideKind::SmiCsv;
    g.line = line;
    out_.samples.push_back(std::move(g));
  }
  return true;
}

}  // namespace nd
