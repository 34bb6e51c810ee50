#include "checks/transport/edge_groups.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "src/util/ranges.h"
#include "src/util/text.h"

namespace nd {

bool net_inside_a_host(const JobModel& model) {
  bool inside = false;
  for_each_edge(model, [&](const EdgeView& e) {
    inside |= e.transport.family == TransportFamily::NET && e.locality == Locality::Intra;
  });
  return inside;
}

bool is_socket_network(std::string_view name) { return net_family(name) == NetFamily::Socket; }

bool is_rdma_network(std::string_view name, const CheckOptions& options) {
  NetFamily family = net_family(name);
  if (family == NetFamily::Verbs || family == NetFamily::Libfabric) return true;
  return std::find(options.allowed_nets.begin(), options.allowed_nets.end(), name) != options.allowed_nets.end();
}

void EdgeGroups::add(const EdgeView& e, const std::string& label) {
  uint32_t hs = e.comm.host_of(e.edge.sender);
  uint32_t hr = e.comm.host_of(e.edge.receiver);
  // Order the pair by host name so A->B and B->A land in one group; an
  // unknown host first.
  bool swap = hs != hr && (hr == kNoHost || (hs != kNoHost && model_.host_name(hs) > model_.host_name(hr)));
  uint32_t a = swap ? hr : hs;
  uint32_t b = swap ? hs : hr;
  Group& g = groups_[Key{e.comm_index, label, a, b}];
  g.ranks_a.push_back(swap ? e.edge.receiver : e.edge.sender);
  g.ranks_b.push_back(swap ? e.edge.sender : e.edge.receiver);
  g.channels.push_back(e.edge.channel);
  (swap ? g.b_to_a : g.a_to_b) = true;
  ++g.connections;
  if (g.lines.size() < 64) {
    if (e.edge.send_transport != kNoTransport) g.lines.push_back(e.edge.send_line);
    if (e.edge.recv_transport != kNoTransport) g.lines.push_back(e.edge.recv_line);
  }
  // Keep the vectors bounded by distinct values.
  auto dedup = [](std::vector<uint32_t>& v) {
    if (v.size() > 4096) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
  };
  dedup(g.ranks_a);
  dedup(g.ranks_b);
  dedup(g.channels);
}

std::vector<Evidence> EdgeGroups::evidence(const std::vector<LineRef>& lines) const {
  std::vector<LineRef> sorted = lines;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<Evidence> out;
  // Lines whose text was kept; bare locations only when no text was kept.
  for (int pass = 0; pass < 2 && out.size() < options_.max_evidence && (pass == 0 || out.empty()); ++pass) {
    for (const auto& ref : sorted) {
      if (out.size() >= options_.max_evidence) break;
      auto text = model_.text_of(ref);
      if ((pass == 0) != text.has_value()) continue;
      out.push_back({model_.files[ref.file], ref.line, text ? std::string(*text) : std::string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Evidence& x, const Evidence& y) {
    return std::tie(x.file, x.line) < std::tie(y.file, y.line);
  });
  return out;
}

namespace {

// A rank without a host either printed no line of its own, or printed lines
// that name no host (`[0] NCCL INFO ...`, `<hostname>:919:1150 ...`).
std::string ranks_on(const Communicator& comm, const std::vector<uint32_t>& ranks, const std::string& host, bool known) {
  auto r = format_ranges(ranks);
  bool plural = r.find_first_of(",-") != std::string::npos;
  bool seen = std::any_of(ranks.begin(), ranks.end(), [&](uint32_t x) { return x < comm.ranks.size() && comm.ranks[x].pid != 0; });
  return fmt::format("{} {} {}", plural ? "ranks" : "rank", r,
                     known ? "on " + host : seen ? "(host unknown)" : "(host not in log)");
}

}  // namespace

Finding EdgeGroups::make(const RuleInfo& info, const Key& key, const Group& g) const {
  const auto& [comm_index, label, a, b] = key;
  const auto& comm = model_.comms[comm_index];
  std::string side_a = ranks_on(comm, g.ranks_a, model_.host_name(a), a != kNoHost);
  std::string side_b = ranks_on(comm, g.ranks_b, model_.host_name(b), b != kNoHost);
  std::string who;
  if (a == b) {
    std::vector<uint32_t> all = g.ranks_a;
    all.insert(all.end(), g.ranks_b.begin(), g.ranks_b.end());
    who = ranks_on(comm, all, model_.host_name(a), a != kNoHost);
  } else if (g.a_to_b && g.b_to_a) {
    who = side_a + " <-> " + side_b;
  } else if (g.a_to_b) {
    who = side_a + " -> " + side_b;
  } else {
    who = side_b + " -> " + side_a;
  }
  std::vector<uint32_t> channels = g.channels;
  std::string chans = format_ranges(channels, 2);
  bool many_channels = chans.find_first_of(",-") != std::string::npos;
  Finding f = make_finding(info, fmt::format("{}, {} {}, via {} ({})", who, many_channels ? "channels" : "channel",
                                             chans, label, plural(g.connections, "connection")));
  f.comm = comm.key;
  f.subject = fmt::format("{} {} {}", label, model_.host_name(a), model_.host_name(b));
  for (uint32_t h : {a, b}) {
    if (h != kNoHost && std::find(f.hosts.begin(), f.hosts.end(), model_.host_name(h)) == f.hosts.end()) {
      f.hosts.push_back(model_.host_name(h));
    }
  }
  std::set<uint32_t> ranks(g.ranks_a.begin(), g.ranks_a.end());
  ranks.insert(g.ranks_b.begin(), g.ranks_b.end());
  f.ranks.assign(ranks.begin(), ranks.end());
  std::set<uint32_t> chs(channels.begin(), channels.end());
  f.channels.assign(chs.begin(), chs.end());
  f.evidence = evidence(g.lines);
  return f;
}

void EdgeGroups::emit(const RuleInfo& info, FindingSink& out) const {
  // Count pairs per (communicator, label) to decide whether to collapse.
  std::map<std::pair<size_t, std::string>, std::vector<const std::pair<const Key, Group>*>> buckets;
  for (const auto& entry : groups_) {
    buckets[{std::get<0>(entry.first), std::get<1>(entry.first)}].push_back(&entry);
  }
  for (const auto& [bucket, entries] : buckets) {
    if (entries.size() <= kMaxPairs) {
      for (const auto* entry : entries) out.add(make(info, entry->first, entry->second));
      continue;
    }
    const auto& [comm_index, label] = bucket;
    Group all;
    std::set<std::string> hosts;
    std::vector<std::string> examples;
    for (const auto* entry : entries) {
      const auto& [ci, lbl, a, b] = entry->first;
      const Group& g = entry->second;
      all.ranks_a.insert(all.ranks_a.end(), g.ranks_a.begin(), g.ranks_a.end());
      all.ranks_a.insert(all.ranks_a.end(), g.ranks_b.begin(), g.ranks_b.end());
      all.channels.insert(all.channels.end(), g.channels.begin(), g.channels.end());
      all.connections += g.connections;
      if (all.lines.size() < 64) all.lines.insert(all.lines.end(), g.lines.begin(), g.lines.begin() + std::min<size_t>(g.lines.size(), 4));
      for (uint32_t h : {a, b}) {
        if (h != kNoHost) hosts.insert(model_.host_name(h));
      }
      if (examples.size() < 3) examples.push_back(fmt::format("{} -> {}", model_.host_name(a), model_.host_name(b)));
    }
    Finding f = make_finding(info, fmt::format("{} across {}, ranks {}, channels {}, via {} ({}); e.g. {}",
                                               plural(entries.size(), "host pair"), plural(hosts.size(), "host"),
                                               ranges_text(all.ranks_a, 0, options_), ranges_text(all.channels, 2, options_), label,
                                               plural(all.connections, "connection"), fmt::join(examples, ", ")));
    f.comm = model_.comms[comm_index].key;
    f.subject = fmt::format("{} *", label);  // every pair, the ones of a subject "label a b" among them
    f.hosts.assign(hosts.begin(), hosts.end());
    std::set<uint32_t> ranks(all.ranks_a.begin(), all.ranks_a.end());
    f.ranks.assign(ranks.begin(), ranks.end());
    std::set<uint32_t> chs(all.channels.begin(), all.channels.end());
    f.channels.assign(chs.begin(), chs.end());
    f.evidence = evidence(all.lines);
    out.add(std::move(f));
  }
}

std::vector<std::string> reachable_interfaces(const HostNets& nets) {
  std::vector<std::string> names;
  for (const auto& d : nets.devices) {
    if (!socket_reach(d.name, d.address).unreachable()) names.push_back(d.name);
  }
  return names;
}

std::string why_unreachable(const SocketReach& r) {
  std::string_view what = r.loopback     ? "a loopback address (every host has its own)"
                          : r.link_local ? "a link-local address (valid on one link only)"
                                         : "an address";
  return fmt::format("{}{}", what, r.host_bridge ? " on a container or VM bridge private to this host" : "");
}

}  // namespace nd
