#pragma once
// Joins launcher binding reports to NCCL ranks for the binding rules.

#include <string>

#include "src/model/job_model.h"

namespace nd {

// "MPI rank 3" (Open MPI) or "task 3 (pid 4711)" (Slurm), plus the NCCL
// rank when a communicator places that process.
std::string binding_who(const JobModel& m, const BindingRecord& b);

}  // namespace nd
