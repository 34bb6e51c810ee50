#include "parsers/gpu/smi_table.h"

#include <algorithm>
#include <array>

#include "src/util/numbers.h"
#include "src/util/text.h"

namespace nd {
namespace {

// Foreign lines tolerated inside a table: another writer on the same pipe
// can splice a line or two into it; more than this and the table was cut.
constexpr uint32_t kMaxGap = 4;

// Whitespace-separated words of a cell, as views; a cell never has more
// than a dozen outside a process name, which is read as one span instead.
struct Words {
  static constexpr size_t kMax = 16;
  std::array<std::string_view, kMax> w;
  size_t n = 0;
  explicit Words(std::string_view s) {
    size_t i = 0;
    while (i < s.size() && n < kMax) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      size_t start = i;
      while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
      if (i > start) w[n++] = s.substr(start, i - start);
    }
  }
  std::string_view operator[](size_t i) const { return i < n ? w[i] : std::string_view(); }
};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool hex_run(std::string_view s, size_t min, size_t max) {
  if (s.size() < min || s.size() > max) return false;
  for (char c : s) {
    if (!is_hex(c)) return false;
  }
  return true;
}

// "00000000:06:00.0" (R384+) or "0000:06:00.0" (older drivers).
bool is_bus_id(std::string_view s) {
  size_t c1 = s.find(':');
  if (c1 == std::string_view::npos) return false;
  size_t c2 = s.find(':', c1 + 1);
  size_t dot = s.find('.', c1 + 1);
  if (c2 == std::string_view::npos || dot == std::string_view::npos || dot < c2) return false;
  return hex_run(s.substr(0, c1), 4, 8) && hex_run(s.substr(c1 + 1, c2 - c1 - 1), 2, 2) &&
         hex_run(s.substr(c2 + 1, dot - c2 - 1), 2, 2) && hex_run(s.substr(dot + 1), 1, 1);
}

// `value` + `unit` ("62W", "4MiB", "29C", "98%"); "N/A", "ERR!", "[N/A]"
// and anything else that is not a number are absent.
std::optional<double> number_with(std::string_view s, std::string_view unit) {
  if (!s.ends_with(unit)) return std::nullopt;
  s.remove_suffix(unit.size());
  if (s.empty() || !is_digit(s.front())) return std::nullopt;
  return parse_double(s);
}

// Memory cells say MiB; drivers before R331 said MB for the same unit.
std::optional<double> mib(std::string_view s) {
  if (auto v = number_with(s, "MiB")) return v;
  return number_with(s, "MB");
}

// The frames: `+----+----+`, `|----+----|`, `|====+====|`.
bool is_frame(std::string_view s) {
  if (s.size() < 3 || (s.front() != '+' && s.front() != '|') || (s.back() != '+' && s.back() != '|')) return false;
  bool rule = false;
  for (char c : s) {
    if (c == '-' || c == '=') {
      rule = true;
    } else if (c != '+' && c != '|') {
      return false;
    }
  }
  return rule;
}

// The top frame of a box: one `+-----+` run, no inner joints.
bool is_top_frame(std::string_view s) {
  if (s.size() < 10 || s.front() != '+' || s.back() != '+') return false;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] != '-') return false;
  }
  return true;
}

bool is_content(std::string_view s) { return s.size() >= 2 && s.front() == '|' && s.back() == '|'; }

// nvidia-smi's date line, C's ctime(): "Tue Mar  5 10:00:00 2024".
bool is_date(std::string_view s) {
  static constexpr std::string_view kDays = "MonTueWedThuFriSatSun";
  static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (s.size() != 24 || s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || s[19] != ' ')
    return false;
  size_t day = kDays.find(s.substr(0, 3));
  size_t month = kMonths.find(s.substr(4, 3));
  if (day == std::string_view::npos || day % 3 != 0 || month == std::string_view::npos || month % 3 != 0) return false;
  if ((s[8] != ' ' && !is_digit(s[8])) || !is_digit(s[9])) return false;
  for (size_t i : {11, 12, 14, 15, 17, 18, 20, 21, 22, 23}) {
    if (!is_digit(s[i])) return false;
  }
  return true;
}

// "C", "G", "C+G", "M", "M+C": compute, graphics, MPS and their mixes.
bool is_process_type(std::string_view s) {
  if (s.empty() || s.size() % 2 == 0) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (i % 2 == 0 ? (c != 'C' && c != 'G' && c != 'M') : c != '+') return false;
  }
  return true;
}

bool is_id_or_na(std::string_view s) { return all_digits(s) || s == "N/A"; }

// The word after `key` in `text` ("Driver Version:" -> "535.104.05").
std::string word_after(std::string_view text, std::string_view key) {
  size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  Words w(text.substr(at + key.size()));
  return std::string(w[0]);
}

std::string_view first_cell(std::string_view inner) { return trim(inner.substr(0, inner.find('|'))); }

// `| NVIDIA-SMI 535.104.05  Driver Version: ...|`: the table's own header.
bool is_version_header(std::string_view s) {
  if (!is_content(s)) return false;
  std::string_view t = first_cell(s.substr(1, s.size() - 2));
  if (!t.starts_with("NVIDIA-SMI ")) return false;
  Words w(t);
  return w.n >= 2 && is_digit(w[1].front()) && w[1].find('.') != std::string_view::npos;
}

// `| GPU  Name   Persistence-M| Bus-Id   Disp.A | ...|`: the GPU box's
// column header, enough to open a table whose top was not pasted.
bool is_gpu_header(std::string_view inner) {
  std::string_view t = first_cell(inner);
  return t.starts_with("GPU ") && t.find("Name") != std::string_view::npos &&
         inner.find("Bus-Id") != std::string_view::npos;
}

// The column header's second line, where a paste begins with it:
// `| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |`.
bool is_gpu_header_second(std::string_view inner) {
  std::string_view t = first_cell(inner);
  return t.starts_with("Fan ") && t.find("Temp") != std::string_view::npos &&
         inner.find("Memory-Usage") != std::string_view::npos;
}

// The first line of the column header that lost its first characters in the
// copy: `Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |`.
bool is_cut_gpu_header(std::string_view s) {
  return s.front() != '|' && s.find("Persistence-M|") != std::string_view::npos &&
         s.find("| Bus-Id") != std::string_view::npos;
}

// `| Processes:     GPU Memory |` (R4xx) or `| Processes:   |` (R450+).
bool is_processes_title(std::string_view inner) {
  std::string_view t = trim(inner);
  if (!t.starts_with("Processes:")) return false;
  t = trim(t.substr(10));
  return t.empty() || t == "GPU Memory";
}

// The process box's column header, where a paste begins with it:
// `|  GPU   GI   CI        PID   Type   Process name        GPU Memory |`.
bool is_processes_header(std::string_view inner) {
  std::string_view t = trim(inner);
  return t.starts_with("GPU ") && t.find(" PID ") != std::string_view::npos &&
         t.find(" Type ") != std::string_view::npos && t.find("Process name") != std::string_view::npos;
}

}  // namespace

bool SmiTableReader::take(std::string_view payload, uint64_t line) {
  std::string_view s = trim(payload);
  Before before = before_;
  before_ = Before::Other;
  if (is_date(s)) {
    before_ = Before::Date;
    date_.assign(s);
  } else if (is_top_frame(s) && before == Before::Date) {
    before_ = Before::DateFrame;
  }

  if (open_) {
    if (take_table_line(s, line)) return true;
    if (open_) return false;
    // The table ended at this line; it may open the next one.
  }
  return opens(s, before, line);
}

bool SmiTableReader::opens(std::string_view s, Before before, uint64_t line) {
  if (s.empty()) return false;
  if (is_cut_gpu_header(s)) {
    open(Section::Gpus, before);
    return true;
  }
  if (s.front() != '|') return false;
  if (is_version_header(s)) {
    open(Section::Version, before);
    take_version(s);
    return true;
  }
  if (!is_content(s)) return false;
  std::string_view inner = s.substr(1, s.size() - 2);
  if (is_gpu_header(inner) || is_gpu_header_second(inner)) {
    open(Section::Gpus, before);
    return true;
  }
  if (is_processes_title(inner) || is_processes_header(inner)) {
    open(Section::Processes, before);
    return true;
  }
  // A slice of a long process list: its rows alone, whose shape (GPU, ids,
  // PID, type, name, memory) no other tool prints. Nothing above vouches for
  // them, so it takes two rows in a row, each with its memory cell.
  if (auto p = parse_process_row(inner, line); p && p->mem_mib) {
    if (!lone_row_ || lone_row_->line + 1 != line) {
      lone_row_ = std::move(p);
      return false;
    }
    open(Section::Processes, before);
    rule_seen_ = true;  // the frame under the rows ends the table
    out_.processes.push_back(std::move(*lone_row_));
    out_.processes.push_back(std::move(*p));
    lone_row_.reset();
    return true;
  }
  return false;
}

void SmiTableReader::open(Section section, Before before) {
  close();
  out_.saw(SideKind::SmiTable);
  open_ = true;
  section_ = section;
  box_closed_ = after_blank_ = rule_seen_ = false;
  gap_ = 0;
  time_ = before == Before::Other ? std::string() : date_;
  driver_.clear();
  cuda_.clear();
}

void SmiTableReader::close() {
  push_pending();
  open_ = false;
}

void SmiTableReader::push_pending() {
  if (pending_) out_.samples.push_back(std::move(*pending_));
  pending_.reset();
}

// Inside an open table: returns whether the line is part of it; closes the
// table when the line shows it is over.
bool SmiTableReader::take_table_line(std::string_view s, uint64_t line) {
  if (s.empty()) {
    // The blank line between boxes is nvidia-smi's own; elsewhere it is noise.
    ++gap_;
    if (box_closed_ && gap_ <= kMaxGap) {
      after_blank_ = true;
      return true;
    }
    if (gap_ > kMaxGap) close();
    return false;
  }
  if (is_version_header(s)) {
    // The next table of a loop (`watch`, `-l`, a shell loop).
    close();
    return false;
  }
  bool after_noise = gap_ > 0 && !after_blank_;
  if (is_frame(s)) {
    if (s.front() == '|' && (after_blank_ || after_noise || box_closed_)) {
      // A `|---|` rule never follows a frame, a blank line or noise in
      // nvidia-smi's output: a markdown table, not ours.
      close();
      return false;
    }
    gap_ = 0;
    after_blank_ = false;
    if (s.front() == '+') {
      push_pending();
      // The frame under the process rows ends the table.
      if (section_ == Section::Processes && rule_seen_ && !box_closed_) {
        box_closed_ = true;
        close();
        return true;
      }
      box_closed_ = true;
    } else {
      box_closed_ = false;
      if (s.find('=') != std::string_view::npos) rule_seen_ = true;
    }
    return true;
  }
  if (is_content(s)) {
    // A box starts with its top frame, and a GPU box with its first row; a
    // cell line anywhere else after a frame, a blank line or foreign lines
    // belongs to something else unless it is recognised.
    bool gpu_box = section_ == Section::Gpus || section_ == Section::Version;
    bool strict = after_blank_ || after_noise || (box_closed_ && gpu_box);
    if (take_content(s, line) || !strict) {
      gap_ = 0;
      after_blank_ = box_closed_ = false;
      return true;
    }
    close();
    return false;
  }
  if (++gap_ > kMaxGap) close();
  return false;
}

// A `|...|` line inside the table: returns whether it is recognised (a
// section title, a column header or a row), for the caller to judge lines
// that follow noise.
bool SmiTableReader::take_content(std::string_view s, uint64_t line) {
  std::string_view inner = s.substr(1, s.size() - 2);
  std::string_view head = first_cell(inner);
  if (is_gpu_header(inner)) {
    section_ = Section::Gpus;
    rule_seen_ = false;
    return true;
  }
  if (head.starts_with("MIG devices")) {
    section_ = Section::Mig;
    rule_seen_ = false;
    return true;
  }
  if (is_processes_title(inner)) {
    section_ = Section::Processes;
    rule_seen_ = false;
    return true;
  }
  if (box_closed_ && inner.find('|') == std::string_view::npos && trim(inner).ends_with(':')) {
    // The title of a box this reader does not know: read past its rows.
    section_ = Section::Other;
    rule_seen_ = false;
    return true;
  }
  switch (section_) {
    // Rows right under the version box: a paste that lost the column header.
    case Section::Version:
    case Section::Gpus: return take_gpu_row(inner, line);
    case Section::Processes: return take_process_row(inner, line);
    case Section::Mig:
    case Section::Other: return false;
  }
  return false;
}

void SmiTableReader::take_version(std::string_view text) {
  driver_ = word_after(text, "Driver Version:");
  if (driver_.empty()) driver_ = word_after(text, "KMD Version:");
  cuda_ = word_after(text, "CUDA Version:");
  if (cuda_.empty()) cuda_ = word_after(text, "CUDA UMD Version:");
}

// The rows of a GPU box:
//   |   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |
//   | N/A   27C    P0             69W /  700W |       4MiB /  81559MiB |      0%      Default |
//   |                                         |                        |             Disabled |
// The third (MIG M., R450+) and the column headers are read past.
bool SmiTableReader::take_gpu_row(std::string_view inner, uint64_t line) {
  size_t bar1 = inner.find('|');
  if (bar1 == std::string_view::npos) return false;
  size_t bar2 = inner.find('|', bar1 + 1);
  std::string_view c0 = inner.substr(0, bar1);
  std::string_view c1 = inner.substr(bar1 + 1, bar2 == std::string_view::npos ? std::string_view::npos : bar2 - bar1 - 1);
  std::string_view c2 = bar2 == std::string_view::npos ? std::string_view() : inner.substr(bar2 + 1);
  Words w0(c0), w1(c1);

  // The persistence mode (or the Windows driver model) ends the first cell,
  // the display mode the second.
  static constexpr std::array<std::string_view, 7> kModes = {"On", "Off", "WDDM", "TCC", "MCDM", "N/A", "ERR!"};
  auto is_mode = [](std::string_view w) { return std::find(kModes.begin(), kModes.end(), w) != kModes.end(); };
  // A bus id the user blanked out or cut (`00000000:`, `xxxx`) before
  // pasting still leaves the row's shape: index, name, mode | ..., mode.
  bool bus = is_bus_id(w1[0]);
  if (w0.n >= 1 && all_digits(w0[0]) &&
      (bus || (w0.n >= 3 && is_mode(w0[w0.n - 1]) && w1.n >= 1 && w1.n <= 2 && is_mode(w1[w1.n - 1])))) {
    push_pending();
    GpuSample g;
    g.from = SideKind::SmiTable;
    g.line = line;
    g.index = parse_u32(w0[0]);
    if (bus) g.bus_id.assign(w1[0]);
    g.time = time_;
    g.driver_version = driver_;
    g.cuda_version = cuda_;
    // The name runs from after the index to the mode; a cut name keeps its "...".
    std::string_view name = trim(c0.substr(w0[0].data() + w0[0].size() - c0.data()));
    for (std::string_view mode : kModes) {
      if (name.size() > mode.size() && name.ends_with(mode) && name[name.size() - mode.size() - 1] == ' ') {
        name = trim(name.substr(0, name.size() - mode.size()));
        break;
      }
    }
    g.name.assign(name);
    pending_ = std::move(g);
    return true;
  }

  // The second row: `Fan Temp Perf Usage / Cap | Used / Total | Util Compute`.
  size_t slash0 = w0.n;
  for (size_t i = 1; i + 1 < w0.n; ++i) {
    if (w0[i] == "/") slash0 = i;
  }
  bool memory = w1.n == 3 && w1[1] == "/";
  if (slash0 == w0.n && !memory) return false;
  if (!pending_) return true;
  GpuSample& g = *pending_;
  for (size_t i = 0; i < w0.n; ++i) {
    std::string_view t = w0[i];
    if (t.size() >= 2 && t.front() == 'P' && all_digits(t.substr(1))) {
      g.perf_state.assign(t);
    } else if (auto c = number_with(t, "C")) {
      g.temp_c = c;
    }
  }
  if (slash0 < w0.n) {
    g.power_w = number_with(w0[slash0 - 1], "W");
    g.power_limit_w = number_with(w0[slash0 + 1], "W");
  }
  if (memory) {
    g.mem_used_mib = mib(w1[0]);
    g.mem_total_mib = mib(w1[2]);
  }
  Words w2(c2);
  g.util_pct = number_with(w2[0], "%");
  push_pending();
  return true;
}

// A row of the Processes box, with GI/CI ID columns (R450+) or without:
//   |    0   N/A  N/A      12345      C   python                       1000MiB |
//   |    0      12345      C   python                                  1000MiB |
// The type sits third without GI/CI and fifth with them, where the third is
// a CI id, never a type: the shape tells the layout. "No running processes
// found" and old GeForce's "Not Supported" are no rows.
bool SmiTableReader::take_process_row(std::string_view inner, uint64_t line) {
  auto p = parse_process_row(inner, line);
  if (!p) return false;
  out_.processes.push_back(std::move(*p));
  return true;
}

std::optional<GpuProcess> SmiTableReader::parse_process_row(std::string_view inner, uint64_t line) const {
  if (inner.find('|') != std::string_view::npos) return std::nullopt;
  Words w(inner);
  if (w.n < 3 || !all_digits(w[0])) return std::nullopt;
  size_t type_at = 0;
  if (is_process_type(w[2]) && is_id_or_na(w[1])) {
    type_at = 2;
  } else if (w.n >= 5 && is_process_type(w[4]) && is_id_or_na(w[3]) && is_id_or_na(w[1]) && is_id_or_na(w[2])) {
    type_at = 4;
  } else {
    return std::nullopt;
  }
  GpuProcess p;
  p.from = SideKind::SmiTable;
  p.line = line;
  p.gpu_index = parse_u32(w[0]);
  p.pid = parse_u64(w[type_at - 1]);
  if (type_at == 4) p.gpu_instance = parse_u32(w[1]);
  p.type.assign(w[type_at]);
  // The name may hold spaces (Windows paths): all between the type and the
  // memory cell.
  std::string_view rest = trim(inner.substr(w[type_at].data() + w[type_at].size() - inner.data()));
  size_t cut = rest.find_last_of(" \t");
  std::string_view last = cut == std::string_view::npos ? rest : rest.substr(cut + 1);
  if (last == "N/A" || mib(last)) {
    p.mem_mib = mib(last);
    rest = cut == std::string_view::npos ? std::string_view() : trim(rest.substr(0, cut));
  }
  p.name.assign(rest);
  p.mps_server = names_mps_server(p.name);
  return p;
}

}  // namespace nd
