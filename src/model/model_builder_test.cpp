#include "src/model/model_builder.h"

#include <algorithm>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "parsers/line_parser.h"
#include "src/model/model_fixture.h"
#include "src/model/ring_graph.h"

using namespace nd;

TEST_CASE("2.4: lines before Init COMPLETE belong to that communicator; send and receive merge") {
  auto m = model_from({
      "NCCL version 2.4.8+cuda10.0",
      "node01:100:100 [0] NCCL INFO Ring 00 : 1 -> 0 [receive] via NET/Socket/0",
      "node01:100:100 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "node02:200:200 [0] NCCL INFO Ring 00 : 0 -> 1 [receive] via NET/Socket/0",
      "node02:200:200 [0] NCCL INFO Ring 00 : 1 -> 0 [send] via NET/Socket/0",
      "node01:100:100 [0] NCCL INFO comm 0x7f01 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "node02:200:200 [0] NCCL INFO comm 0x7f02 rank 1 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  const auto& c = m.comms[0];
  CHECK(c.key == "#0/2");
  CHECK(c.nranks == 2);
  REQUIRE(c.edges.size() == 2);
  CHECK(c.edges[0].sender == 0);
  CHECK(c.edges[0].send_transport != kNoTransport);
  CHECK(c.edges[0].recv_transport != kNoTransport);
  CHECK(m.host_name(c.host_of(0)) == "node01");
  CHECK(m.host_name(c.host_of(1)) == "node02");
  CHECK(m.versions.count("2.4.8") == 1);
}

TEST_CASE("2.18.3+: lines between Init START and COMPLETE go to the open communicator") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init START",
      "gpu01:100:100 [0] NCCL INFO comm 0xb rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2222 - Init START",
      "gpu01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 3[0] [send] via NET/IB/0/GDRDMA",
      "gpu01:100:100 [0] NCCL INFO comm 0xb rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2222 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 2);
  // The 4-rank communicator is the only open one where rank 3 exists.
  CHECK(m.comms[0].edges.empty());
  REQUIRE(m.comms[1].edges.size() == 1);
  CHECK(m.comms[1].key == "0x2222");
}

TEST_CASE("2.22+: runtime connections after COMPLETE match the process's own rank") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init START",
      "gpu01:100:100 [0] NCCL INFO ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1111 - Init COMPLETE",
      "gpu01:100:100 [0] NCCL INFO ncclCommSplit comm 0xb rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0xa splitCount 1 color 0 key 1 commId 0x2222 - Init START",
      "gpu01:100:100 [0] NCCL INFO ncclCommSplit comm 0xb rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0xa splitCount 1 color 0 key 1 commId 0x2222 - Init COMPLETE",
      "gpu01:100:140 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
      "gpu01:100:140 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[1] via P2P/CUMEM/read",
  });
  REQUIRE(m.comms.size() == 2);
  CHECK(m.comms[0].edges.size() == 1);
  CHECK(m.comms[0].edges[0].sender == 0);
  CHECK(m.comms[1].edges.size() == 1);
  CHECK(m.comms[1].edges[0].sender == 1);
  CHECK(m.counters.ambiguous_assignments == 0);
}

TEST_CASE("P2P and SHM peers share a host even when the peer's lines are missing") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via SHM/direct/direct",
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 18000 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(m.host_name(m.comms[0].host_of(1)) == "gpu01");
}

TEST_CASE("lines no Init line claims land in an unclaimed communicator") {
  auto m = model_from({"gpu01:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 5[0] [send] via NET/IB/0"});
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].key == "unclaimed");
  CHECK(m.comms[0].synthetic);
  CHECK(m.comms[0].size() == 6);
}

TEST_CASE("a host glued to spliced text is matched to a known host") {
  auto m = model_from({
      "gpu11:100:100 [0] NCCL INFO Using network IB",
      "gpu11:100:100 [0] NCCL INFO Connected allgpu11:101:101 [1] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.size() == 1);
  CHECK(m.counters.spliced_lines == 1);
  CHECK(m.using_network.at("IB").size() == 2);
}

TEST_CASE("counters: unknown, malformed, WARN and text of cited lines") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO Frobnicating the widget",
      "gpu01:100:100 [0] NCCL INFO Channel 00 : 99999999999 -> 1[1] via P2P/IPC",
      "",
      "gpu01:100:100 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
      "not an nccl line",
  });
  CHECK(m.counters.lines == 5);
  CHECK(m.counters.nccl_lines == 3);
  CHECK(m.counters.unknown_lines == 1);
  CHECK(m.counters.malformed_lines == 1);
  REQUIRE(m.warnings.size() == 1);
  CHECK(m.warnings[0].location == "misc/ibvwrap.cc:63");
  CHECK(m.warnings[0].message == "Failed to open libibverbs.so[.1]");
  // Read once, as the model stores it: what the WARN means, and its net note.
  CHECK(m.warnings[0].cls.group == "libibverbs");
  CHECK(m.warnings[0].cls.severity == WarnSeverity::Warning);
  REQUIRE(m.net_notes.size() == 1);
  CHECK(m.net_notes[0].note == NetNote::VerbsMissing);
  REQUIRE(m.text_of(LineRef{0, 1}));
  CHECK(*m.text_of(LineRef{0, 1}) == "gpu01:100:100 [0] NCCL INFO Frobnicating the widget");
  CHECK(m.where(LineRef{0, 4}) == "job.log:4");
}

TEST_CASE("nNodes and NVLS channel counts are recorded") {
  auto m = model_from({
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init START",
      "gpu01:100:100 [0] NCCL INFO comm 0xa rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
      "gpu01:100:100 [0] NCCL INFO 16 coll channels, 0 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].nnodes == 2);
  CHECK(m.max_nvls_channels == 16);
}

TEST_CASE("binding reports, affinity, Pattern lines and NIC counts reach the model") {
  auto m = model_from({
      "[1,0]<stderr>:[gpu01.cluster:4410] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/..][../..]",
      " 1: cpu-bind=MASK - gpu01, task  1  1 [2808]: mask 0x4 set",
      "epoch 0 step 10 loss 2.3145, upper bound to the loss 9.1",
      "gpu01:2771:2771 [0] NCCL INFO Setting affinity for GPU 0 to 03f03f",
      "gpu01:2771:2771 [0] NCCL INFO Setting affinity for GPU 0 to 03f03f",
      "gpu01:2771:2771 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 12.000000/12.000000, type SYS/PIX, sameChannels 1",
      "gpu01:2771:2771 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>",
      "gpu02:2808:2808 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} ; OOB ib0:10.1.0.11<0>",
  });
  REQUIRE(m.bindings.size() == 2);
  CHECK(m.host_name(m.bindings[0].host) == "gpu01");
  CHECK(m.bindings[0].cpus.to_string() == "0-1");
  CHECK(m.bindings[1].pid == 2808);
  CHECK(m.bindings[1].cpus.to_string() == "2");
  REQUIRE(m.affinities.size() == 1);
  CHECK(m.affinities[0].affinity->to_string() == "0-5,12-17");
  REQUIRE(m.graph_patterns.size() == 1);
  CHECK(m.graph_patterns[0].type_intra == "SYS");
  CHECK(m.nics_per_host.at(*m.hosts.find("gpu01")) == 2);
  CHECK(m.nics_per_host.at(*m.hosts.find("gpu02")) == 1);
  CHECK(m.counters.nccl_lines == 5);
}

TEST_CASE("PyTorch watchdog, NCCL error and Last error lines are kept though they are not NCCL lines") {
  auto m = model_from({
      "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
      "[rank1]: torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6",
      "[rank1]: Last error:",
      "[rank1]: socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host",
      "an ordinary line",
  });
  REQUIRE(m.framework_errors.size() == 3);
  CHECK(m.framework_errors[0].kind == FrameworkKind::WatchdogTimeout);
  CHECK(m.framework_errors[0].launcher_rank == 1u);
  CHECK(m.framework_errors[0].text.starts_with("[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog"));
  CHECK(m.framework_errors[1].kind == FrameworkKind::NcclError);
  CHECK(m.framework_errors[2].kind == FrameworkKind::LastError);
  CHECK(m.framework_errors[2].text == "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
  CHECK(m.framework_errors[2].line.line == 4);
  // What each says, read once.
  REQUIRE(m.framework_errors[0].watchdog);
  CHECK(m.framework_errors[0].watchdog->seq == 808);
  CHECK(m.framework_errors[0].watchdog->rank == 1u);
  REQUIRE(m.framework_errors[1].nccl_error);
  CHECK(m.framework_errors[1].nccl_error->version == "2.18.6");
  CHECK(m.framework_errors[2].cls.kind == WarnKind::Socket);
  CHECK(m.framework_errors[2].cls.peer == "192.168.19.14");
}

TEST_CASE("OOB and bootstrap addresses map IPs to hosts; processes record their init progress") {
  auto m = model_from({
      "gpu07:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [RO]; OOB ib0:10.1.0.7<0>",
      "gpu08:2:2 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.8<0>",
      "gpu08:2:2 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0",
      "gpu07:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE",
  });
  CHECK(m.ip_hosts.at("10.1.0.7") == *m.hosts.find("gpu07"));
  CHECK(m.ip_hosts.at("10.1.0.8") == *m.hosts.find("gpu08"));
  REQUIRE(m.processes.size() == 2);
  const auto& p8 = m.processes[0].host == *m.hosts.find("gpu08") ? m.processes[0] : m.processes[1];
  CHECK(p8.own_rank == 1);
  CHECK(p8.init_phase);
  CHECK(p8.init_completes == 0);
  CHECK(p8.init_phase_line.line == 3);
}

TEST_CASE("one host name on two addresses of one interface is two hosts; one address is one host") {
  auto m = model_from({
      "user:100:110 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "user:100:110 [0] NCCL INFO Bootstrap : Using ib0:192.168.1.14<0>",
      "user:200:210 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "user:200:210 [0] NCCL INFO NET/Socket : Using [0]ib0:192.168.1.10<0> [1]eth0:10.0.0.10<0>",
      "user:300:310 [1] NCCL INFO Bootstrap : Using ib0:192.168.1.10<0>",
      "user:400:410 [1] NCCL INFO Bootstrap : Using ib0:192.168.1.14<0>",
      "user:200:210 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
      "user:100:110 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
  });
  REQUIRE(m.hosts.size() == 2);
  auto other = m.hosts.find("user@192.168.1.10");
  REQUIRE(other);
  CHECK(m.ip_hosts.at("192.168.1.10") == *other);
  CHECK(m.ip_hosts.at("10.0.0.10") == *other);
  CHECK(m.ip_hosts.at("192.168.1.14") == *m.hosts.find("user"));
  std::map<uint64_t, uint32_t> host_of;
  for (const auto& p : m.processes) host_of[p.pid] = p.host;
  CHECK(host_of == std::map<uint64_t, uint32_t>{{100, *m.hosts.find("user")}, {200, *other}, {300, *other},
                                                {400, *m.hosts.find("user")}});
  // Its lines before the address went with the process.
  for (const auto& p : m.processes) {
    if (p.pid == 200) CHECK(p.first_line.line == 3);
  }
  // One name and one pid on two hosts (containers): nothing tells their
  // lines apart, so nothing is split; a third address splits once.
  auto same_pid = model_from({
      "node:100:110 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
      "node:100:110 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
      "node:100:110 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0>",
      "node:200:210 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>",
      "node:200:210 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.4<0>",
      "node:100:110 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
  });
  CHECK(same_pid.hosts.size() == 2);
  CHECK(same_pid.hosts.find("node@10.0.0.3"));
  for (const auto& p : same_pid.processes) CHECK(p.host == *same_pid.hosts.find(p.pid == 100 ? "node" : "node@10.0.0.3"));
}

TEST_CASE("a process that printed Init START is in init even without an init-phase line") {
  auto m = model_from({
      "gpu01:2771:2771 [0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0xabc - Init START",
  });
  REQUIRE(m.processes.size() == 1);
  CHECK(m.processes[0].init_starts == 1);
  CHECK(m.processes[0].init_phase);
  CHECK(m.processes[0].init_phase_line.line == 0);
  CHECK(m.processes[0].first_line.line == 1);
  CHECK(m.processes[0].lines == 1);
}

TEST_CASE("2.30 echoes NCCL_NET as a comm config line") {
  auto m = model_from({"gpu07:1:1 [0] NCCL INFO Comm config netName reset to NCCL_NET=Socket"});
  REQUIRE(m.env.size() == 1);
  CHECK(m.env[0].name == "NCCL_NET");
  CHECK(m.env[0].value == "Socket");
}

TEST_CASE("an empty Last error body does not swallow the next NCCL line") {
  auto m = model_from({
      "Last error:",
      "gpu07:1:1 [0] NCCL INFO NCCL version 2.18.6+cuda12.2",
  });
  CHECK(m.framework_errors.empty());
  CHECK(m.versions.count("2.18.6") == 1);
}

TEST_CASE("an empty Last error body carries over only from a batch's last line") {
  // Batches as the chunked reader merges them: a per-operation line of a
  // known host is only counted (no item), and a traceback later, first in
  // its batch, is not the message, as it is not line by line.
  const std::string_view op = "gpu01:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 "
                              "datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6";
  const std::string_view traceback = "Traceback (most recent call last):";
  const std::vector<std::vector<std::string_view>> ways = {
      {op, "Last error:", op}, {op}, {traceback},  // `Last error:` inside a batch
  };
  const std::vector<std::vector<std::string_view>> at_end = {
      {op, "Last error:"}, {op}, {traceback},  // `Last error:` ends a batch
  };
  for (const auto& batches : {ways, at_end}) {
    JobModel model;
    ModelBuilder builder(model);
    uint32_t file = builder.add_file("job.log");
    builder.add_line(file, Line{"gpu01:1:1 [0] NCCL INFO NCCL version 2.18.6+cuda12.2", 1, false});
    uint64_t base = 1;
    std::vector<std::string_view> all = {"gpu01:1:1 [0] NCCL INFO NCCL version 2.18.6+cuda12.2"};
    for (const auto& lines : batches) {
      ParsedLines parsed;
      parsed.known_hosts = builder.host_snapshot();
      uint64_t n = 0;
      for (std::string_view text : lines) parse_line(Line{text, ++n, false}, parsed);
      CHECK(parsed.items.size() == static_cast<size_t>(std::count(lines.begin(), lines.end(), "Last error:")) +
                                       static_cast<size_t>(std::count(lines.begin(), lines.end(), traceback)));
      builder.apply(file, base, parsed);
      base += n;
      all.insert(all.end(), lines.begin(), lines.end());
    }
    builder.finish();
    CHECK(model.framework_errors.empty());
    CHECK(model_from_lines(all).framework_errors.empty());
  }
}

TEST_CASE("2.19.3 lines without host:pid:tid: host unknown, one process per device, P2P places them together") {
  auto m = model_from({
      "NCCL version 2.19.3+cuda12.3",
      " [0] NCCL INFO Using network IB",
      " [1] NCCL INFO Using network IB",
      " [0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x52e9 - Init START",
      " [1] NCCL INFO comm 0x55d7869cff50 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x52e9 - Init START",
      " [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
      " [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/CUMEM/read",
      " [0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x52e9 - Init COMPLETE",
      " [1] NCCL INFO comm 0x55d7869cff50 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x52e9 - Init COMPLETE",
  });
  CHECK(m.counters.nccl_lines == 8);
  CHECK(m.hosts.size() == 0);
  REQUIRE(m.comms.size() == 1);
  const auto& c = m.comms[0];
  CHECK(c.host_of(0) == kNoHost);
  CHECK(c.ranks[0].init_completed);
  CHECK(c.ranks[1].init_completed);
  CHECK(c.edges.size() == 2);
  CHECK(locality(c, 0, 1) == Locality::Intra);
  REQUIRE(m.processes.size() == 2);
  CHECK(m.process_name(m.processes[0].host, m.processes[0].pid) == "host unknown, device 0");
  CHECK(m.process_name(m.processes[1].host, m.processes[1].pid) == "host unknown, device 1");
  CHECK(m.using_network.at("IB").size() == 2);
}

TEST_CASE("srun labels name the processes of header-less lines; NET alone places no rank") {
  auto m = model_from({
      " 0: [0] NCCL INFO comm 0xa rank 0 nranks 4 cudaDev 0 busId 18000 commId 0x1 - Init START",
      " 1: [1] NCCL INFO comm 0xb rank 1 nranks 4 cudaDev 1 busId 2a000 commId 0x1 - Init START",
      " 2: [0] NCCL INFO comm 0xc rank 2 nranks 4 cudaDev 0 busId 18000 commId 0x1 - Init START",
      " 0: [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
      " 1: [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/Socket/1",
      " 2: [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/Socket/0",
  });
  REQUIRE(m.comms.size() == 1);
  const auto& c = m.comms[0];
  CHECK(locality(c, 0, 1) == Locality::Intra);
  CHECK(locality(c, 1, 2) == Locality::Unknown);
  // Two processes on device 0, told apart by their task ids.
  REQUIRE(m.processes.size() == 3);
  std::vector<std::string> names;
  for (const auto& p : m.processes) names.push_back(m.process_name(p.host, p.pid));
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"host unknown, srun task 0", "host unknown, srun task 1",
                                          "host unknown, srun task 2"});
}

TEST_CASE("stand-in hosts: real pids, host unknown; a pdsh prefix still names the host") {
  auto m = model_from({
      "<cluster_name>:919:1150 [0] NCCL INFO comm 0x5612 rank 8 nranks 16 cudaDev 0 busId 18000 commId 0xab - Init START",
      "<cluster_name>:926:1151 [7] NCCL INFO Channel 03/0 : 15[7] -> 6[6] [send] via NET/Socket/3",
      "gpu07: xxx:1001:1001 [0] NCCL INFO cudaDriverVersion 12040",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"gpu07"});
  REQUIRE(m.comms.size() == 1);  // rank 15's process printed no Init line: it joins the only communicator
  CHECK(m.comms[0].key == "0xab");
  CHECK(m.comms[0].host_of(8) == kNoHost);
  CHECK(m.comms[0].ranks[8].pid == 919);
  CHECK(m.comms[0].ranks[15].pid == 926);
  CHECK(m.process_name(kNoHost, 919) == "host unknown pid 919");
  REQUIRE(m.driver_versions.at(12040).size() == 1);
  CHECK(m.host_name(m.driver_versions.at(12040)[0].host) == "gpu07");
}

TEST_CASE("lines of processes without an Init line join the only communicator, unless their rank is taken") {
  auto m = model_from({
      "a:10:10 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/Socket/0",
      "b:20:20 [0] NCCL INFO Ring 00 : 0 -> 1 [receive] via NET/Socket/0",
      "b:20:20 [0] NCCL INFO comm 0x7f rank 1 nranks 4 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "c:30:30 [0] NCCL INFO Ring 00 : 2 -> 3 [send] via NET/Socket/0",
      "d:40:40 [0] NCCL INFO Ring 00 : 1 -> 2 [send] via NET/Socket/0",
      "e:50:50 [0] NCCL INFO Ring 00 : 3 -> 7 [send] via NET/Socket/0",
  });
  REQUIRE(m.comms.size() == 2);
  const Communicator& job = m.comms[0];
  CHECK(job.key == "#0/4");
  CHECK(m.host_name(job.host_of(0)) == "a");
  CHECK(m.host_name(job.host_of(2)) == "c");
  CHECK(job.edges.size() == 2);  // 0 -> 1 from both ends, and 2 -> 3
  // d says it is rank 1, which b holds; e names rank 7 of a 4-rank communicator.
  const Communicator& rest = m.comms[1];
  CHECK(rest.synthetic);
  CHECK(rest.edges.size() == 2);
}

TEST_CASE("with two communicators, lines of processes without an Init line stay apart") {
  auto m = model_from({
      "a:10:10 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0xa1 - Init COMPLETE",
      "a:10:10 [0] NCCL INFO comm 0x2 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0xa2 - Init COMPLETE",
      "b:20:20 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0",
  });
  REQUIRE(m.comms.size() == 3);
  CHECK(m.comms[2].synthetic);
  CHECK(m.comms[0].edges.empty());
  CHECK(m.comms[1].edges.empty());
}

TEST_CASE("nNodes 1 puts ranks whose hosts are unknown on one host (2.20+)") {
  auto m = model_from({
      "[0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x1 - Init START",
      "[0] NCCL INFO comm 0xa rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0",
      "[0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(locality(m.comms[0], 0, 1) == Locality::Intra);
}

TEST_CASE("a first line that lost its first characters in the copy is the longer host") {
  auto m = model_from({
      "pgds-aihub0007:2771:2771 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.10<0>",
      "tpgds-aihub0008:2808:2808 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.11<0>",
      "tpgds-aihub0007:2771:2771 [0] NCCL INFO Using network IB",
      "pgds-aihub0007:2771:2771 [0] NCCL INFO cudaDriverVersion 12040",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"tpgds-aihub0007", "tpgds-aihub0008"});
  CHECK(m.host_name(m.ip_hosts.at("10.1.0.10")) == "tpgds-aihub0007");
  // A host seen again on another line is a host of its own.
  m = model_from({
      "pu01:1:1 [0] NCCL INFO Using network IB",
      "pu01:1:1 [0] NCCL INFO cudaDriverVersion 12040",
      "gpu01:2:2 [0] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"pu01", "gpu01"});
  // Only the first line of a file.
  m = model_from({
      "gpu01:2:2 [0] NCCL INFO Using network IB",
      "pu02:1:1 [0] NCCL INFO Using network IB",
      "gpu02:3:3 [0] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"gpu01", "pu02", "gpu02"});
}

TEST_CASE("a host whose head another line cut off is the whole host, before or after it is seen") {
  auto m = model_from({
      "g340-cd51-b72a-df48:4452:4854 [7] NCCL INFO Trees [0] -1/-1/-1->7->6 [1] -1/-1/-1->7->6 72a-df48:4181:4857 [0] "
      "NCCL INFO Tree 14 : -1 -> 0 -> 1/-1/-1",
      "g340-cd51-b72a-df48:4181:4857 [0] NCCL INFO Tree 3 : -1 -> 0 -> 1/-1/-1",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"g340-cd51-b72a-df48"});
  m = model_from({
      "[1] -1/-1/-1->7->6 -b72a-df48:4181:4857 [0] NCCL INFO Tree 14 : -1 -> 0 -> 1/-1/-1",
      "g340-cd51-b72a-df48:4181:4857 [0] NCCL INFO Tree 3 : -1 -> 0 -> 1/-1/-1",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"g340-cd51-b72a-df48"});
  // Too short to tell whose tail it is, or seen whole on a line of its own.
  m = model_from({
      "gpu-node1:1:1 [0] NCCL INFO Using network IB trailing node1:2:2 [0] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"gpu-node1", "node1"});
  m = model_from({
      "text before b72a-df48:4181:4857 [0] NCCL INFO Using network IB",
      "b72a-df48:4181:4857 [0] NCCL INFO Using network IB",
      "g340-cd51-b72a-df48:4181:4857 [0] NCCL INFO Using network IB",
  });
  CHECK(m.hosts.names() == std::vector<std::string>{"b72a-df48", "g340-cd51-b72a-df48"});
}

TEST_CASE("2.4.8 without commId: header-less lines of two hosts still make one communicator") {
  // Device 0 of both hosts falls into one made-up process; each rank counts
  // its own communicators.
  auto m = model_from({
      "[0] NCCL INFO Ring 00 : 0 1 2 3",
      "[0] NCCL INFO comm 0x55d7869cef50 rank 0 nranks 4 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "[1] NCCL INFO comm 0x55d7869cff50 rank 1 nranks 4 cudaDev 1 nvmlDev 1 - Init COMPLETE",
      "[0] NCCL INFO comm 0x55d7869d0f50 rank 2 nranks 4 cudaDev 0 nvmlDev 0 - Init COMPLETE",
      "[1] NCCL INFO comm 0x55d7869d1f50 rank 3 nranks 4 cudaDev 1 nvmlDev 1 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].key == "#0/4");
  for (uint32_t r = 0; r < 4; ++r) CHECK(m.comms[0].ranks[r].init_completed);
}

TEST_CASE("a paste that lost its newlines: every message of the one long line is read") {
  // NCCL 2.18.3, a two-rank job pasted as one line (lines joined by spaces).
  std::string flat;
  for (int r = 0; r < 2; ++r) {
    std::string h = fmt::format("gpu0{}:{}:{} [0] NCCL INFO ", r + 1, 100 + r, 100 + r);
    flat += h + fmt::format("comm 0x{} rank {} nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init START ", r + 1, r);
    flat += h + fmt::format("Channel 00/0 : {}[0] -> {}[0] [send] via NET/IB/0/GDRDMA ", r, 1 - r);
    flat += h + fmt::format("Channel 00/0 : {}[0] -> {}[0] [receive] via NET/IB/0/GDRDMA ", 1 - r, r);
    flat += h + fmt::format("comm 0x{} rank {} nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE ", r + 1, r);
  }
  auto m = model_from({flat});
  CHECK(m.counters.nccl_lines == 8);
  CHECK(m.counters.connection_lines == 4);
  REQUIRE(m.comms.size() == 1);
  CHECK(m.comms[0].ranks[0].init_completed);
  CHECK(m.comms[0].ranks[1].init_completed);
  CHECK(m.hosts.names() == std::vector<std::string>{"gpu01", "gpu02"});
}

TEST_CASE("bare nvidia-smi files of two machines: GPUs of two models at one index stay two GPUs") {
  JobModel m;
  ModelBuilder b(m);
  auto table = [&](std::string file, std::string_view name, std::string_view memory, std::string_view pid) {
    uint32_t f = b.add_file(std::move(file));
    std::vector<std::string> lines{
        "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |",
        "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |",
        "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |",
        "|===============================+======================+======================|",
        fmt::format("|   0  {:<18}  On   | 00000000:2A:00.0 Off |                    0 |", name),
        fmt::format("| N/A   40C    P0   60W / 300W | {} |     90%      Default |", memory),
        "+-------------------------------+----------------------+----------------------+",
        "| Processes:                                                                  |",
        "|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |",
        "|=============================================================================|",
        fmt::format("|    0   N/A  N/A     {:>6}      C   python                          100MiB |", pid),
        "+-----------------------------------------------------------------------------+",
    };
    uint64_t n = 0;
    for (const std::string& l : lines) b.add_line(f, Line{l, ++n, false});
  };
  table("a.txt", "Tesla V100-SXM2...", " 30000MiB / 32510MiB", "1111");
  table("b.txt", "NVIDIA A10", "    10MiB / 22731MiB", "2222");
  table("c.txt", "Tesla V100-SXM2-32GB", " 31000MiB / 32510MiB", "1111");
  b.finish();
  REQUIRE(m.gpu_side.gpus.size() == 2);
  const GpuTrack& v100 = m.gpu_side.gpus[0];
  const GpuTrack& a10 = m.gpu_side.gpus[1];
  // The cut name and the whole one are one model: c.txt's sample joins a.txt's.
  CHECK(v100.name == "Tesla V100-SXM2-32GB");
  CHECK(v100.samples == 2);
  CHECK(v100.mem_total_mib == 32510.0);
  CHECK(v100.mem_used_mib == 31000.0);
  CHECK(a10.name == "NVIDIA A10");
  CHECK(a10.mem_total_mib == 22731.0);
  REQUIRE(a10.processes.size() == 1);
  CHECK(a10.processes[0].pid == 2222u);
  REQUIRE(v100.processes.size() == 1);
  CHECK(v100.processes[0].pid == 1111u);
}

TEST_CASE("a known host behind a few glued characters is that host") {
  // (A host seen on the first line only would be one whose head the copy
  // cut: the longer name is the whole one then.)
  auto m = model_from({
      "node-a:236:236 [2] NCCL INFO Channel 03/0 : 2[2] -> 3[3] via P2P/IPC",
      "node-a:236:236 [2] NCCL INFO Channel 04/0 : 2[2] -> 3[3] via P2P/IPC",
      "nodnode-a:235:235 [1] NCCL INFO cudaDriverVersion 12090",
      "    16777216       1048576     float    none      -1node-a:100:120 [0] NCCL INFO [Proxy Progress] Device 0 CPU core 140",
      "node-a:235:235 [1] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
  });
  CHECK(m.hosts.size() == 1);
  // A short host is not taken for the tail of a longer one.
  auto two = model_from({
      "gpu1:1:1 [0] NCCL INFO cudaDriverVersion 12090",
      "gpu1:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.",
      "agpu1:2:2 [0] NCCL INFO cudaDriverVersion 12090",
  });
  CHECK(two.hosts.size() == 2);
}
