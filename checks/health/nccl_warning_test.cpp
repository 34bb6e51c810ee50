#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("a completion error names local and remote host; flushes point at the first error") {
  auto m = model_from({
      "gpu07:51234:51234 [3] NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [RO]; OOB ib0:10.1.0.7<0>",
      "gpu08:61234:61234 [3] NCCL INFO NET/IB : Using [0]mlx5_3:1/IB [RO]; OOB ib0:10.1.0.8<0>",
      "",
      "[2026-06-10 09:15:02] gpu07:51234:51290 [3] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL WARN NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_3",
      "",
      "[2026-06-10 09:15:02] gpu07:51234:51290 [3] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL WARN NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_WR_FLUSH_ERR(5) opcode=IBV_WC_SEND(0) vendor_err=249  hca mlx5_3",
      "",
      "[2026-06-10 09:15:02] gpu07:51234:51290 [3] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL WARN NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_WR_FLUSH_ERR(5) opcode=IBV_WC_SEND(0) vendor_err=249  hca mlx5_3",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message ==
        "NET/IB completion error on gpu07 from peer 10.1.0.8 (gpu08): status 12 IBV_WC_RETRY_EXC_ERR: transport retries "
        "exhausted: link down, bad cable or switch port, RoCE routing or GID mismatch, congestion, or the peer is gone; "
        "check the port counters of both NICs and the link; NCCL_IB_TIMEOUT and NCCL_IB_RETRY_CNT set the retry budget; "
        "vendor_err 129 (0x81: retry counter exceeded); local HCA mlx5_3 (1 WARN)");
  CHECK(f[0].hosts == std::vector<std::string>{"gpu07", "gpu08"});
  CHECK(f[1].message ==
        "NET/IB completion error on gpu07 from peer 10.1.0.8 (gpu08): status 5 IBV_WC_WR_FLUSH_ERR: work request flushed: "
        "the QP had already failed, a consequence of an earlier error; vendor_err 249 (0xf9); local HCA mlx5_3; the "
        "first error is status 12 at job.log:4 (2 WARNs: gpu07 2)");
}

TEST_CASE("a flood of identical WARNs becomes one finding with counts per host") {
  std::vector<std::string> lines;
  for (int i = 0; i < 3000; ++i) {
    lines.push_back("");
    lines.push_back(fmt::format("gpu{}:100:100 [0] misc/socket.cc:500 NCCL WARN socketProgress: Connection closed by remote peer gpu9<{}>",
                                i % 2, 40000 + i));
  }
  auto m = model_from_lines(lines);
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "socketProgress: Connection closed by remote peer gpu9<40000> on gpu0, gpu1 from peer gpu9: the "
                        "peer closed its socket: that process exited or crashed first; look for its own error "
                        "(3000 WARNs: gpu0 1500, gpu1 1500)");
  CHECK(f[0].evidence.size() == 3);
}

TEST_CASE("PyTorch watchdog timeouts and DistBackendError lines are read though they are not NCCL lines") {
  auto m = model_from({
      "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
      "[rank3]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=807, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.",
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6",
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
      "Last error:",
      "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 3);
  CHECK(f[0].message == "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host from peer "
                        "192.168.19.14: a socket connection failed: No route to host (the address is unreachable: wrong "
                        "NCCL_SOCKET_IFNAME or a firewall) (1 PyTorch 'Last error')");
  CHECK(f[1].message == "PyTorch's NCCL watchdog timed out on ranks 1,3: ALLREDUCE SeqNum=807 ran for 600031 ms (timeout "
                        "600000 ms); rank 3 is furthest behind (lowest SeqNum 807): look at it first; NCCL prints no WARN "
                        "for a hung collective: a rank that stopped calling it (crash, desync, data loader) or a stalled "
                        "network link is the usual cause");
  CHECK(f[1].ranks == std::vector<uint32_t>{1, 3});
  CHECK(f[2].message == "PyTorch raised an NCCL error (NCCL 2.18.6): unhandled system error (run with NCCL_DEBUG=INFO "
                        "for details); a system call or the network failed (the WARN or 'Last error' lines say which)");
}

TEST_CASE("a plugin failure that made NCCL fall back to sockets says so") {
  auto m = model_from({
      "",
      "[2026-01-02 10:24:27] ip-172-31-3-153:35115:35469 [2] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208 NCCL WARN NET/OFI Failed to initialize sendrecv protocol",
      "ip-172-31-3-153:35115:35115 [2] NCCL INFO Using network Socket",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "NET/OFI Failed to initialize sendrecv protocol on ip-172-31-3-153: a network plugin failed to "
                        "load or initialize: NCCL falls back to its internal IB or Socket transport; this job did fall "
                        "back to network Socket ('Using network Socket') (1 WARN)");
}

TEST_CASE("a job of one rank that fell back to sockets without libibverbs: no cost") {
  auto f = run_rule("nccl-warning", model_from({
      "h:1:1 [0] misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized.",
      "h:1:1 [0] NCCL INFO Using network Socket",
      "h:1:1 [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - "
      "Init START",
  }));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message.starts_with("lib wrapper not initialized. on h: libibverbs is not installed"));
  CHECK(f[0].message.ends_with("; no cost seen: the input shows one host, and NCCL needs a network only between hosts "
                               "(1 WARN)"));
}

TEST_CASE("libibverbs missing on the one host a log shows is a note; with a second host it stays a warning") {
  const std::string warn = "aliyun:82174:82321 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]";
  auto one = run_rule("nccl-warning", model_from({warn, "aliyun:82174:82321 [0] NCCL INFO NET/Socket : Using [0]eth0:192.168.0.172<0>",
                                                  "NCCL version 2.4.8+cuda9.0"}));
  REQUIRE(one.size() == 1);
  CHECK(one[0].severity == Severity::Info);
  CHECK(one[0].message.ends_with("; no cost seen: the input shows one host, and NCCL needs a network only between "
                                 "hosts (1 WARN)"));
  // One node's output of a two-node job: its Init lines name 4 ranks, the node holds 2.
  auto part = run_rule("nccl-warning", model_from({
      warn,
      "aliyun:82174:82174 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
      "aliyun:82175:82175 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 busId 19000 - Init COMPLETE",
  }));
  REQUIRE(part.size() == 1);
  CHECK(part[0].severity == Severity::Warning);
}

TEST_CASE("a plugin WARN on one host whose NET links may leave it stays a warning") {
  auto f = run_rule("nccl-warning", model_from({
      "gpu01:1:1 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
      "gpu01:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0",
  }));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
}

TEST_CASE("nccl-tests that stopped at a failed call is an error, one per error text") {
  auto m = model_from({
      "busybox2:11537:11571 [3] NCCL INFO transport/net_ib.cc:282 -> 2",
      "busybox2:11537:11537 [3] NCCL INFO group.cc:95 -> 2",
      "busybox2: Test NCCL failure common.cu:961 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '",
      " .. busybox2 pid 11537: Test failure common.cu:844",
      "busybox3: Test NCCL failure common.cu:961 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '",
      "busybox4: Test CUDA failure common.cu:891 'out of memory'",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "nccl-tests failed with a CUDA error: out of memory");
  CHECK(f[1].message == "nccl-tests failed with an NCCL error: unhandled system error; a system call or the network "
                        "failed (the WARN or 'Last error' lines say which)");
  REQUIRE(f[1].evidence.size() == 2);
  CHECK(f[1].evidence[0].line == 3);
  CHECK(f[1].evidence[1].line == 5);
}

TEST_CASE("a plugin that fails to initialise is a note once NCCL runs on its own IB (2.28)") {
  auto m = model_from({
      "gpu51:4100:4100 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)",
      "",
      "[2026-03-04 09:12:41] gpu51:4100:4100 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):171 NCCL WARN "
      "NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available",
      "gpu51:4100:4100 [0] NCCL INFO Failed to initialize NET plugin Libfabric",
      "gpu51:4100:4100 [0] NCCL INFO Assigned NET plugin IB to comm",
      "gpu51:4100:4100 [0] NCCL INFO Using network IB",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available on gpu51: a network "
                        "plugin failed to load or initialize: NCCL falls back to its internal IB or Socket transport; "
                        "harmless here: NCCL uses network IB (1 WARN)");
}

TEST_CASE("a WARN whose traceback reached the caller is an error; one NCCL caught or that went nowhere stays a warning") {
  // The thread that WARNed passed the error up through the NET transport's
  // connect (NCCL 2.21): the connection, and so the communicator, failed.
  auto failed = run_rule("nccl-warning", model_from({
      "algo-1:17774:17862 [1] misc/socket.cc:717 NCCL WARN ncclSocketInit: connecting to address with family 33022 is neither AF_INET(2) nor AF_INET6(10)",
      "algo-1:17773:17846 [0] NCCL INFO Channel 00/0 : 0[0] -> 7[7] via P2P/CUMEM/read",
      "algo-1:17774:17862 [1] NCCL INFO transport/net_socket.cc:331 -> 3",
      "algo-1:17774:17862 [1] NCCL INFO transport/net.cc:687 -> 3",
  }));
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].severity == Severity::Error);
  CHECK(failed[0].message ==
        "NCCL WARN at misc/socket.cc:717 on algo-1: ncclSocketInit: connecting to address with family 33022 is neither "
        "AF_INET(2) nor AF_INET6(10); NCCL returned the error to its caller (transport/net.cc:687 -> 3: internal "
        "error), so the call failed (1 WARN)");

  // Frames of another thread, a chain that stays in the transport, and a
  // chain that CollNet's fallback caught say nothing of this WARN's fate.
  auto other_thread = run_rule("nccl-warning", model_from({
      "algo-1:17774:17862 [1] misc/socket.cc:717 NCCL WARN ncclSocketInit: connecting to address with family 33022 is neither AF_INET(2) nor AF_INET6(10)",
      "algo-1:17774:17999 [1] NCCL INFO init.cc:1089 -> 3",
  }));
  REQUIRE(other_thread.size() == 1);
  CHECK(other_thread[0].severity == Severity::Warning);
  auto stays_below = run_rule("nccl-warning", model_from({
      "gpu01:5:6 [0] misc/ibvwrap.cc:130 NCCL WARN Call to ibv_open_device failed",
      "gpu01:5:6 [0] NCCL INFO transport/net_ib.cc:282 -> 2",
  }));
  REQUIRE(stays_below.size() == 1);
  CHECK(stays_below[0].message.find("returned the error") == std::string::npos);
  auto caught = run_rule("nccl-warning", model_from({
      "ib-vm-52:1047884:1048148 [7] sharp_plugin.c:320 NCCL WARN NET/IB : SHARP coll init error: Cannot create SHARP job(-11)",
      "ib-vm-52:1047884:1048148 [7] NCCL INFO transport.cc:291 -> 2",
      "ib-vm-52:1047884:1048148 [7] NCCL INFO init.cc:670 -> 2",
      "ib-vm-52:1047884:1048148 [7] transport.cc:323 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
  }));
  REQUIRE(caught.size() == 2);
  CHECK(caught[0].severity == Severity::Warning);
  CHECK(caught[0].message.find("returned the error") == std::string::npos);

  // CollNet's own WARN, with the frame of the function that printed it.
  auto collnet = run_rule("nccl-warning", model_from({
      "ib-vm-52:1047884:1048148 [7] transport.cc:323 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
      "ib-vm-52:1047884:1048148 [7] NCCL INFO init.cc:670 -> 2",
  }));
  REQUIRE(collnet.size() == 1);
  CHECK(collnet[0].severity != Severity::Error);

  // Only local rank 0 prints the CollNet line: another rank's traceback during
  // an init that then completes on that device failed nothing.
  auto completed = run_rule("nccl-warning", model_from({
      "ib-vm-52:1047885:1048150 [6] NCCL INFO comm 0x5a rank 6 nranks 8 cudaDev 6 nvmlDev 6 busId c1000 commId 0x77 - Init START",
      "ib-vm-52:1047885:1048150 [6] sharp_plugin.c:320 NCCL WARN NET/IB : SHARP coll init error: Cannot create SHARP job(-11)",
      "ib-vm-52:1047885:1048150 [6] NCCL INFO transport.cc:291 -> 2",
      "ib-vm-52:1047885:1048150 [6] NCCL INFO init.cc:670 -> 2",
      "ib-vm-52:1047885:1048150 [6] NCCL INFO comm 0x5a rank 6 nranks 8 cudaDev 6 nvmlDev 6 busId c1000 commId 0x77 - Init COMPLETE",
  }));
  REQUIRE(completed.size() == 1);
  CHECK(completed[0].severity == Severity::Warning);
  CHECK(completed[0].message.find("returned the error") == std::string::npos);
  // A failure after init (a collective's launch) stays one when a later
  // communicator completes its init on the same device.
  auto runtime = run_rule("nccl-warning", model_from({
      "gpu01:5:6 [0] NCCL INFO comm 0x5a rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x77 - Init START",
      "gpu01:5:6 [0] NCCL INFO comm 0x5a rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x77 - Init COMPLETE",
      "gpu01:5:6 [0] enqueue.cc:1500 NCCL WARN Something unexpected happened",
      "gpu01:5:6 [0] NCCL INFO enqueue.cc:1600 -> 5",
      "gpu01:5:6 [0] NCCL INFO group.cc:200 -> 5",
      "gpu01:5:6 [0] NCCL INFO comm 0x5b rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x78 - Init START",
      "gpu01:5:6 [0] NCCL INFO comm 0x5b rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x78 - Init COMPLETE",
  }));
  REQUIRE(runtime.size() == 1);
  CHECK(runtime[0].severity == Severity::Error);
  // An init completing on another device of the same process does not.
  auto other_dev = run_rule("nccl-warning", model_from({
      "gpu01:5:6 [0] misc/socket.cc:717 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Connection refused",
      "gpu01:5:6 [0] NCCL INFO init.cc:1089 -> 2",
      "gpu01:5:7 [1] NCCL INFO comm 0x5b rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x78 - Init COMPLETE",
  }));
  REQUIRE(other_dev.size() == 1);
  CHECK(other_dev[0].severity == Severity::Error);

  // Frames far past the WARN belong to something else.
  std::vector<std::string> far{"gpu01:5:6 [0] misc/socket.cc:717 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Connection refused"};
  for (int i = 0; i < 100; ++i) far.push_back("gpu01:5:7 [0] NCCL INFO Connected all rings");
  far.push_back("gpu01:5:6 [0] NCCL INFO init.cc:1089 -> 2");
  auto late = run_rule("nccl-warning", model_from_lines(far));
  REQUIRE(late.size() == 1);
  CHECK(late[0].message.find("returned the error") == std::string::npos);
}

TEST_CASE("a WARN dropped past the cap lends its traceback to no older WARN") {
  std::vector<std::string> lines;
  for (size_t i = 0; i <= JobModel::kMaxWarnings; ++i) {
    lines.push_back(fmt::format("gpu01:5:6 [0] misc/socket.cc:717 NCCL WARN socketProgress: Connection closed by {}", i));
  }
  lines.push_back("gpu01:5:6 [0] NCCL INFO init.cc:1089 -> 2");
  JobModel m = model_from_lines(lines);
  REQUIRE(m.warnings.size() == JobModel::kMaxWarnings);
  CHECK(m.warnings_dropped == 1);
  CHECK_FALSE(m.warnings.back().returned_to_caller);
}

TEST_CASE("aws-ofi-nccl errors on the network the job runs on are errors, not a plugin that failed to load") {
  auto f = run_rule("nccl-warning", model_from({
      "h200-b:14630:14695 [1] NCCL INFO Channel 05/0 : 0[0] -> 1[1] [receive] via NET/AWS Libfabric/1/GDRDMA",
      "h200-b:14630:14692 [0] process_err_completion:1723 NCCL WARN NET/OFI Operation with NULL context completed with error",
      "h200-b:14630:14692 [0] close_listen_recv_comm:4827 NCCL WARN NET/OFI Unable to free request of listen communicator.",
  }));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message ==
        "NET/OFI Operation with NULL context completed with error on h200-b: the aws-ofi-nccl plugin (libfabric, EFA) "
        "reported an error on the network the job runs on: operations or connections failed; check the EFA provider, "
        "the security group (all traffic between the instances) and the peer (2 WARNs: h200-b 2)");

  // A provider the plugin could not open, on a job that runs on the plugin
  // all the same, is not called harmless.
  auto partial = run_rule("nccl-warning", model_from({
      "h200-b:14630:14692 [0] NCCL WARN NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available",
      "h200-b:14630:14695 [1] NCCL INFO Channel 05/0 : 0[0] -> 1[1] [receive] via NET/AWS Libfabric/1/GDRDMA",
      "h200-a:14631:14696 [1] NCCL INFO Channel 05/0 : 0[0] -> 1[1] [send] via NET/AWS Libfabric/1/GDRDMA",
  }));
  REQUIRE(partial.size() == 1);
  CHECK(partial[0].message.find("harmless") == std::string::npos);
}

TEST_CASE("a traceback to the caller without a WARN is a failed call; one that stops inside NCCL is not") {
  auto m = model_from({
      "gpu01:2336:2336 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xa1 - Init START",
      "gpu01:2336:2377 [0] NCCL INFO init.cc:1501 -> 1",
      "gpu01:2336:2377 [0] NCCL INFO group.cc:64 -> 1 [Async thread]",
      "gpu01:2336:2336 [0] NCCL INFO group.cc:422 -> 1",
      "gpu02:4410:4410 [0] NCCL INFO include/net.h:19 -> 2",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "NCCL returned error 1 (unhandled cuda error) to its caller during communicator init without a "
                        "WARN on gpu01: 1 process, traceback init.cc:1501 ... group.cc:422; a CUDA call failed inside "
                        "NCCL (driver and CUDA versions, GPU memory, a faulty GPU); the init failed");
  CHECK(f[0].evidence.size() == 2);
  // NCCL got past it: the same init completed.
  auto recovered = model_from({
      "gpu01:2336:2336 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xa1 - Init START",
      "gpu01:2336:2377 [0] NCCL INFO init.cc:1501 -> 1",
      "gpu01:2336:2336 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xa1 - Init COMPLETE",
  });
  CHECK(run_rule("nccl-warning", recovered).empty());
  // With a WARN, its own finding says it, with the frames.
  auto warned = model_from({
      "gpu01:2336:2377 [0] misc/socket.cc:50 NCCL WARN Net : Connection closed by remote peer 10.0.0.2<5678>",
      "gpu01:2336:2377 [0] NCCL INFO init.cc:1501 -> 6",
      "gpu01:2336:2377 [0] NCCL INFO group.cc:64 -> 6 [Async thread]",
  });
  f = run_rule("nccl-warning", warned);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("without a WARN") == std::string::npos);
}

TEST_CASE("CollNet's fallback on a host: the other local ranks' tracebacks from its setup failed nothing") {
  // Local rank 0 prints the WARN; rank 7's traceback stays in init.
  auto m = model_from({
      "node-b:200:210 [7] NCCL INFO transport.cc:291 -> 2",
      "node-b:200:210 [7] NCCL INFO init.cc:670 -> 2",
      "node-b:100:110 [0] transport.cc:323 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
  });
  auto f = run_rule("nccl-warning", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message.find("Cannot initialize CollNet") != std::string::npos);
  // The other local ranks may show only their init frame.
  CHECK(run_rule("nccl-warning", model_from({
                                     "node-b:300:310 [5] NCCL INFO init.cc:670 -> 2",
                                     "node-b:100:110 [0] transport.cc:323 NCCL WARN Cannot initialize CollNet, using "
                                     "point-to-point network instead",
                                 }))
            .size() == 1);
  // A traceback that went on to the group call failed it, fallback or not.
  auto failed = model_from({
      "node-b:200:210 [7] NCCL INFO transport.cc:291 -> 2",
      "node-b:200:210 [7] NCCL INFO init.cc:670 -> 2",
      "node-b:200:210 [7] NCCL INFO group.cc:64 -> 2 [Async thread]",
      "node-b:100:110 [0] transport.cc:323 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
  });
  CHECK(run_rule("nccl-warning", failed).size() == 2);
  // The fallback of another host says nothing of this one.
  auto elsewhere = model_from({
      "node-c:200:210 [7] NCCL INFO transport.cc:291 -> 2",
      "node-c:200:210 [7] NCCL INFO init.cc:670 -> 2",
      "node-b:100:110 [0] transport.cc:323 NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
  });
  CHECK(run_rule("nccl-warning", elsewhere).size() == 2);
}

TEST_CASE("2.11's remote allocation thread reports and stops: its caller is not told") {
  auto f = run_rule("nccl-warning", model_from({
                                        "node-a:39:298 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'",
                                        "node-a:39:298 [0] NCCL INFO bootstrap.cc:231 -> 1",
                                        "node-a:39:298 [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed "
                                        "(segment 0, fd 130)",
                                    }));
  REQUIRE(f.size() == 2);
  for (const auto& finding : f) {
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.message.find("returned the error") == std::string::npos);
  }
}

TEST_CASE("PyTorch's watchdog stuck in a NCCL or CUDA call is an error") {
  auto f = run_rule("nccl-warning",
                    model_from({"[rank0]:[E205 18:11:06.375964157 ProcessGroupNCCL.cpp:1870] [PG ID 0 PG GUID 0(default_pg) "
                                "Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in "
                                "monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., "
                                "CudaEventDestroy) hang blocking the watchdog."}));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message ==
        "PyTorch's NCCL watchdog got stuck for 480 s on rank 0: a NCCL or CUDA call blocks it, so the process hangs (a "
        "collective some rank never joined, a stalled link, or a GPU fault); take stacks of the hung processes (py-spy "
        "dump --native) and look for the rank that is elsewhere");
  CHECK(f[0].evidence.size() == 1);
}
