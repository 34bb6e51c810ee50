#include "parsers/binding.h"

#include <array>
#include <cstring>
#include <memory>

#include <re2/re2.h>

#include "src/util/numbers.h"

namespace nd {

const char* binding_source_name(BindingSource s) {
  switch (s) {
    case BindingSource::OpenMpi: return "Open MPI 4";
    case BindingSource::Prrte: return "Open MPI 5";
    case BindingSource::Slurm: return "Slurm";
  }
  return "unknown";
}

bool has_binding_needle(std::string_view line) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end) {
    const void* hit = std::memchr(p, 'b', static_cast<size_t>(end - p));
    if (!hit) return false;
    const char* b = static_cast<const char*>(hit);
    std::string_view rest(b, static_cast<size_t>(end - b));
    if (rest.starts_with("bound") || rest.starts_with("bind")) return true;
    p = b + 1;
  }
  return false;
}

namespace {

enum Kind { kOmpi4, kOmpi5, kSlurm, kKinds };

// Open MPI 3/4 (ORTE) and 1.6:
//   [host:pid] MCW rank 2 bound to socket 0[core 0[hwt 0-1]]: [BB/../..][../../..]
//   [host:pid] MCW rank 3 is not bound (or bound to all available processors)
// Open MPI 5 (PRRTE):
//   [host:pid] Rank 0 bound to package[0][core:0-31] package[1][core:32-63]
//   [host:pid] Rank 1 is not bound (or bound to all available processors)
// Slurm task/affinity:
//   cpu-bind=MASK - node, task  0  0 [143140]: mask 0x1 set   (older: cpu_bind=)
constexpr const char* kRegex[kKinds] = {
    R"(^(?:\[([^:\]\s]+):(\d+)\] )?MCW rank (\d+) (?:(is not bound)|bound to .+?: ((?:\[[^\[\]]*\])+)(?:\s|$)))",
    R"(^(?:\[([^:\]\s]+):(\d+)\] )?(?:MCW )?[Rr]ank (\d+) (?:(is not bound)|bound to ((?:package|socket)\[.*)$))",
    R"(^cpu[-_]bind(?:-\w+)?=(\w+)\s*- ([^,\s]+), task\s+(\d+)\s+\d+ \[(\d+)\]: mask 0x([0-9a-fA-F]+) set)",
};

const RE2& regex(Kind k) {
  static const auto table = [] {
    std::array<std::unique_ptr<RE2>, kKinds> t;
    for (int i = 0; i < kKinds; ++i) {
      RE2::Options o;
      o.set_log_errors(false);
      t[i] = std::make_unique<RE2>(kRegex[i], o);
    }
    return t;
  }();
  return *table[k];
}

std::string_view sv(const re2::StringPiece& p) { return {p.data(), p.size()}; }

// `[BB/../..][../BB/..]`: one bracket per socket, `/` (or a space in 1.6)
// between cores, one character per hardware thread.
bool read_map(std::string_view map, BindingLine& out) {
  size_t index = 0;
  bool all_whole = true, any_bound = false, in_socket = false, socket_some = false, socket_whole = true;
  for (char c : map) {
    if (c == '[') {
      if (in_socket) return false;
      in_socket = true;
      socket_some = false;
      socket_whole = true;
    } else if (c == ']') {
      if (!in_socket) return false;
      in_socket = false;
      if (socket_some && !socket_whole) all_whole = false;
    } else if (c == '/' || c == ' ') {
      continue;
    } else {
      if (!in_socket) return false;
      if (c == 'B') {
        out.cpus.add(index);
        socket_some = any_bound = true;
      } else {
        socket_whole = false;
      }
      ++index;
    }
  }
  out.whole_sockets = any_bound && all_whole;
  return any_bound && !in_socket;
}

// `package[0][core:0-31] package[1][core:L32-63]`
bool read_packages(std::string_view text, BindingLine& out) {
  static const RE2 item(R"(\[(core|hwt):[LP]?([0-9,\-]+)\])");
  re2::StringPiece input(text.data(), text.size());
  re2::StringPiece unit, list;
  bool any = false;
  while (RE2::FindAndConsume(&input, item, &unit, &list)) {
    auto set = parse_cpu_list(sv(list));
    if (!set) return false;
    CpuUnit u = unit == "core" ? CpuUnit::LogicalCore : CpuUnit::LogicalHwt;
    if (any && u != out.unit) return false;
    out.unit = u;
    for (size_t c = 0; c < CpuSet::kMaxCpus; ++c) {
      if (set->has(c)) out.cpus.add(c);
    }
    any = true;
  }
  return any;
}

}  // namespace

std::optional<BindingLine> parse_binding(std::string_view line) {
  re2::StringPiece in(line.data(), line.size());
  re2::StringPiece host, pid, rank, unbound, rest;
  BindingLine b;
  if (line.find("MCW rank ") != std::string_view::npos &&
      RE2::PartialMatch(in, regex(kOmpi4), &host, &pid, &rank, &unbound, &rest)) {
    b.source = BindingSource::OpenMpi;
    b.unit = CpuUnit::MapPosition;
    if (unbound.empty() && !read_map(sv(rest), b)) return std::nullopt;
  } else if (RE2::PartialMatch(in, regex(kOmpi5), &host, &pid, &rank, &unbound, &rest)) {
    b.source = BindingSource::Prrte;
    if (unbound.empty() && !read_packages(sv(rest), b)) return std::nullopt;
  } else {
    re2::StringPiece type, node, task, tpid, mask;
    if (!RE2::PartialMatch(in, regex(kSlurm), &type, &node, &task, &tpid, &mask)) return std::nullopt;
    b.source = BindingSource::Slurm;
    b.unit = CpuUnit::OsCpu;
    b.host = sv(node);
    auto t = parse_u32(sv(task));
    auto p = parse_u64(sv(tpid));
    auto m = parse_cpu_mask(sv(mask));
    if (!t || !p || !m) return std::nullopt;
    b.task = *t;
    b.pid = *p;
    b.cpus = *m;
    // NONE and NULL leave the task on every CPU it inherited.
    b.unbound = type == "NONE" || type == "NULL";
    return b;
  }
  auto r = parse_u32(sv(rank));
  if (!r) return std::nullopt;
  b.task = *r;
  b.host = sv(host);
  // Open MPI's [host:pid] names the daemon (orted/prted), not the rank.
  (void)pid;
  b.unbound = !unbound.empty();
  return b;
}

}  // namespace nd
