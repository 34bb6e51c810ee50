#pragma once
// CPU binding reports that launchers print next to NCCL's output: Open MPI
// 3.x/4.x and 5.x `--report-bindings`, Slurm `--cpu-bind=verbose`. They carry
// no NCCL header, so the line reader lets them through on a cheap needle.

#include <cstdint>
#include <optional>
#include <string_view>

#include "src/util/cpuset.h"

namespace nd {

enum class BindingSource : uint8_t { OpenMpi, Prrte, Slurm };

const char* binding_source_name(BindingSource s);  // "Open MPI 4", "Open MPI 5", "Slurm"

// What the CPU ids in a binding mean; sets of different units never compare.
enum class CpuUnit : uint8_t {
  MapPosition,  // Open MPI 3/4: position in the `[BB/..][..]` map (logical hwt)
  LogicalCore,  // Open MPI 5 `[core:0-31]`
  LogicalHwt,   // Open MPI 5 `[hwt:0-7]`
  OsCpu,        // Slurm mask: Linux CPU ids
};

struct BindingLine {
  BindingSource source = BindingSource::OpenMpi;
  std::string_view host;  // as printed, possibly with a domain; may be empty
  uint64_t pid = 0;       // the task's pid (Slurm); Open MPI prints the daemon's
  uint32_t task = 0;      // MPI_COMM_WORLD rank / Slurm global task id
  bool unbound = false;
  CpuUnit unit = CpuUnit::OsCpu;
  CpuSet cpus;
  // Open MPI 3/4 only: the map shows every socket, so a binding that covers
  // whole sockets (`--bind-to socket`) can be told from a core binding.
  bool whole_sockets = false;
};

// True when the line may hold a binding report: "bound" or "bind" in it.
// Scans with memchr; runs only on lines without "NCCL ".
bool has_binding_needle(std::string_view line);

// Parses one line, launcher prefixes already stripped.
std::optional<BindingLine> parse_binding(std::string_view line);

}  // namespace nd
