#pragma once
// What `summary` and `graph` say about one link: its display label
// ("P2P", "SHM", "NET/IB+GDR", "NET/IB", "NET/Socket", ...) and whether the
// transport rules would object to it.

#include <string>

#include "checks/rule.h"
#include "src/model/job_model.h"

namespace nd {

// The label of a merged edge; GDR counts when either side printed /GDRDMA.
std::string link_label(const JobModel& model, const Edge& edge);

struct LinkProblem {
  Severity severity = Severity::Info;  // Info: no problem
  std::string why;                     // "TCP sockets between hosts"
  bool any() const { return !why.empty(); }
};

// The first problem of the link, judged like ND3001-ND3005 and ND2101.
LinkProblem link_problem(const JobModel& model, const Communicator& comm, const Edge& edge,
                         const CheckOptions& options);

// Text from a log, made safe for the terminal and cut to `max` code points.
std::string display(std::string_view text, size_t max = 64);

}  // namespace nd
