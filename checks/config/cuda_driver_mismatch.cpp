#include <set>

#include <fmt/format.h>

#include "checks/config/config_rules.h"
#include "checks/config/evidence.h"

namespace nd {
namespace {

class CudaDriverMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3101", "cuda-driver-mismatch", Severity::Warning, Needs::Log,
                                  "hosts of one job run different CUDA driver versions"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

void CudaDriverMismatch::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  if (m.driver_versions.size() < 2) return;
  Finding f = make_finding(kInfo, "");
  std::vector<std::string> parts;
  std::set<uint32_t> all;
  for (auto it = m.driver_versions.rbegin(); it != m.driver_versions.rend(); ++it) {
    std::set<uint32_t> hosts;
    for (const auto& o : it->second) hosts.insert(o.host);
    all.insert(hosts.begin(), hosts.end());
    auto names = host_names(m, hosts);
    parts.push_back(fmt::format("{} (CUDA {}.{}) on {}", it->first, it->first / 1000, it->first % 1000 / 10,
                                names.empty() ? std::string("?") : names_text(names, ctx.options)));
    cite(m, f, it->second.front().line, ctx.options.max_evidence + 1);
  }
  f.hosts = host_names(m, all);
  f.message = fmt::format("hosts run different CUDA drivers (cudaDriverVersion): {}", fmt::join(parts, "; "));
  out.add(std::move(f));
}

std::unique_ptr<Rule> make_cuda_driver_mismatch() { return std::make_unique<CudaDriverMismatch>(); }

}  // namespace nd
