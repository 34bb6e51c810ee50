#include "parsers/gpu/topo_matrix.h"

#include <array>
#include <optional>
#include <utility>

#include "src/util/text.h"

namespace nd {
namespace {

// Foreign lines tolerated inside an unfinished matrix (another writer on the
// same pipe) before the matrix is given up as cut short.
constexpr uint32_t kMaxNoise = 64;

// The Legend's sentences, new wording and old (SOC, "PCIe switch"), so that a
// sentence a narrow terminal wrapped is known by its second half.
constexpr std::array<std::string_view, 9> kLegendText = {
    "Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)",
    "Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node",
    "Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)",
    "Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)",
    "Connection traversing at most a single PCIe bridge",
    "Connection traversing a bonded set of # NVLinks",
    "Connection traversing PCIe as well as the SMP link between CPU sockets(e.g. QPI)",
    "Connection traversing multiple PCIe switches (without traversing the PCIe Host Bridge)",
    "Connection traversing a single PCIe switch",
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

size_t digits_at(std::string_view s, size_t pos) {
  size_t n = 0;
  while (pos + n < s.size() && is_digit(s[pos + n])) ++n;
  return n;
}

// "GPU3", "NIC12": a prefix and at least one digit.
size_t numbered_at(std::string_view s, size_t pos, std::string_view prefix) {
  if (s.substr(pos, prefix.size()) != prefix) return 0;
  size_t n = digits_at(s, pos + prefix.size());
  return n == 0 ? 0 : prefix.size() + n;
}

// nvidia-smi underlines the header ("\x1b[4m...\x1b[0m") even into a pipe;
// a paste may have kept the codes and lost the ESC byte.
std::string strip_sgr(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t at = i + (s[i] == '\x1b' ? 1 : 0);
    if (at < s.size() && s[at] == '[') {
      size_t j = at + 1;
      while (j < s.size() && (is_digit(s[j]) || s[j] == ';')) ++j;
      if (j < s.size() && s[j] == 'm') {
        i = j + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// A name nvidia-smi gives a NIC it does not number: "mlx5_0", "mlx4_1",
// "mlx5_bond_0", "bnxt_re0", "irdma1". Returns its length at `pos` when the
// name ends where another glued name starts, or the rest of the chunk.
size_t device_name_at(std::string_view chunk, size_t pos) {
  if (size_t n = numbered_at(chunk, pos, "GPU")) return n;
  if (size_t n = numbered_at(chunk, pos, "NIC")) return n;
  // letters, digits, '_', ["bond_"], digits: where glued "mlx5_0mlx5_1" splits.
  size_t i = pos;
  while (i < chunk.size() && is_alpha(chunk[i])) ++i;
  i += digits_at(chunk, i);
  if (i > pos && i < chunk.size() && chunk[i] == '_') {
    size_t j = i + 1;
    if (chunk.substr(j, 5) == "bond_") j += 5;
    if (size_t d = digits_at(chunk, j)) return j + d - pos;
  }
  // Up to a glued "GPU<n>" or "NIC<n>", else the whole chunk.
  for (size_t k = pos + 1; k < chunk.size(); ++k) {
    if (numbered_at(chunk, k, "GPU") || numbered_at(chunk, k, "NIC")) return k - pos;
  }
  return chunk.size() - pos;
}

bool plausible_nic_name(std::string_view name) {
  bool has_digit = false;
  for (char c : name) {
    if (is_digit(c)) {
      has_digit = true;
    } else if (!is_alpha(c) && c != '_' && c != '-' && c != '.') {
      return false;
    }
  }
  return has_digit && is_alpha(name.front());
}

using Tail = TopoMatrixReader::Affinity;

struct Header {
  std::vector<std::string> devices;
  std::vector<Tail> tail;
};

// "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID": the GPUs
// numbered from 0, then NICs, then the affinity columns.
std::optional<Header> parse_header(std::string_view payload) {
  if (payload.find("CPU Affinity") == std::string_view::npos) return std::nullopt;
  std::string cleaned = strip_sgr(payload);
  std::string_view s = trim(cleaned);
  size_t cpu = s.find("CPU Affinity");
  std::string_view region = trim(s.substr(0, cpu));
  if (numbered_at(region, 0, "GPU") == 0) return std::nullopt;

  Header h;
  uint32_t gpus = 0;
  size_t i = 0;
  while (i < region.size()) {
    if (is_blank(region[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < region.size() && !is_blank(region[end])) ++end;
    std::string_view chunk = region.substr(i, end - i);
    for (size_t at = 0; at < chunk.size();) {
      size_t n = device_name_at(chunk, at);
      std::string_view name = chunk.substr(at, n);
      if (numbered_at(name, 0, "GPU") == name.size()) {
        // GPUs come first, numbered from 0 in order.
        if (h.devices.size() != gpus || name.substr(3) != std::to_string(gpus)) return std::nullopt;
        ++gpus;
      } else if (!plausible_nic_name(name)) {
        return std::nullopt;
      }
      for (const auto& seen : h.devices) {
        if (seen == name) return std::nullopt;
      }
      h.devices.emplace_back(name);
      at += n;
    }
    i = end;
  }

  // After "CPU Affinity" only column titles: capitalised words.
  std::string_view rest = s.substr(cpu + 12);
  size_t numa = rest.find("NUMA Affinity");
  size_t gpu_numa = rest.find("GPU NUMA ID");
  for (size_t k = 0; k < rest.size();) {
    if (is_blank(rest[k])) {
      ++k;
      continue;
    }
    if (!is_upper(rest[k])) return std::nullopt;
    while (k < rest.size() && is_alpha(rest[k])) ++k;
    if (k < rest.size() && !is_blank(rest[k])) return std::nullopt;
  }
  h.tail.push_back(Tail::Cpu);
  if (numa != std::string_view::npos && (gpu_numa == std::string_view::npos || numa < gpu_numa)) {
    h.tail.push_back(Tail::Numa);
  }
  if (gpu_numa != std::string_view::npos) h.tail.push_back(Tail::GpuNuma);
  if (numa != std::string_view::npos && gpu_numa != std::string_view::npos && gpu_numa < numa) {
    h.tail.push_back(Tail::Numa);
  }
  return h;
}

// One cell of the matrix at s[pos], by its vocabulary, so that cells a paste
// glued together ("NODENODE") come apart. Empty when there is none.
std::string_view link_at(std::string_view s, size_t pos) {
  std::string_view r = s.substr(pos);
  if (r.empty()) return {};
  if (r[0] == 'X') return r.substr(0, 1);
  for (std::string_view word : {"SYS", "SOC", "PHB", "PXB", "PIX", "NODE"}) {
    if (r.starts_with(word)) return r.substr(0, word.size());
  }
  if (r.starts_with("NV")) {
    size_t n = digits_at(r, 2);
    if (n > 0) return r.substr(0, 2 + n);
  }
  return {};
}

// "76 NICs found in the topology, only displaying 56 in the matrix."
bool is_nic_count_note(std::string_view s) {
  size_t n = digits_at(s, 0);
  if (n == 0) return false;
  constexpr std::string_view kMid = " NICs found in the topology, only displaying ";
  if (s.substr(n, kMid.size()) != kMid) return false;
  size_t m = digits_at(s, n + kMid.size());
  return m > 0 && s.substr(n + kMid.size() + m) == " in the matrix.";
}

bool is_legend_code(std::string_view code) {
  for (std::string_view known : {"X", "SYS", "NODE", "PHB", "PXB", "PIX", "SOC", "NV#"}) {
    if (code == known) return true;
  }
  return code.size() > 2 && code.starts_with("NV") && digits_at(code, 2) == code.size() - 2;
}

}  // namespace

bool TopoMatrixReader::take(std::string_view payload, uint64_t line) {
  std::string_view s = trim(payload);
  // A header opens a matrix wherever it comes: another host's output.
  if (s.find("CPU Affinity") != std::string_view::npos) {
    if (auto h = parse_header(payload)) {
      if (state_ != State::Idle) emit();
      out_.saw(SideKind::SmiTopo);
      state_ = State::Rows;
      header_line_ = line;
      devices_ = std::move(h->devices);
      tail_ = std::move(h->tail);
      cells_.assign(devices_.size(), {});
      affinity_.assign(devices_.size(), {});
      nic_names_.assign(devices_.size(), {});
      return true;
    }
  }
  if (!s.empty() && is_digit(s.front()) && is_nic_count_note(s)) {
    if (state_ != State::Idle) emit();
    out_.saw(SideKind::SmiTopo);
    return true;
  }

  switch (state_) {
    case State::Idle:
      return false;
    case State::Rows:
      if (s.empty()) {
        for (const auto& row : cells_) {
          if (!row.empty()) {
            state_ = State::AfterRows;
            break;
          }
        }
        return true;
      }
      if (take_row(s)) return true;
      if (s == "Legend:") {
        state_ = State::Legend;
        return true;
      }
      // A finished matrix ends at the first line that is not its own; an
      // unfinished one lets another writer's lines pass for a while.
      if (rows_complete() || ++noise_ > kMaxNoise) emit();
      return false;
    case State::AfterRows:
      if (s.empty()) return true;
      if (s == "Legend:") {
        state_ = State::Legend;
        return true;
      }
      if (s == "NIC Legend:") {
        state_ = State::NicLegend;
        return true;
      }
      if (take_row(s)) {
        state_ = State::Rows;
        return true;
      }
      if (take_legend(s)) {
        state_ = State::Legend;
        return true;
      }
      emit();
      return false;
    case State::Legend:
      if (s.empty()) {
        wrap_rest_ = {};
        bool numbered_nics = false;
        for (const auto& d : devices_) numbered_nics = numbered_nics || numbered_at(d, 0, "NIC") == d.size();
        // Without NICn columns no NIC Legend follows: the blank line ends it.
        if (legend_entries_ && !numbered_nics) emit();
        return true;
      }
      if (s == "NIC Legend:") {
        state_ = State::NicLegend;
        return true;
      }
      if (take_legend(s)) return true;
      emit();
      return false;
    case State::NicLegend:
      if (s.empty()) {
        if (nic_names_complete()) emit();
        return true;
      }
      if (take_nic_legend(s)) return true;
      emit();
      return false;
  }
  return false;
}

void TopoMatrixReader::finish() {
  if (state_ != State::Idle) emit();
}

// "GPU0\t X \tNV18\t...\tSYS\t0-55,112-167\t0\t\tN/A", "NIC3\tSYS\t...\t X ",
// "mlx5_0  PIX  PIX  SOC ... X": a device of the header, a cell for each
// column with "X" at its own, then (GPU rows) the affinity cells.
bool TopoMatrixReader::take_row(std::string_view s) {
  size_t row = devices_.size();
  size_t label = 0;
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].size() > label && s.starts_with(devices_[i])) {
      row = i;
      label = devices_[i].size();
    }
  }
  if (row == devices_.size()) return false;

  std::vector<std::string> cells;
  cells.reserve(devices_.size());
  size_t pos = label;
  for (size_t c = 0; c < devices_.size(); ++c) {
    while (pos < s.size() && is_blank(s[pos])) ++pos;
    std::string_view cell = link_at(s, pos);
    if (cell.empty()) return false;
    pos += cell.size();
    cells.emplace_back(cell == "SOC" ? std::string_view("SYS") : cell);
  }
  if (cells[row] != "X") return false;

  std::vector<std::string> tail;
  if (numbered_at(devices_[row], 0, "GPU") == devices_[row].size()) {
    std::string_view rest = s.substr(pos);
    for (size_t i = 0; i < rest.size();) {
      if (is_blank(rest[i])) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < rest.size() && !is_blank(rest[end])) ++end;
      tail.emplace_back(rest.substr(i, end - i));
      i = end;
    }
  }
  cells_[row] = std::move(cells);
  affinity_[row] = std::move(tail);
  noise_ = 0;
  return true;
}

// "  SYS  = Connection traversing ...", "  X   = Self", "  NV#  = ...", and
// the second half of a sentence the terminal wrapped.
bool TopoMatrixReader::take_legend(std::string_view s) {
  if (!wrap_rest_.empty() && s.find('=') == std::string_view::npos && wrap_rest_.starts_with(s)) {
    wrap_rest_ = trim(wrap_rest_.substr(s.size()));
    return true;
  }
  size_t eq = s.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view code = trim(s.substr(0, eq));
  if (!is_legend_code(code)) return false;
  std::string_view text = trim(s.substr(eq + 1));
  legend_entries_ = true;
  wrap_rest_ = {};
  for (std::string_view known : kLegendText) {
    if (!text.empty() && known.size() > text.size() && known.starts_with(text)) {
      wrap_rest_ = trim(known.substr(text.size()));
      break;
    }
  }
  return true;
}

// "  NIC0: mlx5_0"; the legend may name NICs the matrix left out.
bool TopoMatrixReader::take_nic_legend(std::string_view s) {
  size_t n = numbered_at(s, 0, "NIC");
  if (n == 0 || n >= s.size() || s[n] != ':') return false;
  std::string_view name = trim(s.substr(n + 1));
  if (name.empty() || !plausible_nic_name(name)) return false;
  std::string_view nic = s.substr(0, n);
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i] == nic) nic_names_[i] = std::string(name);
  }
  return true;
}

bool TopoMatrixReader::rows_complete() const {
  for (const auto& row : cells_) {
    if (row.empty()) return false;
  }
  return true;
}

bool TopoMatrixReader::nic_names_complete() const {
  bool any = false;
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (numbered_at(devices_[i], 0, "NIC") != devices_[i].size()) continue;
    if (nic_names_[i].empty()) return false;
    any = true;
  }
  return any;
}

void TopoMatrixReader::emit() {
  bool any_row = false;
  for (const auto& row : cells_) any_row = any_row || !row.empty();
  if (any_row) {
    auto name = [&](size_t i) -> const std::string& { return nic_names_[i].empty() ? devices_[i] : nic_names_[i]; };
    TopoMatrix m;
    m.line = header_line_;
    for (size_t i = 0; i < devices_.size(); ++i) m.devices.push_back(name(i));
    for (size_t r = 0; r < devices_.size(); ++r) {
      if (cells_[r].empty()) continue;
      auto& links = m.links[name(r)];
      for (size_t c = 0; c < devices_.size(); ++c) links[name(c)] = cells_[r][c];
      if (numbered_at(devices_[r], 0, "GPU") != devices_[r].size()) continue;
      // Cells as many as columns read left to right. Fewer: an empty cell
      // (a cgroup hides the CPU list) is the CPU Affinity, then the NUMA
      // Affinity; so read them right-aligned, unless the first is a CPU list.
      const auto& cells = affinity_[r];
      size_t have = cells.size(), want = tail_.size();
      bool left = have >= want || (have > 0 && cells[0].find_first_of("-,") != std::string::npos);
      for (size_t j = 0; j < want; ++j) {
        std::string value;
        if (left && j < have) {
          value = cells[j];
        } else if (!left && j >= want - have) {
          value = cells[j - (want - have)];
        }
        if (value == "N/A") value.clear();
        auto& column = tail_[j] == Tail::Cpu    ? m.cpu_affinity
                       : tail_[j] == Tail::Numa ? m.numa_affinity
                                                : m.gpu_numa_id;
        column[devices_[r]] = std::move(value);
      }
    }
    out_.topologies.push_back(std::move(m));
  }
  state_ = State::Idle;
  devices_.clear();
  tail_.clear();
  cells_.clear();
  affinity_.clear();
  nic_names_.clear();
  legend_entries_ = false;
  wrap_rest_ = {};
  noise_ = 0;
}

}  // namespace nd
