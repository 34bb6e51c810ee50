#include <set>

#include <fmt/format.h>

#include "checks/config/config_rules.h"
#include "checks/config/evidence.h"
#include "checks/config/nccl_releases.h"

namespace nd {
namespace {

class NcclOutdated final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3102", "nccl-outdated", Severity::Info, Needs::Log,
                                  "the job's NCCL is more than a year older than the newest known release"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

}  // namespace

// Compares release dates, not today's date: the verdict on a log must not
// change with the day it is read.
void NcclOutdated::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  const NcclRelease& newest = nccl_releases().back();
  for (const auto& [text, obs] : m.versions) {
    auto v = parse_nccl_version(text);
    if (!v || *v >= newest.version) continue;
    const NcclRelease* r = release_at_or_before(*v);
    std::string_view date = r ? r->date : nccl_releases().front().date;
    int days = days_between(date, newest.date);
    if (days <= 365) continue;
    std::string released = !r ? fmt::format("older than 2.4.2 ({})", date)
                           : r->version == *v ? fmt::format("released {}", date)
                                              : fmt::format("built after the {}.{}.{} tag of {}", r->version.major,
                                                            r->version.minor, r->version.patch, date);
    Finding f = make_finding(
        kInfo, fmt::format("NCCL {} ({}) is {:.1f} years older than {}.{}.{} ({}), the newest release nccl-doctor "
                           "knows; newer releases fix bugs and speed up collectives",
                           text, released, days / 365.25, newest.version.major, newest.version.minor,
                           newest.version.patch, newest.date));
    std::set<uint32_t> hosts;
    for (const auto& o : obs) hosts.insert(o.host);
    f.hosts = host_names(m, hosts);
    cite(m, f, obs.front().line, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_nccl_outdated() { return std::make_unique<NcclOutdated>(); }

}  // namespace nd
