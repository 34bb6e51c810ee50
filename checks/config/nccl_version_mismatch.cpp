#include <map>
#include <set>

#include <fmt/format.h>

#include "checks/config/config_rules.h"
#include "checks/config/evidence.h"

namespace nd {
namespace {

class NcclVersionMismatch final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3100", "nccl-version-mismatch", Severity::Error, Needs::Log,
                                  "processes of one job load different NCCL versions"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

bool multi_node(const JobModel& model) {
  if (model.hosts.size() >= 2) return true;
  for (const auto& c : model.comms) {
    if (c.nnodes >= 2) return true;
  }
  return false;
}

namespace {

std::string who(const JobModel& model, const std::vector<Observation>& obs, const CheckOptions& options) {
  std::set<std::string> hosts;
  for (const auto& o : obs) {
    if (o.host != kNoHost) hosts.insert(model.host_name(o.host));
  }
  // Raw stdout banners (<= 2.21) without a launcher prefix name no process.
  if (hosts.empty()) return fmt::format("in the stdout banner at {}", model.where(obs.front().line));
  size_t n = obs.size();
  return fmt::format("on {} ({} process{})", names_text({hosts.begin(), hosts.end()}, options), n, n == 1 ? "" : "es");
}

}  // namespace

// The banner comes in three forms (raw stdout up to 2.21, an INFO line from
// 2.22, header-less with a launcher prefix); the builder folds them into
// model.versions. NCCL 2.23+ also checks itself and WARNs.
void NcclVersionMismatch::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  std::optional<Finding> f;
  if (m.versions.size() > 1) {
    f = make_finding(kInfo, "");
    std::vector<std::string> parts;
    std::set<uint32_t> hosts;
    for (const auto& [version, obs] : m.versions) {
      parts.push_back(fmt::format("{} {}", version, who(m, obs, ctx.options)));
      for (const auto& o : obs) hosts.insert(o.host);
      cite(m, *f, obs.front().line, ctx.options.max_evidence + 1);
    }
    f->hosts = host_names(m, hosts);
    f->message = fmt::format("the job loads {} NCCL versions: {}", m.versions.size(), fmt::join(parts, "; "));
  }
  std::set<uint32_t> warn_hosts;
  for (const auto& w : m.warnings) {
    if (!w.cls.mismatch) continue;
    if (!f) {
      const VersionMismatch& v = *w.cls.mismatch;
      f = make_finding(kInfo, fmt::format("NCCL detected mismatched versions: rank {} has {}, rank {} has {}",
                                          v.rank_a, v.version_a, v.rank_b, v.version_b));
    }
    warn_hosts.insert(w.host);
    cite(m, *f, w.line, ctx.options.max_evidence + 1);
  }
  if (!f) return;
  if (f->hosts.empty()) f->hosts = host_names(m, warn_hosts);
  out.add(std::move(*f));
}

std::unique_ptr<Rule> make_nccl_version_mismatch() { return std::make_unique<NcclVersionMismatch>(); }

}  // namespace nd
