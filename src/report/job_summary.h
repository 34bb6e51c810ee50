#pragma once
// The job as every view tells it, computed once from the model: hosts,
// processes, ranks, GPUs, versions, networks and NICs, communicators,
// transports, rails and coverage. `check` (text, JSON, JUnit) and `summary`
// (text, JSON) print from it and never from the model, so they agree.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/model/job_model.h"
#include "src/model/rail_map.h"
#include "src/report/gpu_summary.h"

namespace nd {

// One value that processes printed (an NCCL or CUDA version, a network name)
// and who printed it.
struct Printed {
  std::string name;
  size_t processes = 0;  // processes whose lines name them (host:pid)
  // Also printed on lines that name no process: before 2.22 NCCL writes its
  // banner with a bare printf, without host:pid, so it counts no process.
  bool unnamed = false;
};

struct DriverVersion {
  uint32_t code = 0;  // cudaDriverVersion, 12040
  Printed printed;    // name "12.4"
};

struct GpuSummary {
  uint64_t pid = 0;
  bool pid_known = true;  // false: its lines carry no pid (a made-up one)
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::optional<uint64_t> bus_id;
  std::vector<std::pair<size_t, uint32_t>> ranks;  // (communicator index, rank)
};

// One `NET/<name> : Using` device list of a host.
struct HostNics {
  uint32_t host = kNoHost;
  std::string host_name;
  std::string net;
  std::vector<NetDevice> devices;
};

// A host that holds a rank.
struct HostSummary {
  uint32_t host = kNoHost;
  std::string name;
  size_t processes = 0;
  std::vector<GpuSummary> gpus;         // by nvmlDev, cudaDev, pid
  std::vector<uint32_t> primary_ranks;  // its ranks of the primary communicator, sorted
  std::vector<size_t> nics;             // indices into JobSummary::nics
};

// The connections of one channel from one host to another, by link label
// (link_label(): "P2P", "SHM", "NET/IB+GDR", "NET/Socket"); `from` equals
// `to` inside a host. What `diff` compares channel by channel.
struct ChannelLink {
  uint16_t channel = 0;
  uint32_t from = kNoHost;
  uint32_t to = kNoHost;
  std::string from_name;
  std::string to_name;
  std::string label;
  uint64_t connections = 0;
};

struct CommSummary {
  std::string key;
  uint32_t nranks = 0;
  uint32_t nnodes = 0;  // NCCL's nNodes, 0 when not printed
  size_t hosts = 0;     // distinct hosts of its ranks
  // Channels NCCL set up: every channel its GRAPH ring lines, ring listing,
  // tree lines or connection lines name. With runtime connection (2.22+)
  // only some of them get connection lines.
  size_t channels = 0;
  size_t connected_channels = 0;  // channels with a connection line
  size_t ring_channels = 0;       // channels with a ring (as `graph` draws them)
  size_t tree_channels = 0;
  size_t edges = 0;  // merged connection edges
  bool synthetic = false;
  // Connections between placed ranks, by channel, host pair and label;
  // sorted by channel, from_name, to_name, label.
  std::vector<ChannelLink> links;
};

// One NCCL_* setting NCCL echoed (`NCCL_X set by environment to V`), with
// the hosts that echoed that value, by name.
struct SettingSummary {
  std::string name;
  std::string value;
  std::vector<std::string> hosts;  // "host unknown" for lines that name none
};

// The transports of the connection lines from one host to another.
struct TransportCell {
  uint32_t from = kNoHost;
  uint32_t to = kNoHost;
  std::string from_name;
  std::string to_name;
  std::vector<std::pair<std::string, uint64_t>> transports;  // link label -> connections, by label
};

struct RailSummary {
  uint32_t host = kNoHost;
  std::string name;
  std::vector<RailUse> uses;  // sorted by gpu, net, dev
  // Every rank of the host printed a connection line on every channel of
  // each of its communicators: only then can a log show a NIC idle.
  bool whole = false;
  // The host's listed RDMA NICs no inter-node connection line of it uses;
  // empty unless `whole` (an excerpt proves no NIC idle).
  std::vector<std::string> idle_nics;
};

// How much of the job the connection lines show, against what the log
// announces (nranks, nNodes): a PASS covers only what was seen.
struct Coverage {
  size_t hosts_seen = 0;       // hosts of ranks with a connection line
  size_t hosts_announced = 0;  // from nNodes, else the hosts seen anywhere
  size_t ranks_seen = 0;       // ranks with a connection line, in the primary communicator
  size_t ranks_announced = 0;  // its nranks
  std::vector<uint32_t> channels;  // channels with a connection line
  bool bindings = false;       // a launcher reported CPU bindings
};

struct JobSummary {
  size_t hosts = 0;        // NCCL's nNodes where printed, else the hosts the log names
  size_t named_hosts = 0;  // hosts the log names
  // NCCL processes whose lines name no host (`host:pid:tid` missing or a
  // stand-in such as `<hostname>`): their host is unknown.
  size_t host_unknown_processes = 0;
  size_t processes = 0;  // NCCL processes the log names
  size_t ranks = 0;      // size of the largest communicator
  // Whether the input states that size (Init lines' nranks, a 2.20+ shape
  // line, a ring listing); else it is the highest rank named plus one, which
  // an excerpt may fall short of.
  bool ranks_stated = false;
  size_t communicators = 0;
  std::optional<size_t> primary;  // index of the primary communicator, see primary_comm()

  std::vector<Printed> nccl_versions;  // oldest first
  std::vector<Printed> cuda_versions;  // NCCL's build CUDA
  std::vector<DriverVersion> driver_versions;
  std::vector<Printed> networks;  // `Using network`

  std::vector<std::string> intra;  // P2P, SHM, NET, NVLS
  std::vector<std::string> inter;  // IB, Socket, IBext_v8, AWS Libfabric: names on inter-node links
  // The same networks by family (IB, RoCE, EFA, Libfabric, Socket, else the
  // name), and what says so: "connections" (inter-node connection lines),
  // "network" (`Using network`, `Assigned NET plugin` of a multi-host job
  // without such lines), "warnings" (IB WARNs only), "none".
  std::vector<std::string> inter_families;
  std::string inter_from = "none";
  std::string gdr = "na";  // yes, no, mixed, na

  std::vector<HostSummary> host_rows;      // hosts that hold a rank, by name
  std::vector<uint32_t> host_unknown_ranks;  // ranks of the primary communicator whose lines name no host
  std::vector<HostNics> nics;              // every `NET/<name> : Using` list, by host id
  std::vector<CommSummary> comms;          // in model order
  std::vector<TransportCell> matrix;       // by (from, to) host id
  std::vector<RailSummary> rails;          // hosts with inter-node NET traffic, by name
  std::vector<SettingSummary> settings;    // by name, then value
  Coverage coverage;
  InputCounters counters;
  std::vector<std::string> files;
  GpuSideSummary gpu_side;  // nvidia-smi, topo -m, nccl-tests
};

// What a view may leave out: parts that cost memory by the job's size.
struct SummaryParts {
  bool channel_links = true;  // CommSummary::links (JSON and diff only)
};
JobSummary summarize(const JobModel& model, SummaryParts parts = {});

// The communicator a job-wide view shows: the largest, a made-up one only
// when the log names no other; nullopt when there is none.
std::optional<size_t> primary_comm(const JobModel& model);

// The names of `printed`, in order.
std::vector<std::string> names(const std::vector<Printed>& printed);

// Orders versions numerically: 2.4.8 < 2.18.3.
bool version_less(const std::string& a, const std::string& b);

}  // namespace nd
