// ND5004 duplicate-host: one host sent several records.
#include "checks/cross/cross_rules.h"

#include <map>

#include <fmt/format.h>

namespace nd {
namespace {

class DuplicateHost final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND5004", "duplicate-host", Severity::Warning, Needs::Cluster,
                                  "one host sent several records"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void DuplicateHost::check(const CheckContext& ctx, FindingSink& out) const {
  std::map<std::string, int> per_host;
  for (const auto& n : ctx.nodes) ++per_host[n.snapshot->host.host];
  for (const auto& [host, count] : per_host) {
    if (count < 2) continue;
    Finding f = make_finding(kInfo, fmt::format("host {} sent {} records: run one probe per node (srun "
                                                "--ntasks-per-node=1, mpirun --map-by ppr:1:node)", host, count));
    f.hosts.push_back(host);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_duplicate_host() { return std::make_unique<DuplicateHost>(); }

}  // namespace nd
