#pragma once
// Names a job's networks by family from all the evidence the model holds: the
// name NCCL prints (parsers/transport.h net_family), the link layer of the
// device in the host's `NET/IB : Using` list (IB or RoCE), aws-ofi-nccl's
// provider (EFA or another fabric), the networks NCCL says it chose, and the
// WARNs that show IB at work.

#include <string>
#include <string_view>
#include <vector>

#include "src/model/job_model.h"

namespace nd {

// "IB", "RoCE", "EFA", "Libfabric" (aws-ofi-nccl on a provider other than
// efa), "Socket", or `net_name` as printed when its family is unknown.
// `net_dev` is the connection line's device index, -1 when there is none.
std::string network_family(const JobModel& model, uint32_t host, std::string_view net_name, int net_dev = -1);

// A network NCCL says a communicator uses, without a connection line to show
// it: `Using network %s` (2.6+) and `Assigned NET plugin %s to comm` (2.27+).
// A plugin that loaded and then failed to initialise is never one of them.
struct ChosenNetwork {
  std::string name;
  uint32_t host = kNoHost;
  LineRef line;
};

// One per (host, name), in the order of the first line that says so.
std::vector<ChosenNetwork> chosen_networks(const JobModel& model);

// Hosts whose WARNs show IB carrying traffic (completion errors, async
// events, failed verbs calls past device discovery), with the first such line.
std::vector<ChosenNetwork> ib_at_work(const JobModel& model);

}  // namespace nd
