#pragma once
// Live pipe mode (`check --tee -`): watches the events of the lines as they
// are read and reports, once each, the findings that the log already
// establishes, long before end of input. The report at end of input stays the
// authority; live findings are its early, deduplicated preview.
//
// What "established" means per rule (a rule not listed here is reported at
// end of input only):
//   ND3001 inter-node-socket    a NET/Socket connection line whose two ranks'
//                               hosts are known and differ. A rank's host is
//                               known from its own Init or connection lines.
//   ND3002 intra-node-shm       an SHM connection line: SHM only links GPUs of
//                               one host, so the line alone decides.
//   ND3003 intra-node-net       a NET connection line whose two ranks' hosts
//                               are known and equal.
//   ND3004 no-gpudirect-rdma    an RDMA NET link between known, different
//                               hosts, once both halves of the link ([send]
//                               and [receive], or the one line of NCCL < 2.12)
//                               lack /GDRDMA.
//   ND3005 inter-node-unknown-net  as ND3001, for a network that is neither
//                               Socket nor a known RDMA network.
//   nccl-warning (by slug, when registered)  a WARN line, at once.
// ND1xxx count lines over the whole input and are decided at its end.
// Lines whose NCCL header was spliced into other text are left to the final
// report: their host name may be damaged.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "checks/registry.h"
#include "parsers/line_classifier.h"
#include "parsers/transport.h"

namespace nd {

class LiveMonitor {
 public:
  // `emit` receives each finding's text, ready to print.
  LiveMonitor(const Registry& registry, const RuleSelection& selection, const CheckOptions& options,
              std::function<void(std::string_view)> emit);

  // The ModelBuilder observer; `raw` is the line, cited as evidence from
  // `file` (the input's display name).
  void on_event(std::string_view file, LineRef ref, std::string_view raw, const NcclHeader& h, const Event& ev);

  size_t reported() const { return reported_; }

  // Besides findings, one note per communicator once all its ranks printed
  // Init COMPLETE, with the links seen so far: the live "all clear so far".

  // Live findings per rule before the rest wait for the final report.
  static constexpr size_t kMaxPerRule = 8;

 private:
  struct Slot {
    std::string scope;
    uint32_t rank = 0;
    uint32_t nranks = 0;
    std::string comm_ptr;
    bool open = false;
  };
  struct Process {
    std::vector<Slot> slots;
    std::map<int, uint32_t> completes_per_dev;
    bool saw_start = false;
  };
  struct Placement {
    std::string host;
    bool conflict = false;  // two hosts claimed one rank: decide nothing live
  };
  struct Cited {
    std::string file;
    uint64_t line = 0;
    std::string text;
  };
  // The line being judged; copied into a Cited only when it is kept.
  struct Current {
    std::string_view file;
    uint64_t line = 0;
    std::string_view text;
    Cited cited() const { return {std::string(file), line, std::string(text.substr(0, 4096))}; }
  };
  // A NET connection waiting for its peer's host.
  struct Waiting {
    std::string own_host;
    uint32_t own_rank = 0;
    uint32_t peer_rank = 0;
    bool own_is_sender = true;
    uint16_t channel = 0;
    uint16_t transport = 0;
    bool gdr_known_absent = false;
    Cited line;
  };
  struct Halves {
    bool send = false, recv = false, gdr = false, reported = false;
  };
  using EdgeKey = std::tuple<std::string, uint16_t, int, uint32_t, uint32_t>;  // scope, ch, conn, s, r

  const RuleInfo* active(std::string_view slug) const;
  std::string scope_of(Process& p, int dev, uint32_t own_rank, uint32_t max_rank) const;
  void learn(const std::string& scope, uint32_t rank, std::string_view host);
  void completed(const std::string& scope, uint32_t rank, uint32_t nranks, std::string_view host);
  void on_connection(Process& p, const NcclHeader& h, const ConnectionEvent& e);
  void decide_net(const std::string& scope, const Waiting& w, const std::string& peer_host, const Cited* decider);
  void report(const RuleInfo* rule, const std::string& dedupe_key, std::string message, std::vector<Cited> evidence);
  uint16_t transport_id(std::string_view text);

  const Registry& registry_;
  const RuleSelection& selection_;
  const CheckOptions& options_;
  std::function<void(std::string_view)> emit_;
  Current current_;
  std::map<std::tuple<std::string, uint64_t>, Process> processes_;
  std::map<std::string, std::unordered_map<uint32_t, Placement>> placements_;
  std::map<std::tuple<std::string, uint32_t>, std::vector<Waiting>> waiting_;
  size_t waiting_count_ = 0;
  std::map<EdgeKey, Halves> halves_;
  std::unordered_map<std::string, uint16_t> transport_ids_;
  std::vector<Transport> transports_;
  std::set<std::string> reported_keys_;
  struct CommProgress {
    uint32_t nranks = 0;
    std::set<uint32_t> completed;
    std::set<std::string> hosts;
    std::set<std::string> links;  // "P2P", "SHM", "NET/IB/GDRDMA", ...
    bool announced = false;
  };
  std::map<std::string, CommProgress> progress_;
  std::map<std::string, size_t> per_rule_;
  size_t reported_ = 0;

  static constexpr size_t kMaxWaiting = 1 << 14;
  static constexpr size_t kMaxEdges = 1 << 20;
};

}  // namespace nd
