#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class UnevenRanksPerHost final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2008", "uneven-ranks-per-host", Severity::Warning, Needs::Log,
                                  "the hosts of a communicator hold different numbers of ranks"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

namespace {

// The job's whole communicator: the largest, over every host that holds a
// rank of any communicator. Smaller ones (pipeline stages, ncclCommSplit by
// colour, PyTorch subgroups) are uneven on purpose and cost nothing.
struct World {
  uint32_t largest = 0;
  std::set<uint32_t> hosts;

  explicit World(const JobModel& m) {
    for (const auto& c : m.comms) {
      if (c.synthetic) continue;
      largest = std::max(largest, c.size());
      for (const auto& r : c.ranks) {
        if (r.host != kNoHost) hosts.insert(r.host);
      }
    }
  }
  bool is(const Communicator& comm, const std::set<uint32_t>& comm_hosts) const {
    return comm.size() == largest && comm_hosts == hosts;
  }
};

}  // namespace

// Only communicators whose every rank is placed on a host: a log that lacks
// some ranks' lines says nothing about how many ranks those hosts ran. Only
// the job's whole communicator: there an uneven count is a launcher mistake
// that leaves GPUs idle and costs NCCL its per-node send/recv schedule (init.cc
// builds a flat one when nodes differ in local ranks).
void UnevenRanksPerHost::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  const World world(m);
  for (const auto& comm : m.comms) {
    if (comm.synthetic || comm.nranks < 2 || comm.ranks.size() != comm.nranks) continue;
    std::map<uint32_t, std::vector<uint32_t>> per_host;
    bool all_placed = true;
    for (uint32_t r = 0; r < comm.ranks.size(); ++r) {
      if (comm.ranks[r].host == kNoHost || comm.ranks[r].init_line.line == 0) all_placed = false;
      per_host[comm.ranks[r].host].push_back(r);
    }
    if (!all_placed || per_host.size() < 2) continue;
    size_t lo = SIZE_MAX, hi = 0;
    for (const auto& [h, ranks] : per_host) {
      lo = std::min(lo, ranks.size());
      hi = std::max(hi, ranks.size());
    }
    if (lo == hi) continue;
    std::set<uint32_t> comm_hosts;
    for (const auto& [h, ranks] : per_host) comm_hosts.insert(h);
    if (!world.is(comm, comm_hosts)) continue;
    std::vector<std::string> parts;
    std::vector<LineRef> lines;
    std::map<std::string, size_t> by_name;
    for (const auto& [h, ranks] : per_host) by_name[m.host_name(h)] = ranks.size();
    for (const auto& [name, count] : by_name) parts.push_back(fmt::format("{} {}", name, count));
    for (const auto& [h, ranks] : per_host) {
      if (ranks.size() == lo || ranks.size() == hi) lines.push_back(comm.ranks[ranks.front()].init_line);
    }
    Finding f = make_finding(kInfo, fmt::format("{} hosts hold between {} and {} ranks each ({}) in the job's whole "
                                                "communicator: usually a launcher mistake that leaves GPUs idle, and "
                                                "NCCL drops its per-node send/recv schedule",
                                                per_host.size(), lo, hi, fmt::join(parts, ", ")));
    f.comm = comm.key;
    for (const auto& [name, count] : by_name) f.hosts.push_back(name);
    f.evidence = evidence_of(m, lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_uneven_ranks_per_host() { return std::make_unique<UnevenRanksPerHost>(); }

}  // namespace nd
