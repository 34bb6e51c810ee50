#include "checks/topology/binding_util.h"

#include <algorithm>
#include <fmt/format.h>

namespace nd {

std::string binding_who(const JobModel& m, const BindingRecord& b) {
  if (b.source != BindingSource::Slurm) return fmt::format("MPI rank {}", b.task);
  for (const auto& comm : m.comms) {
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      if (comm.ranks[r].host == b.host && comm.ranks[r].pid == b.pid && b.pid != 0) {
        return fmt::format("task {} (pid {}, NCCL rank {})", b.task, b.pid, r);
      }
    }
  }
  return fmt::format("task {} (pid {})", b.task, b.pid);
}

}  // namespace nd
