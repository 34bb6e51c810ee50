// Which host a line comes from: its own name, a launcher's, a name the
// terminal cut, and the hosts that P2P and SHM links imply.

#include <algorithm>

#include <fmt/format.h>

#include "src/model/model_builder.h"

namespace nd {

ModelBuilder::Who ModelBuilder::identify(LineRef ref, const ParsedLines::Item& item, bool message) {
  const NcclHeader& h = item.header;
  if (h.host_form == HostForm::Named) {
    bool added = false;
    uint32_t host = resolve_host(h.host, item.spliced, &added);
    if (added && item.spliced) {
      spliced_hosts_.push_back(host);
    } else if (!item.spliced && message && !spliced_hosts_.empty()) {
      std::erase(spliced_hosts_, host);  // seen whole: a host of its own
    }
    if (added && ref.line == 1 && !item.spliced) {
      first_line_hosts_.push_back({host, ref.file});
    } else if (message && !first_line_hosts_.empty()) {
      // Seen again: a host of its own. Only NCCL messages count, which every
      // way of reading the input sees alike (per-operation lines may be
      // skipped once their host is known).
      std::erase_if(first_line_hosts_, [&](const FirstLineHost& f) {
        return f.host == host && (ref.line != 1 || ref.file != f.file);
      });
    }
    if (!split_hosts_.empty()) {
      if (auto it = split_hosts_.find({host, h.pid}); it != split_hosts_.end()) host = it->second;
    }
    return {host, h.pid};
  }
  // A stand-in host or none: a pdsh/clush prefix may still name the host.
  Who who;
  if (!item.launcher_host.empty()) who.host = resolve_host(item.launcher_host, false);
  if (h.host_form == HostForm::Placeholder) {
    who.pid = h.pid;
  } else if (item.launcher_rank) {
    who.pid = synthetic_pid({SyntheticSource::LauncherRank, static_cast<uint8_t>(item.rank_from), ref.file,
                             *item.launcher_rank});
  } else {
    who.pid = synthetic_pid({SyntheticSource::Device, 0, ref.file, h.dev});
  }
  return who;
}

// A process names its host and the interface and address it bootstraps on
// or lists first for NET/Socket. An interface has one address on a host, so
// another address of it under a name already seen is another host of that
// name (default names such as `ubuntu`, anonymised logs): its process
// record moves to a host named `name@address` (what the lines before it
// recorded per host, such as echoed settings, stays with the name).
// Not split: a host already split off (its name is the address's), and a
// pid that printed another address before (one name and one pid on two
// hosts, as containers give: no line tells their processes apart).
uint32_t ModelBuilder::host_by_address(const At& at, std::string_view interface, std::string_view address) {
  if (interface.empty() || split_ids_.count(at.host)) return at.host;
  auto [it, first] = host_address_.try_emplace({at.host, std::string(interface)}, address);
  bool addressed_before = !addressed_.insert({at.host, at.pid}).second;
  if (first || it->second == address || addressed_before) return at.host;
  uint32_t other = model_.hosts.intern(fmt::format("{}@{}", model_.hosts.name(at.host), address));
  if (processes_.count({other, at.pid})) return at.host;
  split_ids_.insert(other);
  host_address_.try_emplace({other, std::string(interface)}, address);
  split_hosts_[{at.host, at.pid}] = other;
  auto node = processes_.extract({at.host, at.pid});
  if (!node.empty()) {
    node.key() = {other, at.pid};
    node.mapped().rec.host = other;
    processes_.insert(std::move(node));
  }
  process_index_.erase(ProcessKey{at.host, at.pid});
  process_index_.emplace(ProcessKey{other, at.pid}, &at.process);
  if (at.host < host_processes_.size()) {
    std::erase_if(host_processes_[at.host], [&](const auto& p) { return p.first == at.pid; });
  }
  last_process_ = nullptr;
  host_snapshot_.reset();
  return other;
}

uint32_t ModelBuilder::resolve_host(std::string_view host, bool spliced, bool* added) {
  // Lines come in runs from one host. A name names one id, so the check
  // stays true across renames.
  if (last_host_ != kNoHost && model_.hosts.name(last_host_) == host) return last_host_;
  if (auto id = model_.hosts.find(host)) return last_host_ = *id;
  if (spliced) {
    // `Channel 00node02:...`: the fragment's tail glued to the host name;
    // `...->7->6 72a-d104:4181:...`: another line cut the host's head off.
    const std::string* best = nullptr;
    const std::string* whole = nullptr;
    size_t wholes = 0;
    for (const auto& known : model_.hosts.names()) {
      if (host.ends_with(known) && (!best || known.size() > best->size())) best = &known;
      if (host.size() >= kMinCutHost && known.size() > host.size() && std::string_view(known).ends_with(host)) {
        whole = &known;
        ++wholes;
      }
    }
    if (best) return *model_.hosts.find(*best);
    if (wholes == 1) return *model_.hosts.find(*whole);
  }
  if (!renamed_hosts_.empty()) {
    if (auto it = renamed_hosts_.find(std::string(host)); it != renamed_hosts_.end()) return it->second;
  }
  if (!spliced) {
    if (uint32_t id = renamed_first_line_host(host); id != kNoHost) return id;
    if (uint32_t id = renamed_spliced_host(host); id != kNoHost) return id;
    if (uint32_t id = glued_known_host(host); id != kNoHost) return id;
  }
  if (added) *added = true;
  return model_.hosts.intern(host);
}

// A copy from a terminal may lose the first characters of its first line:
// `pgds-aihub0007:` there, `tpgds-aihub0007:` after. A host seen on no line
// but the first of a file, that a new name ends with, was that name: it is
// renamed, and its id returned. kNoHost when there is none.
uint32_t ModelBuilder::renamed_first_line_host(std::string_view host) {
  for (auto it = first_line_hosts_.begin(); it != first_line_hosts_.end(); ++it) {
    const std::string& cut = model_.hosts.name(it->host);
    if (host.size() > cut.size() && host.size() <= cut.size() + 3 && cut.size() >= 2 && host.ends_with(cut)) {
      uint32_t id = it->host;
      renamed_hosts_.emplace(cut, id);
      model_.hosts.rename(id, host);
      first_line_hosts_.erase(it);
      host_snapshot_.reset();  // names the old name, not the new
      return id;
    }
  }
  return kNoHost;
}

// A host seen only behind another line's text, that a new name ends with,
// was that name with its head cut off: renamed, and its id returned.
// kNoHost when there is none, or more than one would fit.
uint32_t ModelBuilder::renamed_spliced_host(std::string_view host) {
  auto fits = [&](uint32_t id) {
    const std::string& cut = model_.hosts.name(id);
    return cut.size() >= kMinCutHost && host.size() > cut.size() && host.ends_with(cut);
  };
  auto it = std::find_if(spliced_hosts_.begin(), spliced_hosts_.end(), fits);
  if (it == spliced_hosts_.end() || std::find_if(std::next(it), spliced_hosts_.end(), fits) != spliced_hosts_.end()) {
    return kNoHost;
  }
  uint32_t id = *it;
  renamed_hosts_.emplace(model_.hosts.name(id), id);
  model_.hosts.rename(id, host);
  spliced_hosts_.erase(it);
  host_snapshot_.reset();
  return id;
}

// A known host behind a few characters that another line left before it:
// `nodnode-a:235:235` (the tail of a cut `nod`), `-1node-a:100:120` (an
// nccl-tests row's last cell). The host must be long enough to be told from
// a name that merely ends like it; the glued head, short. Its id, and the
// glued name maps to it from then on; kNoHost when none fits.
uint32_t ModelBuilder::glued_known_host(std::string_view host) {
  constexpr size_t kMaxGlued = 5;
  uint32_t found = kNoHost;
  for (const auto& known : model_.hosts.names()) {
    if (known.size() < kMinCutHost || host.size() <= known.size() || host.size() - known.size() > kMaxGlued ||
        !host.ends_with(known)) {
      continue;
    }
    if (found != kNoHost) return kNoHost;  // two would fit
    found = *model_.hosts.find(known);
  }
  if (found != kNoHost) renamed_hosts_.emplace(std::string(host), found);
  return found;
}

bool ModelBuilder::is_local_link(const Edge& e) const {
  uint16_t t = e.transport();
  if (t == kNoTransport) return false;
  const Transport& tr = model_.transports[t];
  return tr.family == TransportFamily::SHM || (tr.family == TransportFamily::P2P && tr.mechanism != "MNNVL");
}

// Ranks whose host is unknown and that P2P or SHM join sit on one host all
// the same: one group per such host, so that their links count as
// intra-node. NET links prove nothing (NCCL may use NET inside a node).
void ModelBuilder::group_unnamed_hosts(Communicator& comm) {
  std::vector<uint32_t> parent;  // union-find over ranks; empty until needed
  std::vector<bool> joined;
  auto find = [&](uint32_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  for (const auto& e : comm.edges) {
    if (!is_local_link(e) || comm.host_of(e.sender) != kNoHost || comm.host_of(e.receiver) != kNoHost) continue;
    if (parent.empty()) {
      comm.rank(0);
      parent.resize(comm.ranks.size());
      joined.resize(comm.ranks.size());
      for (uint32_t r = 0; r < parent.size(); ++r) parent[r] = r;
    }
    if (e.sender >= parent.size() || e.receiver >= parent.size()) continue;
    joined[e.sender] = joined[e.receiver] = true;
    uint32_t a = find(e.sender), b = find(e.receiver);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  for (uint32_t r = 0; r < parent.size(); ++r) {
    if (joined[r]) comm.ranks[r].host_group = find(r);
  }
}

// P2P (other than multi-node NVLink) and SHM only connect GPUs of one host, so
// a rank whose own lines are missing sits on its P2P/SHM peer's host.
void ModelBuilder::infer_hosts_from_local_links(Communicator& comm) {
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (const auto& e : comm.edges) {
      if (!is_local_link(e)) continue;
      comm.rank(std::max(e.sender, e.receiver));  // grow once, before taking references
      RankInfo& s = comm.rank(e.sender);
      RankInfo& r = comm.rank(e.receiver);
      if (s.host == kNoHost && r.host != kNoHost) {
        s.host = r.host;
        changed = true;
      } else if (r.host == kNoHost && s.host != kNoHost) {
        r.host = s.host;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

}  // namespace nd
