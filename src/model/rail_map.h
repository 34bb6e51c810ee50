#pragma once
// Which NIC each GPU's inter-node traffic uses: the `NET/<name>/<dev>` of
// every inter-node connection line, on the side that printed it, mapped to
// the device names of the host's `NET/<name> : Using` line.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/model/job_model.h"

namespace nd {

// One GPU's use of one NIC.
struct RailUse {
  int gpu = -1;                  // nvmlDev when printed, else cudaDev; -1 unknown
  std::optional<uint64_t> bus_id;
  std::string net;               // "IB", "IBext_v8", "Socket"
  int dev = -1;                  // netDev, the `[d]` of `NET/<name> : Using`
  std::string nic;               // HCA or interface name; empty when not listed
  uint64_t connections = 0;
  bool pxn = false;              // some lines went through a PXN proxy rank
  std::vector<LineRef> lines;    // a few connection lines, for evidence
};

struct HostRails {
  uint32_t host = kNoHost;
  std::vector<RailUse> uses;          // sorted by gpu, net, dev
  const HostNets* listed = nullptr;   // the devices NCCL listed for the data net
  // The log shows this host's connections whole: every rank of it printed a
  // connection line on every channel its communicator set up, and every
  // rank of those communicators is placed on a host. Only then can a NIC be
  // seen idle: a paste is usually an excerpt.
  bool whole = false;
  std::vector<int> idle_devs;         // listed devices no GPU uses (RDMA nets only); empty unless whole
};

// One entry per host with inter-node NET traffic, sorted by host name.
// `unplaced_peers`: a NET link whose peer's host the log does not show
// counts as inter-node too (what a summary of one host's output shows), as
// long as the log shows no NET inside a host.
std::vector<HostRails> build_rail_map(const JobModel& model, bool unplaced_peers = false);

// The host's device list for a transport's net name: `IBext*` plugins list
// their devices under `NET/IB : Using`.
const HostNets* listed_nets(const JobModel& model, uint32_t host, const std::string& net_name);

// "mlx5_0" for dev 0 when listed, else "NET/IB/0".
std::string nic_name(const JobModel& model, uint32_t host, const std::string& net_name, int dev);

}  // namespace nd
