#include "src/report/run_diff.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "checks/topology/topology_util.h"
#include "parsers/transport.h"
#include "src/report/job_links.h"

namespace nd {

using nlohmann::json;

const char* change_name(Change c) {
  switch (c) {
    case Change::Worse: return "worse";
    case Change::Better: return "better";
    case Change::Changed: return "changed";
  }
  return "unknown";
}

bool is_check_report(const json& j) {
  if (!j.is_object()) return false;
  auto it = j.find("schema");
  return it != j.end() && it->is_string() && it->get<std::string>().starts_with("nccl-doctor.check/");
}

size_t RunDiff::count(Change c) const {
  size_t n = 0;
  for (const auto& pair : comms) {
    for (const auto& item : pair.items) n += item.change == c;
  }
  for (const auto& item : job) n += item.change == c;
  return n;
}

size_t RunDiff::changes() const {
  size_t n = job.size();
  for (const auto& pair : comms) n += pair.items.size() + (pair.good.empty() || pair.bad.empty());
  return n;
}

namespace {

// Text lines stay this wide where a message from the report is cut to fit.
constexpr size_t kLineWidth = 86;
// Names listed in one line before "and N more".
constexpr size_t kMaxNames = 4;
// Moved ranks told one by one; more are told as one change.
constexpr size_t kMaxRankLines = 3;
// GPUs whose utilisation changed told one by one; more are told as one.
constexpr size_t kMaxGpuLines = 3;

const json& field(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string text_of(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

// A channel, rank or count: a whole number from 0, however JSON stored it.
std::optional<uint32_t> index_of(const json& j) {
  if (!j.is_number_integer() || j.get<int64_t>() < 0 || j.get<int64_t>() > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(j.get<int64_t>());
}

const json& array_of(const json& j, const char* key) {
  static const json kEmpty = json::array();
  const json& v = field(j, key);
  return v.is_array() ? v : kEmpty;
}

// Every communicator of the report carries `key` (reports before `diff` do not).
bool comms_have(const json& report, const char* key) {
  for (const auto& c : array_of(report, "communicators")) {
    if (!c.contains(key)) return false;
  }
  return true;
}

// "a, b, c, d and 3 more"
std::string names_text(const std::vector<std::string>& names) {
  std::string out;
  size_t shown = std::min(names.size(), kMaxNames);
  if (names.size() == kMaxNames + 1) shown = names.size();
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  if (shown < names.size()) out += fmt::format(" and {} more", names.size() - shown);
  return out;
}

std::string joined(const std::set<std::string>& values, std::string_view sep) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += sep;
    out += v;
  }
  return out;
}

DiffItem item(const char* kind, Change change, std::string text, json detail = json::object()) {
  return {kind, change, std::move(text), std::move(detail)};
}

// --- communicators ---------------------------------------------------------

// Equal ids first (commIds repeat only when the job passes its own), then by
// size in order: the i-th remaining communicator of N ranks in GOOD is the
// i-th of N ranks in BAD.
std::vector<std::pair<std::optional<size_t>, std::optional<size_t>>> match_comms(const json& good, const json& bad,
                                                                                std::vector<std::string>& how) {
  const json& g = array_of(good, "communicators");
  const json& b = array_of(bad, "communicators");
  std::vector<std::optional<size_t>> partner(g.size());
  std::vector<bool> taken(b.size(), false);
  std::vector<std::string> by(g.size(), "none");
  for (size_t i = 0; i < g.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) {
      if (!taken[j] && text_of(field(g[i], "id")) == text_of(field(b[j], "id"))) {
        partner[i] = j;
        taken[j] = true;
        by[i] = "id";
        break;
      }
    }
  }
  for (size_t i = 0; i < g.size(); ++i) {
    if (partner[i]) continue;
    for (size_t j = 0; j < b.size(); ++j) {
      if (!taken[j] && field(g[i], "nranks") == field(b[j], "nranks")) {
        partner[i] = j;
        taken[j] = true;
        by[i] = "size and order";
        break;
      }
    }
  }
  std::vector<std::pair<std::optional<size_t>, std::optional<size_t>>> out;
  for (size_t i = 0; i < g.size(); ++i) {
    out.emplace_back(i, partner[i]);
    how.push_back(by[i]);
  }
  for (size_t j = 0; j < b.size(); ++j) {
    if (taken[j]) continue;
    out.emplace_back(std::nullopt, j);
    how.push_back("none");
  }
  return out;
}

// "NET/IB+GDR" as NCCL prints it: "NET/IB/GDRDMA".
std::string nccl_label(std::string label) {
  if (label.ends_with("+GDR")) label.replace(label.size() - 4, 4, "/GDRDMA");
  return label;
}

// How good a link is, where it runs; 0 when unknown. Higher is faster.
int link_rank(const std::string& label, bool inside_host) {
  if (label.starts_with("NET/")) {
    if (inside_host) return 1;
    bool gdr = label.ends_with("+GDR");
    std::string name = label.substr(4, label.size() - 4 - (gdr ? 4 : 0));
    switch (net_family(name)) {
      case NetFamily::Socket: return 1;
      case NetFamily::Unknown: return 2;
      case NetFamily::Verbs:
      case NetFamily::Libfabric: return gdr ? 4 : 3;
    }
    return 0;
  }
  if (label.starts_with("CollNet/")) return inside_host ? 1 : 3;
  if (label == "P2P") return inside_host ? 4 : 5;
  if (label == "SHM") return 3;
  return 0;
}

// The lowest rank of a set of labels; 0 when any is unknown.
int worst_rank(const std::set<std::string>& labels, bool inside_host) {
  int worst = 99;
  for (const auto& l : labels) worst = std::min(worst, link_rank(l, inside_host));
  return labels.empty() ? 0 : worst;
}

std::string labels_text(const std::set<std::string>& labels) {
  std::set<std::string> shown;
  for (const auto& l : labels) shown.insert(nccl_label(l));
  return joined(shown, " and ");
}

using HostPair = std::pair<std::string, std::string>;  // first <= second
// host pair -> channel -> labels (both directions)
using PairLinks = std::map<HostPair, std::map<uint32_t, std::set<std::string>>>;

PairLinks pair_links(const json& comm) {
  PairLinks out;
  for (const auto& l : array_of(comm, "links")) {
    std::string a = text_of(field(l, "from")), b = text_of(field(l, "to"));
    if (b < a) std::swap(a, b);
    auto ch = index_of(field(l, "channel"));
    if (!ch) continue;
    out[{a, b}][*ch].insert(text_of(field(l, "transport")));
  }
  return out;
}

std::string where_text(const std::vector<HostPair>& pairs) {
  if (pairs.front().first == pairs.front().second) {
    std::vector<std::string> hosts;
    for (const auto& p : pairs) hosts.push_back(p.first);
    return "inside " + names_text(hosts);
  }
  std::string out = fmt::format("between {} and {}", pairs.front().first, pairs.front().second);
  if (pairs.size() == 2) out += fmt::format(", {} and {}", pairs[1].first, pairs[1].second);
  if (pairs.size() > 2) out += fmt::format(" (and {} more host pairs)", pairs.size() - 1);
  return out;
}

void diff_links(const json& g, const json& b, std::vector<DiffItem>& out) {
  PairLinks good = pair_links(g), bad = pair_links(b);
  // What happened on a channel of a pair: "moved", "gone" or "new", from
  // which labels to which; each grouped by pair, then channels, then pairs.
  using What = std::tuple<bool, std::string, std::set<std::string>, std::set<std::string>>;  // inside, kind, from, to
  std::map<std::pair<What, HostPair>, std::vector<uint32_t>> by_pair;
  std::set<HostPair> pairs;
  for (const auto& [p, _] : good) pairs.insert(p);
  for (const auto& [p, _] : bad) pairs.insert(p);
  static const std::map<uint32_t, std::set<std::string>> kNone;
  for (const auto& p : pairs) {
    auto gi = good.find(p), bi = bad.find(p);
    const auto& gc = gi == good.end() ? kNone : gi->second;
    const auto& bc = bi == bad.end() ? kNone : bi->second;
    std::set<uint32_t> channels;
    for (const auto& [c, _] : gc) channels.insert(c);
    for (const auto& [c, _] : bc) channels.insert(c);
    bool inside = p.first == p.second;
    for (uint32_t c : channels) {
      auto gl = gc.find(c), bl = bc.find(c);
      if (gl != gc.end() && bl != bc.end()) {
        if (gl->second != bl->second) by_pair[{{inside, "moved", gl->second, bl->second}, p}].push_back(c);
      } else if (gl != gc.end()) {
        by_pair[{{inside, "gone", gl->second, {}}, p}].push_back(c);
      } else {
        by_pair[{{inside, "new", {}, bl->second}, p}].push_back(c);
      }
    }
  }
  std::map<std::pair<What, std::vector<uint32_t>>, std::vector<HostPair>> grouped;
  for (const auto& [key, channels] : by_pair) grouped[{key.first, channels}].push_back(key.second);
  for (const auto& [key, hosts] : grouped) {
    const auto& [what, channels] = key;
    const auto& [inside, kind, from, to] = what;
    std::string chs = channels_text("channel", channels);
    json detail = {{"channels", channels}, {"from", json::array()}, {"to", json::array()}};
    for (const auto& l : from) detail["from"].push_back(nccl_label(l));
    for (const auto& l : to) detail["to"].push_back(nccl_label(l));
    json host_pairs = json::array();
    for (const auto& [from_host, to_host] : hosts) host_pairs.push_back({from_host, to_host});
    detail["host_pairs"] = host_pairs;
    detail["state"] = kind;
    if (kind == "moved") {
      int before = worst_rank(from, inside), after = worst_rank(to, inside);
      Change change = before && after && after < before   ? Change::Worse
                      : before && after && after > before ? Change::Better
                                                          : Change::Changed;
      out.push_back(item("transport", change,
                         fmt::format("{} moved from {} to {} {}", chs, labels_text(from), labels_text(to),
                                     where_text(hosts)),
                         detail));
    } else if (kind == "gone") {
      out.push_back(item("transport", Change::Changed,
                         fmt::format("{} {}: connections only in GOOD ({})", chs, where_text(hosts), labels_text(from)),
                         detail));
    } else {
      out.push_back(item("transport", Change::Changed,
                         fmt::format("{} {}: connections only in BAD ({})", chs, where_text(hosts), labels_text(to)),
                         detail));
    }
  }
}

struct Placement {
  std::string host;
  std::optional<int> gpu;  // nvmlDev, else cudaDev
  bool operator==(const Placement&) const = default;
};

std::map<uint32_t, Placement> placements(const json& comm) {
  std::map<uint32_t, Placement> out;
  for (const auto& r : array_of(comm, "ranks")) {
    auto rank = index_of(field(r, "rank"));
    if (!rank) continue;
    Placement p{text_of(field(r, "host")), std::nullopt};
    for (const char* key : {"nvml_dev", "cuda_dev"}) {
      if (field(r, key).is_number_integer()) {
        p.gpu = field(r, key).get<int>();
        break;
      }
    }
    out[*rank] = p;
  }
  return out;
}

std::string placement_text(const Placement& p) {
  return p.gpu ? fmt::format("{} GPU {}", p.host, *p.gpu) : p.host;
}

void diff_ranks(const json& g, const json& b, std::vector<DiffItem>& out) {
  auto good = placements(g), bad = placements(b);
  std::vector<std::tuple<uint32_t, Placement, Placement>> moved;
  for (const auto& [rank, p] : good) {
    auto it = bad.find(rank);
    if (it != bad.end() && !(it->second == p)) moved.emplace_back(rank, p, it->second);
  }
  auto move_json = [](const auto& m) {
    const auto& [rank, from, to] = m;
    return json{{"rank", rank},
                {"from", {{"host", from.host}, {"gpu", from.gpu ? json(*from.gpu) : json()}}},
                {"to", {{"host", to.host}, {"gpu", to.gpu ? json(*to.gpu) : json()}}}};
  };
  if (moved.size() <= kMaxRankLines) {
    for (const auto& m : moved) {
      const auto& [rank, from, to] = m;
      out.push_back(item("ranks", Change::Changed,
                         fmt::format("rank {} moved from {} to {}", rank, placement_text(from), placement_text(to)),
                         {{"moved", json::array({move_json(m)})}}));
    }
    return;
  }
  json all = json::array();
  for (const auto& m : moved) all.push_back(move_json(m));
  const auto& [rank, from, to] = moved.front();
  out.push_back(item("ranks", Change::Changed,
                     fmt::format("{} ranks moved to another host or GPU, e.g. rank {} from {} to {}", moved.size(),
                                 rank, placement_text(from), placement_text(to)),
                     {{"moved", all}}));
}

// --- the job ------------------------------------------------------------------

std::set<std::string> rank_hosts(const json& report) {
  std::set<std::string> out;
  for (const auto& c : array_of(report, "communicators")) {
    for (const auto& r : array_of(c, "ranks")) out.insert(text_of(field(r, "host")));
  }
  return out;
}

void diff_hosts(const json& good, const json& bad, std::vector<DiffItem>& out) {
  std::set<std::string> g = rank_hosts(good), b = rank_hosts(bad);
  std::vector<std::string> gone, added;
  std::set_difference(g.begin(), g.end(), b.begin(), b.end(), std::back_inserter(gone));
  std::set_difference(b.begin(), b.end(), g.begin(), g.end(), std::back_inserter(added));
  if (!gone.empty()) {
    out.push_back(item("hosts", Change::Changed, "hosts no longer in the job: " + names_text(gone), {{"gone", gone}}));
  }
  if (!added.empty()) {
    out.push_back(item("hosts", Change::Changed, "hosts new in the job: " + names_text(added), {{"new", added}}));
  }
}

void diff_versions(const json& good, const json& bad, std::vector<DiffItem>& out) {
  const json& g = field(field(good, "summary"), "nccl_versions");
  const json& b = field(field(bad, "summary"), "nccl_versions");
  if (g == b) return;
  auto text = [](const json& v) {
    std::string s;
    for (const auto& x : v.is_array() ? v : json::array()) s += (s.empty() ? "" : ", ") + text_of(x);
    return s.empty() ? std::string("none") : s;
  };
  out.push_back(item("version", Change::Changed, fmt::format("NCCL version {} -> {}", text(g), text(b)),
                     {{"good", g}, {"bad", b}}));
}

void diff_gdr(const json& good, const json& bad, std::vector<DiffItem>& out) {
  std::string g = text_of(field(field(good, "summary"), "gdr"));
  std::string b = text_of(field(field(bad, "summary"), "gdr"));
  // "na": no NET link between hosts; the transports say what changed.
  static const std::map<std::string, int> kLevel = {{"no", 0}, {"mixed", 1}, {"yes", 2}};
  auto gi = kLevel.find(g), bi = kLevel.find(b);
  if (g == b || gi == kLevel.end() || bi == kLevel.end()) return;
  bool lost = bi->second < gi->second;
  const char* what = lost ? (b == "mixed" ? "partly lost" : "lost") : "gained";
  out.push_back(item("gdr", lost ? Change::Worse : Change::Better,
                     fmt::format("GPUDirect RDMA {} ({} -> {})", what, g, b), {{"good", g}, {"bad", b}}));
}

using NicSet = std::set<std::pair<std::string, std::string>>;  // (net, nic)

std::map<std::string, NicSet> nics_used(const json& report) {
  std::map<std::string, NicSet> out;
  for (const auto& h : array_of(field(report, "summary"), "nics_used")) {
    NicSet& nics = out[text_of(field(h, "host"))];
    for (const auto& n : array_of(h, "nics")) nics.insert({text_of(field(n, "net")), text_of(field(n, "nic"))});
  }
  return out;
}

// "mlx5_0, mlx5_3 (IB); ib0 (Socket)"
std::string nics_text(const NicSet& nics) {
  std::map<std::string, std::set<std::string>> by_net;
  for (const auto& [net, nic] : nics) by_net[net].insert(nic);
  std::string out;
  for (const auto& [net, names] : by_net) {
    if (!out.empty()) out += "; ";
    out += fmt::format("{} ({})", joined(names, ", "), net);
  }
  return out;
}

void diff_nics(const json& good, const json& bad, std::vector<DiffItem>& out) {
  auto g = nics_used(good), b = nics_used(bad);
  std::set<std::string> g_hosts = rank_hosts(good), b_hosts = rank_hosts(bad);
  // A host of both runs: one without inter-node traffic in a run uses no NIC there.
  std::set<std::string> hosts;
  for (const auto& [h, _] : g) {
    if (b.count(h) || b_hosts.count(h)) hosts.insert(h);
  }
  for (const auto& [h, _] : b) {
    if (g.count(h) || g_hosts.count(h)) hosts.insert(h);
  }
  std::map<NicSet, std::vector<std::string>> lost, gained;
  for (const auto& h : hosts) {
    const NicSet& before = g[h];
    const NicSet& after = b[h];
    NicSet l, n;
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::inserter(l, l.end()));
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::inserter(n, n.end()));
    if (!l.empty()) lost[l].push_back(h);
    if (!n.empty()) gained[n].push_back(h);
  }
  auto detail = [](const NicSet& nics, const std::vector<std::string>& on) {
    json list = json::array();
    for (const auto& [net, nic] : nics) list.push_back({{"net", net}, {"nic", nic}});
    return json{{"hosts", on}, {"nics", list}};
  };
  for (const auto& [nics, on] : lost) {
    out.push_back(item("nics", Change::Worse,
                       fmt::format("{} no longer used on {}: {}", nics.size() == 1 ? "NIC" : "NICs", names_text(on),
                                   nics_text(nics)),
                       detail(nics, on)));
  }
  for (const auto& [nics, on] : gained) {
    out.push_back(item("nics", Change::Changed,
                       fmt::format("{} newly used on {}: {}", nics.size() == 1 ? "NIC" : "NICs", names_text(on),
                                   nics_text(nics)),
                       detail(nics, on)));
  }
}

std::map<std::string, std::set<std::string>> settings(const json& report) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& s : array_of(field(report, "summary"), "settings")) {
    out[text_of(field(s, "name"))].insert(text_of(field(s, "value")));
  }
  return out;
}

void diff_settings(const json& good, const json& bad, std::vector<DiffItem>& out) {
  auto g = settings(good), b = settings(bad);
  std::set<std::string> names;
  for (const auto& [n, _] : g) names.insert(n);
  for (const auto& [n, _] : b) names.insert(n);
  for (const auto& name : names) {
    const auto& before = g[name];
    const auto& after = b[name];
    if (before == after) continue;
    auto text = [](const std::set<std::string>& v) { return v.empty() ? std::string("not set") : joined(v, ", "); };
    auto values = [](const std::set<std::string>& v) { return v.empty() ? json() : json(std::vector(v.begin(), v.end())); };
    out.push_back(item("setting", Change::Changed, fmt::format("{}: {} -> {}", name, text(before), text(after)),
                       {{"name", name}, {"good", values(before)}, {"bad", values(after)}}));
  }
}

int severity_level(const std::string& s) { return s == "error" ? 2 : s == "warning" ? 1 : 0; }

struct FindingRef {
  const json* f;
  std::string comm;     // in GOOD's ids
  std::string message;  // BAD's communicator ids replaced by GOOD's
  bool used = false;
};

// "new error ND3001 inter-node-socket: ...", "error ND3001 inter-node-socket now: ...".
std::string finding_text(const char* what, const FindingRef& r) {
  std::string rule = fmt::format("{} {} {}", text_of(field(*r.f, "severity")), text_of(field(*r.f, "id")),
                                 text_of(field(*r.f, "slug")));
  std::string head = std::string_view(what) == "now" ? rule + " now: " : fmt::format("{} {}: ", what, rule);
  size_t room = kLineWidth > head.size() + 20 ? kLineWidth - head.size() : 20;
  return head + display(r.message, room);
}

json finding_detail(const char* state, const FindingRef& r) {
  return {{"state", state},
          {"id", field(*r.f, "id")},
          {"slug", field(*r.f, "slug")},
          {"severity", field(*r.f, "severity")},
          {"message", field(*r.f, "message")},
          {"communicator", r.comm.empty() ? json() : json(r.comm)}};
}

void diff_findings(const json& good, const json& bad, const std::map<std::string, std::string>& bad_to_good,
                   std::vector<DiffItem>& out) {
  auto refs = [&](const json& report, bool is_bad) {
    std::vector<FindingRef> list;
    for (const auto& f : array_of(report, "findings")) {
      std::string comm = text_of(field(f, "communicator"));
      std::string message = text_of(field(f, "message"));
      if (is_bad) {
        for (const auto& [b, g] : bad_to_good) {
          if (b.empty() || b == g) continue;
          for (size_t at = message.find(b); at != std::string::npos; at = message.find(b, at + g.size())) {
            message.replace(at, b.size(), g);
          }
        }
        auto it = bad_to_good.find(comm);
        if (it != bad_to_good.end()) comm = it->second;
      }
      list.push_back({&f, comm, message});
    }
    return list;
  };
  std::vector<FindingRef> g = refs(good, false), b = refs(bad, true);
  auto id = [](const FindingRef& r) { return text_of(field(*r.f, "id")); };
  // The same finding; then the same rule about the same hosts, reworded.
  for (auto& x : g) {
    for (auto& y : b) {
      if (!y.used && id(x) == id(y) && x.comm == y.comm && x.message == y.message) {
        x.used = y.used = true;
        break;
      }
    }
  }
  for (auto& x : g) {
    if (x.used) continue;
    for (auto& y : b) {
      if (!y.used && id(x) == id(y) && x.comm == y.comm && field(*x.f, "hosts") == field(*y.f, "hosts")) {
        x.used = y.used = true;
        int before = severity_level(text_of(field(*x.f, "severity")));
        int after = severity_level(text_of(field(*y.f, "severity")));
        Change change = after > before ? Change::Worse : after < before ? Change::Better : Change::Changed;
        json detail = finding_detail("changed", y);
        detail["was"] = field(*x.f, "message");
        out.push_back(item("finding", change, finding_text("now", y), detail));
        break;
      }
    }
  }
  for (const auto& y : b) {
    if (y.used) continue;
    bool serious = severity_level(text_of(field(*y.f, "severity"))) > 0;
    out.push_back(item("finding", serious ? Change::Worse : Change::Changed, finding_text("new", y),
                       finding_detail("new", y)));
  }
  for (const auto& x : g) {
    if (x.used) continue;
    bool serious = severity_level(text_of(field(*x.f, "severity"))) > 0;
    out.push_back(item("finding", serious ? Change::Better : Change::Changed, finding_text("gone", x),
                       finding_detail("gone", x)));
  }
}

std::string run_name(const json& t) {
  std::string op = text_of(field(t, "op"));
  return fmt::format("{} ({} ranks)", op.empty() ? "nccl-tests" : op, index_of(field(t, "ranks")).value_or(0));
}

void diff_busbw(const json& good, const json& bad, std::vector<DiffItem>& out, std::vector<std::string>& not_compared) {
  bool g_has = good.contains("nccl_tests") && !array_of(good, "nccl_tests").empty();
  bool b_has = bad.contains("nccl_tests") && !array_of(bad, "nccl_tests").empty();
  if (g_has != b_has) {
    not_compared.push_back(fmt::format("bus bandwidth: only {} has nccl-tests output", g_has ? "GOOD" : "BAD"));
  }
  if (!g_has || !b_has) return;
  const json& g = array_of(good, "nccl_tests");
  std::vector<bool> taken(array_of(bad, "nccl_tests").size(), false);
  for (const auto& x : g) {
    const json& b = array_of(bad, "nccl_tests");
    for (size_t j = 0; j < b.size(); ++j) {
      const json& y = b[j];
      if (taken[j] || field(x, "op") != field(y, "op") || field(x, "ranks") != field(y, "ranks")) continue;
      taken[j] = true;
      const json& before = field(x, "max_busbw_gbs");
      const json& after = field(y, "max_busbw_gbs");
      if (!before.is_number() || !after.is_number() || before.get<double>() <= 0) break;
      double bw0 = before.get<double>(), bw1 = after.get<double>();
      double ratio = bw1 / bw0 - 1;
      if (std::fabs(ratio) <= kBusbwRegression) break;
      out.push_back(item("busbw", ratio < 0 ? Change::Worse : Change::Better,
                         fmt::format("busbw of {} {} {:.0f} % ({:.1f} -> {:.1f} GB/s)", run_name(x),
                                     ratio < 0 ? "fell" : "rose", std::fabs(ratio) * 100, bw0, bw1),
                         {{"op", field(x, "op")}, {"ranks", field(x, "ranks")}, {"good_gbs", bw0}, {"bad_gbs", bw1}}));
      break;
    }
  }
}

void diff_gpu_util(const json& good, const json& bad, std::vector<DiffItem>& out) {
  std::map<std::pair<std::string, std::string>, double> before;
  auto key = [](const json& gpu) { return std::pair(text_of(field(gpu, "host")), field(gpu, "index").dump()); };
  for (const auto& gpu : array_of(good, "gpus")) {
    if (field(gpu, "util_mean").is_number()) before[key(gpu)] = field(gpu, "util_mean").get<double>();
  }
  struct Moved {
    std::string name;
    double from, to;
  };
  std::vector<Moved> moved;
  for (const auto& gpu : array_of(bad, "gpus")) {
    auto it = before.find(key(gpu));
    if (it == before.end() || !field(gpu, "util_mean").is_number()) continue;
    double to = field(gpu, "util_mean").get<double>();
    if (std::fabs(to - it->second) < kUtilChangePoints) continue;
    std::string host = it->first.first.empty() ? std::string() : it->first.first + " ";
    moved.push_back({fmt::format("{}GPU {}", host, it->first.second), it->second, to});
  }
  auto detail = [](const Moved& m) { return json{{"gpu", m.name}, {"good_util", m.from}, {"bad_util", m.to}}; };
  if (moved.size() <= kMaxGpuLines) {
    for (const auto& m : moved) {
      out.push_back(item("gpu_util", Change::Changed,
                         fmt::format("GPU utilisation of {} {} from {:.0f} % to {:.0f} %", m.name,
                                     m.to < m.from ? "fell" : "rose", m.from, m.to),
                         {{"gpus", json::array({detail(m)})}}));
    }
    return;
  }
  double from = 0, to = 0;
  json all = json::array();
  for (const auto& m : moved) {
    from += m.from;
    to += m.to;
    all.push_back(detail(m));
  }
  from /= static_cast<double>(moved.size());
  to /= static_cast<double>(moved.size());
  out.push_back(item("gpu_util", Change::Changed,
                     fmt::format("GPU utilisation changed by {} points or more on {} GPUs (mean {:.0f} % -> {:.0f} %)",
                                 kUtilChangePoints, moved.size(), from, to),
                     {{"gpus", all}}));
}

RunSide side(const json& report, const std::string& input) {
  const json& s = field(report, "summary");
  RunSide out{input, {}, 0, 0, 0};
  for (const auto& v : array_of(s, "nccl_versions")) out.nccl_versions.push_back(text_of(v));
  auto number = [&](const char* key) { return uint64_t{index_of(field(s, key)).value_or(0)}; };
  out.hosts = number("hosts");
  out.ranks = number("ranks");
  out.communicators = number("communicators");
  return out;
}

}  // namespace

RunDiff diff_runs(const json& good, const json& bad, const std::string& good_input, const std::string& bad_input) {
  RunDiff d;
  d.good = side(good, good_input);
  d.bad = side(bad, bad_input);

  // What a report saved by an older nccl-doctor lacks is named, not guessed.
  auto both = [&](bool g, bool b, const char* what) {
    if (g && b) return true;
    d.not_compared.push_back(fmt::format("{}: the {} report lacks them (saved by an older nccl-doctor?)", what,
                                         !g && !b ? "GOOD and the BAD" : !g ? "GOOD" : "BAD"));
    return false;
  };
  bool links = both(comms_have(good, "links"), comms_have(bad, "links"), "transports by channel");
  bool ranks = both(comms_have(good, "ranks"), comms_have(bad, "ranks"), "ranks' hosts and GPUs");
  bool nics = both(field(good, "summary").contains("nics_used"), field(bad, "summary").contains("nics_used"),
                   "NICs in use");
  bool sets = both(field(good, "summary").contains("settings"), field(bad, "summary").contains("settings"),
                   "NCCL settings");

  std::vector<std::string> how;
  std::map<std::string, std::string> bad_to_good;
  const json& gc = array_of(good, "communicators");
  const json& bc = array_of(bad, "communicators");
  auto matches = match_comms(good, bad, how);
  for (size_t k = 0; k < matches.size(); ++k) {
    const auto& [gi, bi] = matches[k];
    CommPair pair;
    pair.matched_by = how[k];
    static const json kNone;
    const json& g = gi ? gc[*gi] : kNone;
    const json& b = bi ? bc[*bi] : kNone;
    if (gi) pair.good = text_of(field(g, "id"));
    if (bi) pair.bad = text_of(field(b, "id"));
    const json& n = field(gi ? g : b, "nranks");
    pair.nranks = index_of(n).value_or(0);
    if (gi && bi) {
      bad_to_good[pair.bad] = pair.good;
      if (links) diff_links(g, b, pair.items);
      if (ranks) diff_ranks(g, b, pair.items);
    }
    d.comms.push_back(std::move(pair));
  }

  if (ranks) diff_hosts(good, bad, d.job);
  diff_versions(good, bad, d.job);
  diff_gdr(good, bad, d.job);
  if (nics) diff_nics(good, bad, d.job);
  if (sets) diff_settings(good, bad, d.job);
  diff_findings(good, bad, bad_to_good, d.job);
  diff_busbw(good, bad, d.job, d.not_compared);
  diff_gpu_util(good, bad, d.job);
  return d;
}

namespace {

std::string side_text(const RunSide& s) {
  std::string versions;
  for (const auto& v : s.nccl_versions) versions += (versions.empty() ? "" : ", ") + v;
  return fmt::format("{} (NCCL {}; {} host{}, {} rank{}, {} communicator{})", display(s.input),
                     versions.empty() ? "unknown" : versions, s.hosts, s.hosts == 1 ? "" : "s", s.ranks,
                     s.ranks == 1 ? "" : "s", s.communicators, s.communicators == 1 ? "" : "s");
}

std::string comm_title(const CommPair& p) {
  std::string ranks = fmt::format("{} rank{}", p.nranks, p.nranks == 1 ? "" : "s");
  if (p.bad.empty()) return fmt::format("communicator {} ({}): only in GOOD", p.good, ranks);
  if (p.good.empty()) return fmt::format("communicator {} ({}): only in BAD", p.bad, ranks);
  if (p.good == p.bad) return fmt::format("communicator {} ({})", p.good, ranks);
  return fmt::format("communicator {} -> {} ({})", p.good, p.bad, ranks);
}

// Changes told per section before "and N more".
constexpr size_t kMaxShown = 12;

void items_text(const std::vector<DiffItem>& items, std::string& out) {
  for (size_t i = 0; i < items.size() && i < kMaxShown; ++i) {
    out += fmt::format("  {}: {}\n", change_name(items[i].change), items[i].text);
  }
  if (items.size() > kMaxShown) {
    size_t worse = 0;
    for (size_t i = kMaxShown; i < items.size(); ++i) worse += items[i].change == Change::Worse;
    out += fmt::format("  ... and {} more changes ({} worse); --format json lists them all\n",
                       items.size() - kMaxShown, worse);
  }
}

const char* verdict(const RunDiff& d) {
  return d.regressed() ? "regressed" : d.changes() == 0 ? "unchanged" : "not-worse";
}

json items_json(const std::vector<DiffItem>& items) {
  json out = json::array();
  for (const auto& i : items) {
    json j = {{"kind", i.kind}, {"change", change_name(i.change)}, {"message", i.text}};
    for (const auto& [k, v] : i.detail.items()) j[k] = v;
    out.push_back(std::move(j));
  }
  return out;
}

json side_json(const RunSide& s) {
  return {{"input", s.input},
          {"nccl_versions", s.nccl_versions},
          {"hosts", s.hosts},
          {"ranks", s.ranks},
          {"communicators", s.communicators}};
}

}  // namespace

std::string render_diff_text(const RunDiff& d) {
  std::string out = fmt::format("good: {}\nbad:  {}\n\n", side_text(d.good), side_text(d.bad));
  for (const auto& p : d.comms) {
    if (p.items.empty() && !p.good.empty() && !p.bad.empty()) continue;
    out += comm_title(p) + "\n";
    items_text(p.items, out);
  }
  if (!d.job.empty()) {
    out += "job\n";
    items_text(d.job, out);
  }
  if (d.changes() == 0) out += "nothing changed\n";
  for (const auto& n : d.not_compared) out += "not compared: " + n + "\n";
  std::string v = verdict(d);
  std::transform(v.begin(), v.end(), v.begin(), [](char c) { return c == '-' ? ' ' : static_cast<char>(std::toupper(c)); });
  out += fmt::format("\nverdict: {} ({} change{}: {} worse, {} better)\n", v, d.changes(), d.changes() == 1 ? "" : "s",
                     d.count(Change::Worse), d.count(Change::Better));
  return out;
}

std::string render_diff_json(const RunDiff& d) {
  json comms = json::array();
  for (const auto& p : d.comms) {
    comms.push_back({{"good", p.good.empty() ? json() : json(p.good)},
                     {"bad", p.bad.empty() ? json() : json(p.bad)},
                     {"nranks", p.nranks},
                     {"matched_by", p.matched_by},
                     {"changes", items_json(p.items)}});
  }
  json out = {{"schema", kDiffSchema},
              {"verdict", verdict(d)},
              {"regressed", d.regressed()},
              {"counts",
               {{"changes", d.changes()}, {"worse", d.count(Change::Worse)}, {"better", d.count(Change::Better)}}},
              {"good", side_json(d.good)},
              {"bad", side_json(d.bad)},
              {"communicators", comms},
              {"changes", items_json(d.job)},
              {"not_compared", d.not_compared}};
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace nd
