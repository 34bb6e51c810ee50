#include "parsers/gpu/smi_dmon.h"

#include <array>
#include <optional>
#include <string>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

using Column = SmiDmonReader::Column;

// More than dmon prints with every -s letter and some --gpm-metrics.
constexpr size_t kMaxColumns = 64;

struct Name {
  std::string_view name;
  Column column;
};

// Every name dmon's -s letters print (p u c v m e t), old and new. Those
// feeding no field of GpuSample are Other.
constexpr std::array<Name, 22> kNames = {{
    {"pwr", Column::Power},          {"gtemp", Column::Temp},
    {"temp", Column::Temp},          {"mtemp", Column::Other},
    {"sm", Column::Util},            {"mem", Column::MemBw},
    {"enc", Column::Other},          {"dec", Column::Other},
    {"jpg", Column::Other},          {"ofa", Column::Other},
    {"mclk", Column::Other},         {"pclk", Column::SmClock},
    {"pviol", Column::PowerViolation}, {"tviol", Column::ThermalViolation},
    {"fb", Column::MemUsed},         {"bar1", Column::Other},
    {"ccpm", Column::Other},         {"sbecc", Column::Other},
    {"dbecc", Column::Other},        {"pci", Column::Other},
    {"rxpci", Column::Other},        {"txpci", Column::Other},
}};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits at blanks into `out`; false when there are more than out.size().
bool split(std::string_view s, std::array<std::string_view, kMaxColumns>& out, size_t& n) {
  n = 0;
  const char* p = s.data();
  const char* end = p + s.size();
  for (;;) {
    while (p < end && is_blank(*p)) ++p;
    if (p == end) return true;
    if (n == out.size()) return false;
    const char* begin = p;
    while (p < end && !is_blank(*p)) ++p;
    out[n++] = std::string_view(begin, static_cast<size_t>(p - begin));
  }
}

bool is_name(std::string_view t) {
  if (t.empty() || t.size() > 16) return false;
  for (char c : t) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_')) return false;
  }
  return true;
}

bool all_digits(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t) {
    if (!is_digit(c)) return false;
  }
  return true;
}

bool is_date(std::string_view t) { return t.size() == 8 && all_digits(t); }

bool is_time(std::string_view t) {
  return t.size() == 8 && t[2] == ':' && t[5] == ':' && all_digits(t.substr(0, 2)) && all_digits(t.substr(3, 2)) &&
         all_digits(t.substr(6, 2));
}

// A value cell: a number, or "-" (or "N/A") where the GPU reports none.
// False for anything else, so that a line of words is no row. dmon prints
// whole numbers: those are read here, the rest by read_double.
bool read_value(std::string_view t, std::optional<double>& out) {
  size_t i = t[0] == '-' ? 1 : 0;
  uint64_t whole = 0;
  size_t first = i;
  while (i < t.size() && i - first < 15 && is_digit(t[i])) whole = whole * 10 + static_cast<uint64_t>(t[i++] - '0');
  if (i == t.size() && i > first) {
    out = first == 1 ? -static_cast<double>(whole) : static_cast<double>(whole);
    return true;
  }
  if (i == first) {
    // "-" alone; read_double would take "inf" and "nan".
    if (t == "-" || t == "N/A") {
      out.reset();
      return true;
    }
    return false;
  }
  auto v = parse_double(t);
  if (!v) return false;
  out = v;
  return true;
}

}  // namespace

bool SmiDmonReader::take(std::string_view payload, uint64_t line) {
  // A names line of unknown columns waits for the very next line only.
  std::vector<Column> pending = std::move(pending_);
  pending_.clear();
  size_t i = 0;
  while (i < payload.size() && is_blank(payload[i])) ++i;
  if (i == payload.size()) return false;
  if (payload[i] == '#') return take_header(payload.substr(i + 1), pending);
  return !columns_.empty() && take_row(payload.substr(i), line);
}

// "# gpu   pwr gtemp mtemp    sm ...", "#Date       Time        gpu ...",
// then the units: "# Idx     W     C     C     % ...",
// "#YYYYMMDD   HH:MM:SS    Idx ...".
bool SmiDmonReader::take_header(std::string_view s, std::vector<Column>& pending) {
  std::array<std::string_view, kMaxColumns> t;
  size_t n = 0;
  if (!split(s, t, n) || n < 2) return false;
  size_t i = 0;
  bool date = t[i] == "Date";
  if (date) ++i;
  bool time = i < n && t[i] == "Time";
  if (time) ++i;
  std::vector<Column> columns;
  size_t known = 0;
  if (i < n && (t[i] == "gpu" || t[i] == "Idx") && i + 1 < n) {
    if (date) columns.push_back(Column::Date);
    if (time) columns.push_back(Column::Time);
    columns.push_back(Column::Index);
    for (size_t k = i + 1; k < n; ++k) {
      // pmon's header starts the same way; its rows are processes.
      if (!is_name(t[k]) || t[k] == "pid") {
        columns.clear();
        known = 0;
        break;
      }
      Column c = Column::Other;
      for (const Name& name : kNames) {
        if (name.name == t[k]) {
          c = name.column;
          ++known;
          break;
        }
      }
      columns.push_back(c);
    }
    // Every -s letter known today prints two names at least; a comment
    // that starts "# gpu" rarely names two of them.
    if (known >= 2) {
      adopt(std::move(columns));
      return true;
    }
  }
  size_t u = 0;
  if (t[u] == "YYYYMMDD") ++u;
  if (u < n && t[u] == "HH:MM:SS") ++u;
  if (u < n && t[u] == "Idx") {
    // Columns of a newer -s letter only: the units line under them
    // confirms the names line before it.
    if (!pending.empty() && pending.size() == n) {
      adopt(std::move(pending));
      return true;
    }
    if (!columns_.empty()) return true;
  }
  if (!columns.empty()) pending_ = std::move(columns);
  return false;
}

void SmiDmonReader::adopt(std::vector<Column> columns) {
  columns_ = std::move(columns);
  has_date_ = has_time_ = false;
  for (Column c : columns_) {
    has_date_ = has_date_ || c == Column::Date;
    has_time_ = has_time_ || c == Column::Time;
  }
  out_.saw(SideKind::SmiDmon);
}

// "    0    75    34     -    12     3     0     0  1593  1410" and, with
// -o DT, " 20240104   13:54:35      0 ...": one cell per header column.
bool SmiDmonReader::take_row(std::string_view s, uint64_t line) {
  std::array<std::string_view, kMaxColumns> cells;
  size_t n = 0;
  if (!split(s, cells, n) || n != columns_.size()) return false;

  // Filled in place: a sample is 360 bytes, and a line that turns out not
  // to be a row (rare) is taken back.
  GpuSample& g = out_.samples.emplace_back();
  g.from = SideKind::SmiDmon;
  g.line = line;
  std::string_view date, time;
  std::optional<double> ignored;
  for (size_t i = 0; i < n; ++i) {
    std::string_view c = cells[i];
    bool ok = true;
    switch (columns_[i]) {
      case Column::Date:
        date = c;
        ok = is_date(c);
        break;
      case Column::Time:
        time = c;
        ok = is_time(c);
        break;
      case Column::Index:
        g.index = parse_u32(c);
        ok = g.index.has_value();
        break;
      case Column::Power: ok = read_value(c, g.power_w); break;
      case Column::Temp: ok = read_value(c, g.temp_c); break;
      case Column::Util: ok = read_value(c, g.util_pct); break;
      case Column::MemBw: ok = read_value(c, g.mem_bw_util_pct); break;
      case Column::SmClock: ok = read_value(c, g.sm_clock_mhz); break;
      case Column::MemUsed: ok = read_value(c, g.mem_used_mib); break;
      case Column::PowerViolation: ok = read_value(c, g.power_violation); break;
      case Column::ThermalViolation: ok = read_value(c, g.thermal_violation); break;
      case Column::Other: ok = read_value(c, ignored); break;
    }
    if (!ok) {
      out_.samples.pop_back();
      return false;
    }
  }
  if (has_date_ && has_time_) {
    g.time.reserve(date.size() + 1 + time.size());
    g.time.append(date).append(" ").append(time);
  } else if (has_date_ || has_time_) {
    g.time.assign(has_date_ ? date : time);
  }
  return true;
}

}  // namespace nd
