// ND3007 bootstrap-address-unreachable: a host bootstraps on an address other hosts cannot reach.
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "checks/config/evidence.h"
#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"
#include "parsers/net_devices.h"

namespace nd {
namespace {

class BootstrapAddressUnreachable final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3007", "bootstrap-address-unreachable", Severity::Error, Needs::Log,
                                  "a host bootstraps on an address other hosts cannot reach"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// Ranks on two hosts that completed init: the bootstrap between hosts worked,
// whatever address it used (link-local works between identical hosts on one
// link, whose interface numbers match).
bool init_completed_across_hosts(const JobModel& m) {
  std::set<uint32_t> hosts;
  for (const auto& p : m.processes) {
    if (p.init_completes > 0 && p.host != kNoHost) hosts.insert(p.host);
  }
  if (hosts.size() >= 2) return true;
  for (const auto& c : m.comms) {
    std::set<uint32_t> comm_hosts;
    bool completed = false;
    for (const auto& r : c.ranks) {
      if (r.host != kNoHost) comm_hosts.insert(r.host);
      completed |= r.init_completed;
    }
    if (completed && comm_hosts.size() >= 2) return true;
  }
  return false;
}

// What in the log shows the job failing where a bootstrap it cannot make
// fails: the first such line, and what it is.
struct BootstrapTrouble {
  std::string what;
  LineRef line;
};

std::optional<BootstrapTrouble> bootstrap_trouble(const JobModel& m) {
  for (const auto& w : m.warnings) {
    if (w.cls.kind == WarnKind::Bootstrap || w.cls.kind == WarnKind::Socket) {
      return BootstrapTrouble{w.cls.kind == WarnKind::Bootstrap ? "a bootstrap WARN" : "a socket WARN", w.line};
    }
  }
  for (const auto& f : m.failed_calls) {
    if (f.reached_caller && !f.recovered) return BootstrapTrouble{"NCCL returned an error to the caller", f.first};
  }
  for (const auto& r : m.framework_errors) {
    if (is_watchdog_report(r.kind)) {
      return BootstrapTrouble{"PyTorch's watchdog reports a timeout", r.line};
    }
  }
  return std::nullopt;
}

// NCCL_SOCKET_IFNAME for the fix: the interfaces other hosts bootstrap on
// that everyone can reach, else the reachable ones of a host's socket list.
std::string interfaces_to_name(const JobModel& m, const std::set<uint32_t>& unreachable_hosts) {
  std::set<std::string> names;
  for (const auto& b : m.bootstraps) {
    if (!socket_reach(b.interface, b.address).unreachable()) names.insert(b.interface);
  }
  if (names.empty()) {
    for (const auto& nets : m.host_nets) {
      if (nets.net != "Socket" || !unreachable_hosts.count(nets.host)) continue;
      for (auto& name : reachable_interfaces(nets)) names.insert(std::move(name));
    }
  }
  return fmt::format("{}", fmt::join(names, ","));
}

}  // namespace

void BootstrapAddressUnreachable::check(const CheckContext& ctx, FindingSink& out) const {
  const JobModel& m = ctx.model;
  if (m.bootstraps.empty()) return;
  if (!multi_node(m) && m.unclaimed_shape_nnodes < 2) return;
  if (init_completed_across_hosts(m)) return;

  // One finding per reason and interface: every host of a homogeneous
  // cluster bootstraps on the same ib0.
  struct Group {
    std::set<uint32_t> hosts;
    uint32_t first_host = kNoHost;
    std::string address;  // the first host's, to show its kind
    bool ipv6 = false;
    std::vector<LineRef> lines;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;  // (reason, interface)
  std::set<uint32_t> unreachable_hosts;
  bool ipv4_elsewhere = false;
  for (const auto& b : m.bootstraps) {
    SocketReach reach = socket_reach(b.interface, b.address);
    if (!reach.unreachable()) {
      ipv4_elsewhere |= !reach.ipv6;
      continue;
    }
    Group& g = groups[{why_unreachable(reach), b.interface}];
    if (g.hosts.empty()) {
      g.first_host = b.host;
      g.address = b.address;
    }
    g.ipv6 |= reach.ipv6;
    g.hosts.insert(b.host);
    g.lines.push_back(b.line);
    unreachable_hosts.insert(b.host);
  }
  if (groups.empty()) return;

  std::optional<BootstrapTrouble> trouble = bootstrap_trouble(m);
  std::string interfaces = interfaces_to_name(m, unreachable_hosts);
  for (const auto& [key, g] : groups) {
    const auto& [why, interface] = key;
    std::vector<std::string> names = host_names(m, g.hosts);
    std::string fix = interfaces.empty()
                          ? std::string("set NCCL_SOCKET_IFNAME to the interface of the network between hosts")
                          : fmt::format("set NCCL_SOCKET_IFNAME={}", interfaces);
    if (g.ipv6 && (ipv4_elsewhere || interfaces.empty())) fix += " (or NCCL_SOCKET_FAMILY=AF_INET)";
    std::string address =
        g.hosts.size() == 1 ? g.address : fmt::format("{}'s {}", m.host_name(g.first_host), g.address);
    std::string what = fmt::format("{} bootstrap{} on {} ({}): {}; the ranks of other hosts connect to it in init",
                                   names_text(names, ctx.options), names.size() == 1 ? "s" : "", interface, address,
                                   why);
    Finding f = make_finding(kInfo, "");
    f.subject = interface;
    f.hosts = names;
    if (trouble) {
      f.message = fmt::format("{}, and {} shows init failing: a likely cause; {}", what, trouble->what, fix);
    } else {
      f.severity = Severity::Info;
      f.message = fmt::format(
          "{}; no communicator across hosts completed init in this log, so whether they could was not checked; if the "
          "job hangs or times out at start, this is a likely cause: {}",
          what, fix);
    }
    size_t room = ctx.options.max_evidence - (trouble && ctx.options.max_evidence > 1 ? 1 : 0);
    for (LineRef line : g.lines) cite(m, f, line, room);
    if (trouble) cite(m, f, trouble->line, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

std::unique_ptr<Rule> make_bootstrap_address_unreachable() { return std::make_unique<BootstrapAddressUnreachable>(); }

}  // namespace nd
