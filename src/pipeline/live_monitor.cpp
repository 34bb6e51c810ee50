#include "src/pipeline/live_monitor.h"

#include <algorithm>

#include <fmt/ranges.h>

#include <fmt/format.h>

#include "checks/transport/edge_groups.h"
#include "src/report/text_renderer.h"
#include "src/util/text.h"

namespace nd {

LiveMonitor::LiveMonitor(const Registry& registry, const RuleSelection& selection, const CheckOptions& options,
                         std::function<void(std::string_view)> emit)
    : registry_(registry), selection_(selection), options_(options), emit_(std::move(emit)) {}

const RuleInfo* LiveMonitor::active(std::string_view slug) const {
  const RuleInfo* r = registry_.find(slug);
  return r && selection_.enabled(r->id) ? r : nullptr;
}

uint16_t LiveMonitor::transport_id(std::string_view text) {
  auto it = transport_ids_.find(std::string(text));
  if (it != transport_ids_.end()) return it->second;
  if (transports_.size() >= UINT16_MAX) return 0;
  transports_.push_back(parse_transport(text));
  auto id = static_cast<uint16_t>(transports_.size() - 1);
  transport_ids_.emplace(std::string(text), id);
  return id;
}

// Which communicator a line belongs to, as ModelBuilder decides it: the open
// Init START (2.18.3+), the latest matching communicator for 2.22+ runtime
// connections, else the k-th communicator of the process (before 2.18.3,
// Init COMPLETE follows the connection lines).
std::string LiveMonitor::scope_of(Process& p, int dev, uint32_t own_rank, uint32_t max_rank) const {
  for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
    if (it->open && it->rank == own_rank && max_rank < it->nranks) return it->scope;
  }
  if (p.saw_start) {
    for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
      if (it->rank == own_rank && max_rank < it->nranks) return it->scope;
    }
  }
  auto count = p.completes_per_dev.find(dev);
  return fmt::format("#{}", count == p.completes_per_dev.end() ? 0 : count->second);
}

void LiveMonitor::on_event(std::string_view file, LineRef ref, std::string_view raw, const NcclHeader& h,
                           const Event& ev) {
  // A spliced header's host name may hold the tail of other text.
  if (h.column != 0) return;
  // Only these lines decide anything live; the rest wait for the report.
  if (!std::holds_alternative<ConnectionEvent>(ev) && !std::holds_alternative<InitEvent>(ev) &&
      !std::holds_alternative<WarnEvent>(ev)) {
    return;
  }
  // A line whose header names no host cannot place its ranks; the report
  // at the end weighs what other lines prove.
  if (h.host_form != HostForm::Named && !std::holds_alternative<WarnEvent>(ev)) return;
  current_ = Current{file, ref.line, raw};
  Process& p = processes_[{std::string(h.host), h.pid}];
  if (const auto* c = std::get_if<ConnectionEvent>(&ev)) {
    on_connection(p, h, *c);
  } else if (const auto* init = std::get_if<InitEvent>(&ev)) {
    std::string scope;
    Slot* slot = nullptr;
    for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
      if (it->open && it->comm_ptr == init->comm_ptr && it->rank == init->rank) {
        slot = &*it;
        break;
      }
    }
    if (slot) {
      scope = slot->scope;
    } else {
      uint32_t& count = p.completes_per_dev[h.dev];
      scope = init->comm_id ? fmt::format("0x{:x}", *init->comm_id) : fmt::format("#{}", count);
      if (init->phase == InitPhase::Start) {
        p.slots.push_back({scope, init->rank, init->nranks, std::string(init->comm_ptr), true});
        slot = &p.slots.back();
      } else if (init->comm_id) {
        // 2.16-2.18.1: commId first shows at COMPLETE, after the connection
        // lines that were scoped by count.
        learn(fmt::format("#{}", count), init->rank, h.host);
      }
    }
    if (init->phase == InitPhase::Start) {
      p.saw_start = true;
    } else {
      if (slot) slot->open = false;
      completed(scope, init->rank, init->nranks, h.host);
      if (!slot && p.slots.size() < 4096) p.slots.push_back({scope, init->rank, init->nranks, std::string(init->comm_ptr), false});
      ++p.completes_per_dev[h.dev];
    }
    learn(scope, init->rank, h.host);
  } else if (const auto* w = std::get_if<WarnEvent>(&ev)) {
    if (const RuleInfo* rule = active("nccl-warning")) {
      std::string where = h.host_form == HostForm::Named ? std::string(h.host) : std::string("host unknown");
      std::string pid = h.host_form == HostForm::Absent ? std::string("pid unknown") : fmt::format("pid {}", h.pid);
      std::string message = fmt::format("NCCL WARN on {} ({}{}): {}", where, pid,
                                        h.dev >= 0 ? fmt::format(", device {}", h.dev) : "", w->message);
      report(rule, fmt::format("{}|{}|{}", rule->id, h.host, w->message), std::move(message), {current_.cited()});
    }
  }
}

void LiveMonitor::completed(const std::string& scope, uint32_t rank, uint32_t nranks, std::string_view host) {
  if (progress_.size() >= 4096 && !progress_.count(scope)) return;
  CommProgress& c = progress_[scope];
  c.nranks = std::max(c.nranks, nranks);
  if (c.announced || nranks > kMaxRanks) return;
  c.completed.insert(rank);
  c.hosts.emplace(host);
  if (c.completed.size() < c.nranks) return;
  c.announced = true;
  std::string links = c.links.empty() ? std::string("none yet (NCCL 2.22+ connects at the first collective)")
                                      : fmt::format("{}", fmt::join(c.links, ", "));
  emit_(fmt::format("nccl-doctor: note: communicator {}: Init COMPLETE on all {} ranks ({} host{}); links so far: {}\n",
                    // Named as in the report: "#k/n" when NCCL prints no commId.
                    scope.starts_with("#") ? fmt::format("{}/{}", scope, c.nranks) : scope, c.nranks, c.hosts.size(), c.hosts.size() == 1 ? "" : "s", printable(links)));
  c.completed.clear();
  c.hosts.clear();
}

void LiveMonitor::learn(const std::string& scope, uint32_t rank, std::string_view host) {
  auto& table = placements_[scope];
  auto [it, fresh] = table.try_emplace(rank, Placement{std::string(host), false});
  if (!fresh) {
    if (it->second.host != host) it->second.conflict = true;
    return;
  }
  auto w = waiting_.find({scope, rank});
  if (w == waiting_.end()) return;
  std::vector<Waiting> list = std::move(w->second);
  waiting_.erase(w);
  waiting_count_ -= list.size();
  Cited decider = current_.cited();
  for (const auto& item : list) decide_net(scope, item, it->second.host, &decider);
}

void LiveMonitor::on_connection(Process& p, const NcclHeader& h, const ConnectionEvent& e) {
  bool receiving = e.direction == Direction::Receive;
  uint32_t own = receiving ? e.receiver : e.sender;
  uint32_t peer = receiving ? e.sender : e.receiver;
  std::string scope = scope_of(p, h.dev, own, std::max(e.sender, e.receiver));
  learn(scope, own, h.host);
  uint16_t t = transport_id(e.transport);
  const Transport& tr = transports_[t];
  auto ch = static_cast<uint16_t>(e.channel);
  if (auto it = progress_.find(scope); it != progress_.end() || progress_.size() < 4096) {
    auto& links = (it != progress_.end() ? it->second : progress_[scope]).links;
    std::string label = tr.family == TransportFamily::NET ? "NET/" + tr.net_name + (tr.gdr ? "/GDRDMA" : "")
                                                          : std::string(family_name(tr.family));
    if (links.size() < 16) links.insert(label);
  }

  if (tr.family == TransportFamily::SHM) {
    if (const RuleInfo* rule = active("intra-node-shm")) {
      report(rule, fmt::format("{}|{}|{}", rule->id, scope, h.host),
             fmt::format("rank {} -> rank {} on {}, channel {:02}, via SHM", e.sender, e.receiver, h.host, ch),
             {current_.cited()});
    }
    return;
  }
  if (tr.family != TransportFamily::NET) return;

  // Both halves of one link must lack /GDRDMA before GPUDirect RDMA is absent.
  bool gdr_absent = false;
  if (e.direction == Direction::None) {
    gdr_absent = !tr.gdr;
  } else if (halves_.size() < kMaxEdges) {
    Halves& halves = halves_[EdgeKey{scope, ch, e.conn_index < 0 ? 0 : e.conn_index, e.sender, e.receiver}];
    (receiving ? halves.recv : halves.send) = true;
    halves.gdr |= tr.gdr;
    if (halves.send && halves.recv && !halves.gdr && !halves.reported) {
      halves.reported = true;
      gdr_absent = true;
    }
  }

  Waiting w{std::string(h.host), own, peer, !receiving, ch, t, gdr_absent, current_.cited()};
  const auto& table = placements_[scope];
  auto placed = table.find(peer);
  if (placed != table.end()) {
    decide_net(scope, w, placed->second.host, nullptr);
  } else if (waiting_count_ < kMaxWaiting) {
    // One waiting link per own host, transport and GDR state decides as much
    // as all of them; the rest would only hold memory.
    auto& list = waiting_[{scope, peer}];
    bool same = std::any_of(list.begin(), list.end(), [&](const Waiting& o) {
      return o.own_host == w.own_host && o.transport == w.transport && o.gdr_known_absent == w.gdr_known_absent &&
             o.own_is_sender == w.own_is_sender;
    });
    if (!same) {
      list.push_back(std::move(w));
      ++waiting_count_;
    }
  }
}

void LiveMonitor::decide_net(const std::string& scope, const Waiting& w, const std::string& peer_host,
                             const Cited* decider) {
  const auto& table = placements_[scope];
  for (uint32_t rank : {w.own_rank, w.peer_rank}) {
    auto it = table.find(rank);
    if (it == table.end() || it->second.conflict) return;
  }
  const Transport& tr = transports_[w.transport];
  std::string label = "NET/" + tr.net_name;
  uint32_t sender = w.own_is_sender ? w.own_rank : w.peer_rank;
  uint32_t receiver = w.own_is_sender ? w.peer_rank : w.own_rank;
  const std::string& sender_host = w.own_is_sender ? w.own_host : peer_host;
  const std::string& receiver_host = w.own_is_sender ? peer_host : w.own_host;
  std::vector<Cited> evidence{w.line};
  if (decider && decider->line != w.line.line) evidence.push_back(*decider);

  if (peer_host == w.own_host) {
    if (const RuleInfo* rule = active("intra-node-net")) {
      report(rule, fmt::format("{}|{}|{}|{}", rule->id, scope, w.own_host, label),
             fmt::format("rank {} -> rank {} on {}, channel {:02}, via {}", sender, receiver, w.own_host, w.channel,
                         label),
             std::move(evidence));
    }
    return;
  }
  const RuleInfo* rule = nullptr;
  if (is_socket_network(tr.net_name)) {
    rule = active("inter-node-socket");
  } else if (is_rdma_network(tr.net_name, options_)) {
    if (w.gdr_known_absent) rule = active("no-gpudirect-rdma");
  } else {
    rule = active("inter-node-unknown-net");
  }
  if (!rule) return;
  auto [lo, hi] = std::minmax(sender_host, receiver_host);
  report(rule, fmt::format("{}|{}|{}|{}|{}", rule->id, scope, lo, hi, label),
         fmt::format("rank {} on {} -> rank {} on {}, channel {:02}, via {}", sender, sender_host, receiver,
                     receiver_host, w.channel, label),
         std::move(evidence));
}

void LiveMonitor::report(const RuleInfo* rule, const std::string& dedupe_key, std::string message,
                         std::vector<Cited> evidence) {
  if (reported_keys_.count(dedupe_key)) return;
  const RuleInfo& info = *rule;
  size_t& count = per_rule_[std::string(info.id)];
  if (count > kMaxPerRule) return;
  reported_keys_.insert(dedupe_key);
  if (count++ == kMaxPerRule) {
    emit_(fmt::format("nccl-doctor: note: more {} {} findings; the report at end of input lists them\n", info.id,
                      info.slug));
    return;
  }
  Finding f = make_finding(info, std::move(message));
  for (auto& c : evidence) {
    if (f.evidence.size() >= std::max<size_t>(options_.max_evidence, 1)) break;
    f.evidence.push_back({std::move(c.file), c.line, std::move(c.text)});
  }
  ++reported_;
  emit_("nccl-doctor: " + render_finding(f, TextStyle{false}));
}

}  // namespace nd
