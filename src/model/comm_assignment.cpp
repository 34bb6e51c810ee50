// Which communicator each comm-scoped line belongs to, and its edges.

#include <algorithm>

#include <boost/sort/spinsort/spinsort.hpp>

#include <fmt/format.h>

#include "src/model/model_builder.h"

namespace nd {
namespace {

// Connection records of a communicator are merged into edges once this many
// pile up, or a quarter as many as it has edges: few records wait, and each
// edge is moved a bounded number of times.
constexpr size_t kMergeRecords = size_t{1} << 18;

// A communicator with this many connection records waiting gets room for
// all it will have (see store()).
constexpr size_t kRecordsBeforeReserve = size_t{1} << 12;

// The most tree entries reserved ahead (32 MB); more grow as they come.
constexpr size_t kMaxReservedTrees = size_t{1} << 20;

// The key of a text bucket: the first connection line per (host, transport,
// peer) is kept for citing.
uint64_t connection_bucket(uint32_t host, uint16_t transport, uint32_t peer) {
  return (uint64_t{host} << 40) ^ (uint64_t{transport} << 24) ^ peer ^ (1ull << 63);
}

}  // namespace

void ModelBuilder::on(const At& at, const ConnectionEvent& e) {
  ++model_.counters.connection_lines;
  ConnectionRecord r;
  r.sender = e.sender;
  r.receiver = e.receiver;
  r.channel = static_cast<uint16_t>(e.channel);
  r.conn_index = static_cast<int8_t>(e.conn_index);
  r.direction = e.direction;
  r.transport = intern_transport(e.transport);
  r.line = at.ref;
  uint32_t own = e.direction == Direction::Receive ? e.receiver : e.sender;
  Process& p = at.process;
  mark_init_phase(p, at.ref, at.raw);
  if (p.rec.own_rank < 0) p.rec.own_rank = own;
  uint32_t peer = e.direction == Direction::Receive ? e.sender : e.receiver;
  remember_text(connection_bucket(at.host, r.transport, peer), at.ref, at.raw);
  route(p, own, std::max(e.sender, e.receiver), r);
}

void ModelBuilder::on(const At& at, const RingListingEvent& e) {
  remember_text(0, at.ref, at.raw);
  ListingRecord r{static_cast<uint16_t>(e.channel), e.ranks, e.truncated, e.four_byte_slots, at.ref};
  mark_init_phase(at.process, at.ref, at.raw);
  uint32_t max_rank = e.ranks.empty() ? 0 : *std::max_element(e.ranks.begin(), e.ranks.end());
  route(at.process, 0, max_rank, std::move(r));
}

void ModelBuilder::on(const At& at, const GraphRingEvent& e) {
  remember_text(0, at.ref, at.raw);
  GraphRingRecord r{static_cast<uint16_t>(e.channel), e.prev, e.me, e.next, at.ref};
  Process& p = at.process;
  mark_init_phase(p, at.ref, at.raw);
  if (p.rec.own_rank < 0) p.rec.own_rank = e.me;
  auto max_rank = static_cast<uint32_t>(std::max({e.prev, e.me, e.next}));
  route(p, static_cast<uint32_t>(e.me), max_rank, r);
}

void ModelBuilder::on(const At& at, const TreesEvent& e) {
  remember_text(0, at.ref, at.raw);
  Process& p = at.process;
  mark_init_phase(p, at.ref, at.raw);
  if (p.rec.own_rank < 0 && !e.entries.empty()) p.rec.own_rank = e.entries.front().me;
  trees_per_line_ = std::max<size_t>(1, e.entries.size());
  for (const auto& entry : e.entries) {
    int64_t m = std::max({entry.up, entry.me, entry.down[0], entry.down[1], entry.down[2]});
    route(p, static_cast<uint32_t>(entry.me), static_cast<uint32_t>(m), TreeRecord{entry, at.ref});
  }
}

void ModelBuilder::on(const At& at, const CommShapeEvent& e) {
  for (auto it = at.process.slots.rbegin(); it != at.process.slots.rend(); ++it) {
    if (it->comm_ptr == e.comm_ptr) {
      auto& comm = model_.comms[it->comm];
      comm.nnodes = std::max(comm.nnodes, e.nnodes);
      return;
    }
  }
  model_.unclaimed_shape_nranks = std::max(model_.unclaimed_shape_nranks, e.nranks);
  model_.unclaimed_shape_nnodes = std::max(model_.unclaimed_shape_nnodes, e.nnodes);
}

// The communicator a new Init line of `p` opens.
std::string ModelBuilder::comm_key(Process& p, const NcclHeader& h, const InitEvent& ev) {
  if (ev.comm_id) return fmt::format("0x{:x}", *ev.comm_id);
  // No commId before 2.16: the k-th communicator of every process is taken
  // to be the same one, as every rank creates its communicators in the same
  // order. Lines without a pid, or without a host (placeholders: containers
  // repeat pids across nodes), can share a process across hosts: there each
  // rank counts its own communicators.
  bool shared = is_synthetic_pid(p.rec.pid) || p.rec.host == kNoHost;
  int counter = shared ? -2 - static_cast<int>(ev.rank) : h.dev;
  uint32_t seq = p.completes_per_dev[counter]++;
  return fmt::format("#{}/{}", seq, ev.nranks);
}

void ModelBuilder::on(const At& at, const InitEvent& ev) {
  remember_text(0, at.ref, at.raw);
  ++model_.counters.init_lines;
  Process& p = at.process;
  std::string ptr(ev.comm_ptr);
  bool start = ev.phase == InitPhase::Start;
  CommSlot* slot = nullptr;
  for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
    if (it->comm_ptr == ptr && it->my_rank == ev.rank && (it->open || start)) {
      slot = &*it;
      break;
    }
  }
  // A repeated START for an open pointer is the same communicator.
  if (!slot || (start && !slot->open)) {
    size_t comm = find_or_add_comm(comm_key(p, at.header, ev), ev.comm_id, ev.nranks);
    p.slots.push_back({comm, ev.rank, ev.nranks, ptr, start});
    slot = &p.slots.back();
  }
  p.saw_start |= start;
  ++(start ? p.rec.init_starts : p.rec.init_completes);
  auto& comm = model_.comms[slot->comm];
  RankInfo& info = comm.rank(ev.rank);
  info.host = p.rec.host;
  info.pid = p.rec.pid;
  info.cuda_dev = ev.cuda_dev;
  if (ev.nvml_dev >= 0) info.nvml_dev = ev.nvml_dev;
  if (ev.bus_id) info.bus_id = ev.bus_id;
  settle_init_failures(p, at.header.dev, start);
  if (!start && p.failed_call < model_.failed_calls.size()) {
    FailedCallRecord& failed = model_.failed_calls[p.failed_call];
    failed.recovered = failed.recovered || (failed.in_init && failed.dev == at.header.dev);
  }
  if (start) {
    info.init_started = true;
    info.init_line = at.ref;
  } else {
    info.init_completed = true;
    info.complete_line = at.ref;
    if (!info.init_started) info.init_line = at.ref;
    slot->open = false;
    flush_pending(p, *slot);
  }
  if (comm.first_line.line == 0) comm.first_line = at.ref;
}

// A traceback during init is a failed call unless that init then completes.
// Another device's init in the same process says nothing of it.
void ModelBuilder::settle_init_failures(Process& p, int dev, bool start) {
  std::erase_if(p.failed_in_init, [&](size_t i) {
    if (i >= model_.warnings.size() || model_.warnings[i].dev != dev) return false;
    if (!start) model_.warnings[i].returned_to_caller = false;
    return true;
  });
  std::erase(p.devs_in_init, dev);
  if (start && p.devs_in_init.size() < 64) p.devs_in_init.push_back(dev);
}

size_t ModelBuilder::find_or_add_comm(const std::string& key, std::optional<uint64_t> id, uint32_t nranks) {
  if (auto it = comm_index_.find(key); it != comm_index_.end()) {
    auto& comm = model_.comms[it->second];
    comm.nranks = std::max(comm.nranks, nranks);
    return it->second;
  }
  Communicator comm;
  comm.key = key;
  comm.comm_id = id;
  comm.nranks = nranks;
  model_.comms.push_back(std::move(comm));
  comm_index_.emplace(key, model_.comms.size() - 1);
  return model_.comms.size() - 1;
}

uint16_t ModelBuilder::intern_transport(std::string_view text) {
  if (auto id = model_.transport_texts.find(text)) return static_cast<uint16_t>(*id);
  if (model_.transport_texts.size() >= kNoTransport - 1) return kNoTransport;
  auto id = static_cast<uint16_t>(model_.transport_texts.intern(text));
  model_.transports.push_back(parse_transport(text));
  return id;
}

void ModelBuilder::route(Process& p, uint32_t own_rank, uint32_t max_rank, Scoped item) {
  const CommSlot* chosen = nullptr;
  size_t matches = 0;
  for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
    if (it->open && it->my_rank == own_rank && max_rank < it->nranks) {
      chosen = &*it;
      break;
    }
  }
  if (!chosen && p.saw_start) {
    // 2.22+ connects at the first collective, after Init COMPLETE.
    for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
      if (it->my_rank == own_rank && max_rank < it->nranks) {
        if (!chosen) chosen = &*it;
        if (it->comm != chosen->comm) ++matches;
      }
    }
    if (matches > 0) ++model_.counters.ambiguous_assignments;
  }
  if (chosen) {
    store(chosen->comm, p, own_rank, std::move(item));
  } else {
    p.pending.push_back({own_rank, max_rank, std::move(item)});
  }
}

void ModelBuilder::store(size_t comm_index, Process& p, uint32_t own_rank, Scoped&& item) {
  auto& comm = model_.comms[comm_index];
  RankInfo& info = comm.rank(own_rank);
  // Unknown, or known only by its host (inferred from a P2P link to it).
  if (info.host == kNoHost || (info.pid == 0 && info.host == p.rec.host)) {
    info.host = p.rec.host;
    info.pid = p.rec.pid;
  }
  std::visit(
      [&](auto&& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ConnectionRecord>) {
          if (comm.synthetic) comm.rank(std::max(v.sender, v.receiver));
          if (comm.records.size() == kRecordsBeforeReserve) {
            // A large job: room for each rank's send and receive line on every
            // channel (as many as a Trees line has entries) at once, as growing
            // by doubling copied them several times, into memory never touched
            // before. An excerpt of a large job stops short of this.
            comm.records.reserve(std::min(kMergeRecords, size_t{std::max(comm.nranks, 1u)} * 2 * trees_per_line_));
          }
          comm.records.push_back(v);
          // Bounded by distinct edges, not by lines, even when a log repeats itself.
          if (comm.records.size() >= std::max(kMergeRecords, comm.edges.size() / 4)) merge_records(comm);
        } else if constexpr (std::is_same_v<T, ListingRecord>) {
          comm.listings.push_back(std::move(v));
        } else if constexpr (std::is_same_v<T, GraphRingRecord>) {
          comm.graph_rings.push_back(v);
        } else {
          // Growing by doubling copied the trees of a large job several
          // times over, each time into memory never touched before.
          // Capped: an nranks from a corrupt line must not reserve gigabytes.
          if (comm.trees.capacity() == 0) {
            comm.trees.reserve(std::min(kMaxReservedTrees, size_t{std::max(comm.nranks, 1u)} * trees_per_line_));
          }
          comm.trees.push_back(v);
        }
      },
      std::move(item));
}

void ModelBuilder::flush_pending(Process& p, const CommSlot& slot) {
  if (p.pending.empty()) return;
  std::vector<Pending> keep;
  for (auto& item : p.pending) {
    if (item.own_rank == slot.my_rank && item.max_rank < slot.nranks) {
      store(slot.comm, p, item.own_rank, std::move(item.item));
    } else {
      keep.push_back(std::move(item));
    }
  }
  p.pending = std::move(keep);
}

// Lines still waiting for their communicator at the end go to the last one
// of their rank that fits. A process with no Init line at all (an excerpt
// often lacks most of them) joins the job's only communicator when its lines
// fit it and no other process holds its rank there.
void ModelBuilder::assign_pending() {
  const std::optional<size_t> sole = model_.comms.size() == 1 ? std::optional<size_t>(0) : std::nullopt;
  auto joins_sole = [&](const Process& p, const Pending& item) {
    if (!sole || !p.slots.empty()) return false;
    const Communicator& comm = model_.comms[*sole];
    if (item.max_rank >= comm.nranks) return false;
    if (item.own_rank >= comm.ranks.size()) return true;
    const RankInfo& held = comm.ranks[item.own_rank];
    // A rank known only by its host (inferred from a P2P link to it) is open to a process there.
    if (held.pid == 0) return held.host == kNoHost || held.host == p.rec.host;
    return held.host == p.rec.host && held.pid == p.rec.pid;
  };
  for (auto& [key, p] : processes_) {
    for (auto& item : p.pending) {
      const CommSlot* chosen = nullptr;
      for (auto it = p.slots.rbegin(); it != p.slots.rend(); ++it) {
        if (it->my_rank == item.own_rank && item.max_rank < it->nranks) {
          chosen = &*it;
          break;
        }
      }
      size_t comm;
      if (chosen) {
        comm = chosen->comm;
      } else if (joins_sole(p, item)) {
        comm = *sole;
      } else {
        // Lines that no Init line claims: the job never finished init, or the
        // log lacks the Init lines. Keep them in one stand-in communicator.
        comm = find_or_add_comm("unclaimed", std::nullopt, 0);
        model_.comms[comm].synthetic = true;
      }
      store(comm, p, item.own_rank, std::move(item.item));
    }
    p.pending.clear();
  }
}

void ModelBuilder::settle() {
  // By host for nets_of(); a host's networks stay in the order the log gave them.
  std::stable_sort(model_.host_nets.begin(), model_.host_nets.end(),
                   [](const HostNets& a, const HostNets& b) { return a.host < b.host; });
  model_.processes.clear();
  for (const auto& [key, p] : processes_) {
    ProcessRecord& rec = model_.processes.emplace_back(p.rec);
    rec.init_phase |= rec.init_starts > 0;
  }
  settle_failed_calls();
  for (auto& comm : model_.comms) {
    if (comm.nranks && comm.ranks.size() < comm.nranks) comm.ranks.resize(comm.nranks);
    merge_records(comm);
    infer_hosts_from_local_links(comm);
    group_unnamed_hosts(comm);
  }
}

// CollNet setup that fails on one local rank fails on all of them; local
// rank 0 alone prints `Cannot initialize CollNet, using point-to-point network
// instead`, the others only the traceback (`transport.cc:291 -> 2`,
// `init.cc:670 -> 2`). NCCL goes on without CollNet: a traceback of that
// host that stayed in init (no group.cc frame) did not fail the call.
void ModelBuilder::settle_failed_calls() {
  std::set<uint32_t> fell_back;
  for (const auto& w : model_.warnings) {
    if (w.cls.collnet_fallback) fell_back.insert(w.host);
  }
  if (fell_back.empty()) return;
  for (auto& f : model_.failed_calls) {
    if (!f.reached_group && fell_back.count(f.host)) f.recovered = true;
  }
}

bool ModelBuilder::add_stall(double seconds, LineRef after) {
  StallRecord stall{seconds, after, {}};
  for (const auto& comm : model_.comms) {
    for (const auto& r : comm.ranks) {
      if (r.init_started && !r.init_completed) stall.starts.push_back(r.init_line);
    }
  }
  if (stall.starts.empty()) return false;
  model_.stalls.push_back(std::move(stall));
  return true;
}

void ModelBuilder::finish() {
  assign_pending();
  settle();
  for (auto& comm : model_.comms) comm.records.shrink_to_fit();
  gpu_side_.finish(model_.gpu_side);
  probe_records_.finish();
}

void ModelBuilder::merge_records(Communicator& comm) {
  auto& recs = comm.records;
  if (recs.empty()) return;
  auto norm = [](int8_t c) { return c < 0 ? 0 : c; };
  auto key = [&](const auto& x) { return std::tuple(x.channel, norm(x.conn_index), x.sender, x.receiver); };
  // Stable: within one edge the first [send] and the first [receive] line win.
  boost::sort::spinsort(recs.begin(), recs.end(),
                        [&](const ConnectionRecord& a, const ConnectionRecord& b) { return key(a) < key(b); });
  // Edges merged earlier came from earlier lines, so they keep precedence:
  // a record only fills what its edge lacks. Known edges are updated where
  // they lie and new ones merged in from the back, so that no second copy of
  // the edges is ever made.
  std::vector<Edge>& edges = comm.edges;
  const size_t old_size = edges.size();
  std::vector<Edge> added;
  if (old_size == 0) added.reserve(recs.size());  // becomes the edges: grown once, not by doubling
  Edge* e = nullptr;
  for (const auto& r : recs) {
    if (!e || key(*e) != key(r)) {
      auto at = std::lower_bound(edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(old_size), r,
                                 [&](const Edge& x, const ConnectionRecord& y) { return key(x) < key(y); });
      if (at != edges.begin() + static_cast<std::ptrdiff_t>(old_size) && key(*at) == key(r)) {
        e = &*at;
      } else {
        e = &added.emplace_back();
        e->sender = r.sender;
        e->receiver = r.receiver;
        e->channel = r.channel;
        e->conn_index = r.conn_index;
      }
    }
    if (r.direction == Direction::None) e->one_line = true;
    if (r.direction == Direction::Receive) {
      if (e->recv_transport == kNoTransport) {
        e->recv_transport = r.transport;
        e->recv_line = r.line;
      }
    } else if (e->send_transport == kNoTransport) {
      e->send_transport = r.transport;
      e->send_line = r.line;
    }
    if (e->conn_index < 0) e->conn_index = r.conn_index;
  }
  recs.clear();
  if (added.empty()) return;
  if (old_size == 0) {
    edges = std::move(added);
    return;
  }
  if (edges.capacity() < old_size + added.size()) edges.reserve(2 * (old_size + added.size()));
  edges.resize(old_size + added.size());
  size_t i = old_size;
  size_t j = added.size();
  for (size_t k = edges.size(); j > 0;) {
    if (i > 0 && key(added[j - 1]) < key(edges[i - 1])) {
      edges[--k] = edges[--i];
    } else {
      edges[--k] = added[--j];
    }
  }
}

}  // namespace nd
