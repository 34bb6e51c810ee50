#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/transport/edge_groups.h"
#include "checks/transport/transport_rules.h"

namespace nd {
namespace {

class InterNodeSocket final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND3001", "inter-node-socket", Severity::Error, Needs::Log,
                                  "an inter-node link uses TCP sockets (NET/Socket) instead of an RDMA network",
                                  Decided::AsSeen};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

// One reason the log gives for NCCL not using an RDMA network, with the
// lines that say so. NCCL tries an external plugin, then IB, then Socket, and
// prints each step's failure: at INFO in current versions, which is why the
// level does not matter here.
struct Cause {
  std::string text;
  std::vector<LineRef> lines;
};

std::string quoted_hosts(const JobModel& m, const std::set<uint32_t>& hosts) {
  std::vector<std::string> names;
  for (uint32_t h : hosts) {
    if (h != kNoHost) names.push_back(m.host_name(h));
  }
  if (names.empty()) return {};
  if (names.size() > 3) return fmt::format(" on {} hosts", names.size());
  return fmt::format(" on {}", fmt::join(names, ", "));
}

// The causes printed on `hosts`, or on any host when those printed none (a
// paste of one node's output explains the others).
std::vector<Cause> fallback_causes(const JobModel& m, const std::vector<std::string>& host_names) {
  std::set<uint32_t> wanted;
  for (const auto& name : host_names) {
    if (auto id = m.hosts.find(name)) wanted.insert(*id);
  }
  struct Step {
    std::set<uint32_t> hosts;
    std::vector<LineRef> lines;
    std::string detail;
  };
  // In the order NCCL gets there: settings, verbs, IB devices, plugins.
  enum Kind { kIbDisabled, kNetSocket, kVerbs, kNoDevice, kNoInterface, kIbInitFailed, kPluginInitFailed,
              kPluginWarn, kPluginLoadFailed, kPluginNotFound, kKinds };
  auto collect = [&](bool only_wanted) {
    std::vector<Step> steps(kKinds);
    auto add = [&](Kind k, uint32_t host, LineRef line, std::string_view detail) {
      if (only_wanted && !wanted.count(host)) return;
      Step& s = steps[k];
      s.hosts.insert(host);
      if (s.lines.size() < 8) s.lines.push_back(line);
      if (s.detail.empty()) s.detail = std::string(detail);
    };
    for (const auto& e : m.env) {
      if (e.name == "NCCL_IB_DISABLE" && !e.value.empty() && e.value != "0") add(kIbDisabled, e.host, e.line, {});
      if (e.name == "NCCL_NET" && net_family(e.value) == NetFamily::Socket) add(kNetSocket, e.host, e.line, {});
    }
    for (const auto& n : m.net_notes) {
      switch (n.note) {
        case NetNote::VerbsMissing: add(kVerbs, n.host, n.line, n.name); break;
        case NetNote::IbNoDevice: add(kNoDevice, n.host, n.line, {}); break;
        case NetNote::IbNoInterface: add(kNoInterface, n.host, n.line, {}); break;
        case NetNote::PluginInitFailed:
          if (n.name == "IB") {
            add(kIbInitFailed, n.host, n.line, n.name);
          } else if (net_family(n.name) != NetFamily::Socket) {
            add(kPluginInitFailed, n.host, n.line, n.name);
          }
          break;
        case NetNote::PluginWarn: add(kPluginWarn, n.host, n.line, n.name); break;
        case NetNote::PluginLoadFailed: add(kPluginLoadFailed, n.host, n.line, n.name); break;
        case NetNote::PluginNotFound: add(kPluginNotFound, n.host, n.line, n.name); break;
        default: break;
      }
    }
    return steps;
  };
  std::vector<Step> steps = collect(true);
  if (std::all_of(steps.begin(), steps.end(), [](const Step& s) { return s.lines.empty(); })) steps = collect(false);
  // 2.28+ adds `Failed to initialize NET plugin IB` after the reason itself.
  if (!steps[kVerbs].lines.empty() || !steps[kNoDevice].lines.empty() || !steps[kNoInterface].lines.empty() ||
      !steps[kIbDisabled].lines.empty()) {
    steps[kIbInitFailed] = {};
  }
  // Every job on NCCL's own IB prints that it found no external plugin: that
  // explains a fallback only when nothing else does.
  for (int k = 0; k < kKinds; ++k) {
    if (k != kPluginNotFound && !steps[k].lines.empty()) {
      steps[kPluginNotFound] = {};
      break;
    }
  }
  std::vector<Cause> out;
  for (int k = 0; k < kKinds; ++k) {
    const Step& s = steps[k];
    if (s.lines.empty()) continue;
    std::string where = quoted_hosts(m, s.hosts);
    std::string text;
    switch (k) {
      case kIbDisabled: text = fmt::format("NCCL_IB_DISABLE=1 turns NCCL's InfiniBand/RoCE transport off{}", where); break;
      case kNetSocket: text = fmt::format("NCCL_NET=Socket selects sockets{}", where); break;
      case kVerbs:
        text = fmt::format("libibverbs could not be loaded{} ('{}'): rdma-core is missing on the host or in the "
                           "container, so NCCL's InfiniBand/RoCE transport cannot start",
                           where, s.detail == "libibverbs.so.1" ? "Count not open libibverbs.so.1"
                                                                : "Failed to open libibverbs.so[.1]");
        break;
      case kNoDevice:
        text = fmt::format("NCCL's IB transport found no usable RDMA device{} ('NET/IB : No device found.'): no HCA "
                           "visible (in a container: /dev/infiniband not mounted), no port ACTIVE, or NCCL_IB_HCA "
                           "matches none",
                           where);
        break;
      case kNoInterface:
        text = fmt::format("NCCL's IB transport found no IP interface for its connection setup{} ('NET/IB : No IP "
                           "interface found.')",
                           where);
        break;
      case kIbInitFailed: text = fmt::format("NCCL's IB transport failed to initialise{}", where); break;
      case kPluginInitFailed:
        text = fmt::format("network plugin {} failed to initialise{}", s.detail, where);
        break;
      case kPluginWarn:
        text = fmt::format("the network plugin failed{} ('{}')", where, s.detail.substr(0, 200));
        break;
      case kPluginLoadFailed:
        text = s.detail.empty() ? fmt::format("the network plugin did not load{}", where)
                                : fmt::format("the network plugin did not load{} ({})", where, s.detail);
        break;
      case kPluginNotFound:
        text = s.detail.empty() ? fmt::format("no external network plugin was found{}", where)
                                : fmt::format("no external network plugin was found{} ({})", where, s.detail);
        break;
    }
    out.push_back({std::move(text), s.lines});
  }
  return out;
}

// Names the causes in the message and cites one line of each before the
// socket links: a link line shows the fallback, the cause line explains it.
void explain(const JobModel& m, const CheckOptions& options, Finding& f) {
  std::vector<Cause> causes = fallback_causes(m, f.hosts);
  if (causes.empty()) return;
  std::vector<std::string> texts;
  for (size_t i = 0; i < causes.size() && i < 3; ++i) texts.push_back(causes[i].text);
  f.message += fmt::format("; NCCL fell back to sockets because {}", fmt::join(texts, "; "));
  if (causes.size() > texts.size()) f.message += fmt::format(" (and {} more)", causes.size() - texts.size());
  size_t max = options.max_evidence;
  size_t for_causes = f.evidence.empty() || max < 2 ? max : max - 1;
  std::vector<Evidence> cited;
  for (const auto& c : causes) {
    if (cited.size() >= for_causes) break;
    LineRef ref = c.lines.front();
    auto text = m.text_of(ref);
    cited.push_back({m.files[ref.file], ref.line, text ? std::string(*text) : std::string()});
  }
  for (const auto& e : f.evidence) {
    if (cited.size() >= max) break;
    cited.push_back(e);
  }
  std::sort(cited.begin(), cited.end(),
            [](const Evidence& a, const Evidence& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); });
  f.evidence = std::move(cited);
}

// Passes the edge findings on with their causes added.
class Explaining final : public FindingSink {
 public:
  Explaining(const CheckContext& ctx, FindingSink& out) : ctx_(ctx), out_(out) {}
  void add(Finding f) override {
    explain(ctx_.model, ctx_.options, f);
    out_.add(std::move(f));
  }

 private:
  const CheckContext& ctx_;
  FindingSink& out_;
};

}  // namespace

// A NET edge counts as inter-node when its hosts differ, and also when the
// peer's host is not in the log: NCCL only uses NET inside a node when P2P
// and SHM are both off, which intra-node-net reports when it can tell.
void InterNodeSocket::check(const CheckContext& ctx, FindingSink& out) const {
  Explaining explaining(ctx, out);
  // A link whose peer the log cannot place is taken to cross hosts, as NET
  // links do, unless the log shows NET inside a host: then it proves nothing.
  const bool net_inside = net_inside_a_host(ctx.model);
  auto crosses_hosts = [&](const EdgeView& e) {
    return e.locality == Locality::Inter || (e.locality == Locality::Unknown && !net_inside);
  };
  bool found = report_edges(ctx, kInfo, explaining, [&](const EdgeView& e) {
    bool socket = e.transport.family == TransportFamily::NET && crosses_hosts(e) && is_socket_network(e.transport.net_name);
    return socket ? "NET/" + e.transport.net_name : std::string();
  });
  // Until the input ends, connection lines may still come and show the links.
  if (found || ctx.input_open) return;

  // 2.22+ connects lazily, so a log may end before any connection line; then
  // the `Using network Socket` choice of a multi-host job is the evidence.
  // The `NET/Socket : Using` bootstrap line alone is not.
  auto it = ctx.model.using_network.find("Socket");
  if (it == ctx.model.using_network.end() || ctx.model.hosts.size() < 2) return;
  bool saw_inter_net = false;
  for_each_edge(ctx.model, [&](const EdgeView& e) {
    saw_inter_net |= e.transport.family == TransportFamily::NET && crosses_hosts(e);
  });
  if (saw_inter_net) return;
  std::set<std::string> hosts;
  Finding f = make_finding(kInfo, "");
  for (const auto& o : it->second) {
    if (o.host != kNoHost) hosts.insert(ctx.model.host_name(o.host));
    if (f.evidence.size() < ctx.options.max_evidence) {
      auto text = ctx.model.text_of(o.line);
      f.evidence.push_back({ctx.model.files[o.line.file], o.line.line, text ? std::string(*text) : std::string()});
    }
  }
  f.hosts.assign(hosts.begin(), hosts.end());
  f.message = fmt::format("NCCL chose network Socket on {} of a {}-host job ('Using network Socket'); "
                          "the log has no inter-node connection lines to show which links use it",
                          hosts.size() == 1 ? *hosts.begin() : fmt::format("{} hosts", hosts.size()),
                          ctx.model.hosts.size());
  explaining.add(std::move(f));
}

std::unique_ptr<Rule> make_inter_node_socket() { return std::make_unique<InterNodeSocket>(); }

}  // namespace nd
