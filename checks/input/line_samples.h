#pragma once
// Evidence from the sample lines the model keeps for input findings.

#include <vector>

#include "src/model/job_model.h"
#include "checks/finding.h"

namespace nd {

std::vector<Evidence> line_samples(const JobModel& model, const std::vector<LineRef>& refs, size_t max);

}  // namespace nd
