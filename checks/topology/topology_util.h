#pragma once
// Helpers shared by the ND2xxx rules: evidence from line references, rank and
// channel lists in messages, and findings folded by message across channels.

#include <map>
#include <string>
#include <vector>

#include "checks/rule.h"
#include "src/model/job_model.h"

namespace nd {

// The cited lines, sorted and deduplicated, at most `max`; lines whose text
// the model kept come first.
std::vector<Evidence> evidence_of(const JobModel& model, std::vector<LineRef> lines, size_t max);

// NCCL 2.22+ makes connections at the first use of each algorithm, so its
// connection lines need not show every ring edge; older NCCL connects all at
// init.
bool connects_at_runtime(const JobModel& model);

// "rank 3" or "ranks 0-3,8".
std::string ranks_text(std::vector<uint32_t> ranks);
// "ring 02" or "rings 00-03".
std::string channels_text(const char* what, std::vector<uint32_t> channels);

// Folds the same problem seen on several channels of one communicator into
// one finding: "rings 00-15: rank 5 has no link out (next is -1)".
class ChannelProblems {
 public:
  void add(const std::string& problem, uint32_t channel, std::vector<uint32_t> ranks, std::vector<LineRef> lines);
  bool empty() const { return problems_.empty(); }
  void emit(const RuleInfo& info, const CheckContext& ctx, const Communicator& comm, const char* what,
            FindingSink& out) const;

 private:
  struct Entry {
    std::vector<uint32_t> channels, ranks;
    std::vector<LineRef> lines;
    size_t order = 0;
  };
  std::map<std::string, Entry> problems_;
};

}  // namespace nd
