#include "parsers/line_classifier.h"

#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "parsers/mutation.h"

using namespace nd;

TEST_CASE("2.4 P2P connection with NVML-minor brackets") {
  auto ev = classify_message("Ring 00 : 0[0] -> 1[1] via P2P/IPC");
  auto* c = std::get_if<ConnectionEvent>(&ev);
  REQUIRE(c);
  CHECK(c->channel == 0);
  CHECK(c->sender == 0);
  CHECK(c->receiver == 1);
  CHECK(c->sender_bracket == 0u);
  CHECK(c->conn_index == -1);
  CHECK(c->direction == Direction::None);
  CHECK(c->transport == "P2P/IPC");
  CHECK(c->legacy_ring_keyword);
}

TEST_CASE("2.4 NET connection has no brackets") {
  auto ev = classify_message("Ring 01 : 16 -> 0 [send] via NET/IB/0");
  auto* c = std::get_if<ConnectionEvent>(&ev);
  REQUIRE(c);
  CHECK(c->channel == 1);
  CHECK(c->sender == 16);
  CHECK(c->receiver == 0);
  CHECK_FALSE(c->sender_bracket);
  CHECK(c->direction == Direction::Send);
  CHECK(c->transport == "NET/IB/0");
}

TEST_CASE("2.12+ NET connection with connIdx, busId brackets and PXN") {
  auto ev = classify_message("Channel 03/1 : 15[1a000] -> 0[1b000] [receive] via NET/IBext/0(8)/GDRDMA");
  auto* c = std::get_if<ConnectionEvent>(&ev);
  REQUIRE(c);
  CHECK(c->channel == 3);
  CHECK(c->conn_index == 1);
  CHECK(c->bracket_hex);
  CHECK(c->sender_bracket == 0x1a000u);
  CHECK(c->direction == Direction::Receive);
  CHECK(c->transport == "NET/IBext/0(8)/GDRDMA");
}

TEST_CASE("numbers past 64 bits or past the model's bounds are malformed") {
  CHECK(std::holds_alternative<MalformedEvent>(
      classify_message("Channel 00/0 : 99999999999999999999999 -> 1[1] via P2P/IPC")));
  CHECK(std::holds_alternative<MalformedEvent>(classify_message("Channel 5000 : 0[0] -> 1[1] via P2P/IPC")));
  CHECK(std::holds_alternative<MalformedEvent>(
      classify_message("comm 0x1 rank 9 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE")));
  CHECK(std::holds_alternative<UnknownEvent>(classify_message("Channel 00 : -1 -> 1 via P2P/IPC")));
}

TEST_CASE("ring listing in the 2.4, 2.5 and 2.23 layouts") {
  auto ev = classify_message("Channel 00 :    0   1");
  auto* l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->ranks == std::vector<uint32_t>{0, 1});
  CHECK_FALSE(l->channel_count);
  ev = classify_message("Channel 01/32 :    0   1   2   3");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->channel == 1);
  CHECK(l->channel_count == 32u);
  ev = classify_message("Channel 00/24 : 0 1 2 3 ...");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->truncated);
}

TEST_CASE("2.23+ ring listings as dumpLine cuts them: at 127 characters, `...` over a cut number") {
  // 128 ranks, width 3: 28 ranks fill the 127 characters exactly; no dots.
  std::string exact = "Channel 00/02 :";
  for (int r = 0; r < 28; ++r) exact += fmt::format(" {:3d}", r);
  REQUIRE(exact.size() == 127);
  auto ev = classify_message(exact);
  auto* l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->ranks.size() == 28);
  CHECK(l->truncated);
  CHECK_FALSE(l->four_byte_slots);
  // 1280 ranks, width 4: `102...` is rank 1020 cut in two; it is dropped.
  ev = classify_message("Channel 00/02 :    0 1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 1013 "
                        "1014 1015 1016 1017 1018 1019 102...");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->ranks.size() == 21);
  CHECK(l->ranks.back() == 1019);
  CHECK(l->truncated);
  // Dots after a space: the number before them is whole.
  ev = classify_message("Channel 00/24 : 0 1 2 3 ...");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->ranks == std::vector<uint32_t>{0, 1, 2, 3});
  // A short 2.23 listing is whole.
  ev = classify_message("Channel 01/24 : 0 1 2 3");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK_FALSE(l->truncated);
}

TEST_CASE("<=2.22 ring listings: 4-byte slots, 20 ranks at most") {
  std::string capped = "Channel 00/02 : ";
  for (int r = 0; r < 20; ++r) capped += fmt::format(" {:3d}", r);
  auto ev = classify_message(capped);
  auto* l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->four_byte_slots);
  CHECK(l->truncated);
  CHECK(l->ranks.size() == 20);
  // Ranks 1000 and 1001: the next slot's space overwrote the first one's last digit.
  ev = classify_message("Channel 00/02 :    0 100 1001");
  l = std::get_if<RingListingEvent>(&ev);
  REQUIRE(l);
  CHECK(l->four_byte_slots);
  CHECK(l->ranks == std::vector<uint32_t>{0, 100, 1001});
  CHECK_FALSE(l->truncated);
}

TEST_CASE("GRAPH ring line") {
  auto ev = classify_message("Ring 05 : 7 -> 0 -> 1");
  auto* g = std::get_if<GraphRingEvent>(&ev);
  REQUIRE(g);
  CHECK(g->channel == 5);
  CHECK(g->prev == 7);
  CHECK(g->me == 0);
  CHECK(g->next == 1);
}

TEST_CASE("Trees in all three generations") {
  auto ev = classify_message("Trees [0] -1->0->1/-1/-1 [1] -1->0->1/-1/-1");  // 2.4
  auto* t = std::get_if<TreesEvent>(&ev);
  REQUIRE(t);
  REQUIRE(t->entries.size() == 2);
  CHECK(t->entries[0].up == -1);
  CHECK(t->entries[0].me == 0);
  CHECK(t->entries[0].down[0] == 1);
  ev = classify_message("Trees [0] -1/-1/-1->1->0|0->1->-1/-1/-1");  // 2.5-2.7
  t = std::get_if<TreesEvent>(&ev);
  REQUIRE(t);
  CHECK(t->entries[0].me == 1);
  CHECK(t->entries[0].up == 0);
  ev = classify_message("Trees [0] 2/-1/-1->1->0 [1] 2/-1/-1->1->0");  // 2.8+
  t = std::get_if<TreesEvent>(&ev);
  REQUIRE(t);
  CHECK(t->entries[1].channel == 1);
  CHECK(t->entries[1].down[0] == 2);
  CHECK(t->entries[1].up == 0);
}

namespace {

// Both refuse, or both give the same entries.
void trees_readers_agree(std::string_view rest) {
  TreesEvent fast, general;
  bool read = parse_trees(rest, fast);
  CAPTURE(rest);
  REQUIRE(read == parse_trees_general(rest, general));
  if (!read) return;
  REQUIRE(fast.entries.size() == general.entries.size());
  for (size_t i = 0; i < fast.entries.size(); ++i) {
    const TreeEntry& a = fast.entries[i];
    const TreeEntry& b = general.entries[i];
    CHECK((a.channel == b.channel && a.me == b.me && a.up == b.up && a.down[0] == b.down[0] &&
           a.down[1] == b.down[1] && a.down[2] == b.down[2] && a.nvls == b.nvls));
  }
}

}  // namespace

TEST_CASE("the forward Trees reader gives the general reader's entries on every bundled line and its mutations") {
  std::vector<std::string> seeds;
  for (const std::string& line : nd::test::bundled_lines()) {
    size_t at = line.find("Trees ");
    if (at != std::string::npos) seeds.push_back(line.substr(at + 6));
  }
  REQUIRE(seeds.size() > 50);
  // Hand-made edge cases: signs, zeros, long numbers, limits, odd spacing.
  for (const char* rest : {"[0] 1/2/3->0->-1", "[0]1/2/3->0->-1", "[0]  -1->0->1/2/3/4/5", "[0] -0->-0->-0",
                           "[007] 01/02->03->04", "[1023] 1->0->2", "[1024] 1->0->2", "[0] 4194303->4194302->-1",
                           "[0] 4194304->1->-1", "[0] 1->1->-2", "[0] 99999999999->1->2", "[0] 1->2->3 junk [1] 1->2->3",
                           "[0] 1/2->3->4/5", "[0] 1->-1->2", "[0] ->1->2", "[0] 1->2->", "[-1] 1->2->3", "[] 1->2->3",
                           "[0] 1/2/3->0->-1|x", "[0] 1--2->3->4", "[0] 1/->2->3", "[0] 1->2->3/",
                           // Items that repeat the one before, or nearly.
                           "[0] 1/2/3->0->-1 [1] 1/2/3->0->-1 [2] 1/2/3->0->-1", "[0] 1->2->3 [1] 1->2->34",
                           "[0] 1->2->34 [1] 1->2->3", "[0] 1->2->3 [1] 1->2->3junk", "[0] 1->2->3 [1] 1->2->3|x",
                           "[1023] 1->0->2 [1024] 1->0->2", "[0] 1->0->2 [1]  1->0->2 [2]1->0->2",
                           "[0] 1->2->3|x [1] 1->2->3|x", "[0] 1->2->3 [-1] 1->2->3", "[0] 1->2->3 [1] 1->2->3 ",
                           "[0] 1->2->3  [1] 1->2->3"}) {
    trees_readers_agree(rest);
  }
  std::mt19937 rng(7);
  const std::string alphabet = "0123456789-/>[] |x";
  for (int i = 0; i < 60000; ++i) trees_readers_agree(nd::test::mutated(seeds[rng() % seeds.size()], alphabet, rng));
}

TEST_CASE("Init lines of every generation") {
  auto ev = classify_message("comm 0x7f3fd4001980 rank 0 nranks 2 cudaDev 0 nvmlDev 0 - Init COMPLETE");
  auto* i = std::get_if<InitEvent>(&ev);
  REQUIRE(i);
  CHECK(i->nranks == 2);
  CHECK(i->nvml_dev == 0);
  CHECK_FALSE(i->bus_id);
  CHECK(i->phase == InitPhase::Complete);

  ev = classify_message(
      "ncclCommInitRankConfig comm 0x55d7869cef50 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 101c0 commId "
      "0x52e965372ad155ed - Init START");
  i = std::get_if<InitEvent>(&ev);
  REQUIRE(i);
  CHECK(i->api == "ncclCommInitRankConfig");
  CHECK(i->rank == 3);
  CHECK(i->bus_id == 0x101c0u);
  CHECK(i->comm_id == 0x52e965372ad155edull);
  CHECK(i->phase == InitPhase::Start);

  ev = classify_message(
      "[Rank 1] ncclCommInitRank comm 0x1 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0xabc - Init START");
  REQUIRE(std::holds_alternative<InitEvent>(ev));

  ev = classify_message(
      "ncclCommSplit comm 0x2 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0x1 splitCount 1 color 0 key 0- Init START");
  i = std::get_if<InitEvent>(&ev);
  REQUIRE(i);
  CHECK(i->api == "ncclCommSplit");
  CHECK_FALSE(i->comm_id);
}

TEST_CASE("network, version, driver and environment lines") {
  auto ev = classify_message("Using network AWS Libfabric");
  REQUIRE(std::holds_alternative<UsingNetworkEvent>(ev));
  CHECK(std::get<UsingNetworkEvent>(ev).name == "AWS Libfabric");
  ev = classify_message("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.4.19<0>");
  REQUIRE(std::holds_alternative<NetUsingEvent>(ev));
  CHECK(std::get<NetUsingEvent>(ev).net == "IB");
  ev = classify_message("NCCL version 2.19.3+cuda12.3");
  REQUIRE(std::holds_alternative<VersionEvent>(ev));
  CHECK(std::get<VersionEvent>(ev).version == "2.19.3");
  CHECK(std::get<VersionEvent>(ev).cuda == "12.3");
  ev = classify_message("NCCL_IB_DISABLE set by environment to 1.");
  REQUIRE(std::holds_alternative<EnvEvent>(ev));
  CHECK(std::get<EnvEvent>(ev).name == "NCCL_IB_DISABLE");
  CHECK(std::get<EnvEvent>(ev).value == "1");
  ev = classify_message("NCCL_SOCKET_IFNAME set to ib0");
  REQUIRE(std::holds_alternative<EnvEvent>(ev));
  CHECK(std::get<EnvEvent>(ev).value == "ib0");
  ev = classify_message("cudaDriverVersion 12040");
  REQUIRE(std::holds_alternative<CudaDriverEvent>(ev));
  CHECK(std::get<CudaDriverEvent>(ev).version == 12040u);
}

TEST_CASE("known but unused lines are ignored, new shapes are unknown") {
  for (std::string_view line : {"Threads per block : 512/640/512", "Intel/Skylake (or later) CPU (PCI 12, InterCpu 9)",
                                "Intel CPU (PCI 12, InterCpu 8)",
                                "/sys/devices/pci0000:00/0000:00:1f.6 -> 0/0/0/0",
                                "Check P2P Type intraNodeP2pSupport 0 directMode 0",
                                "Check P2P Type isAllDirectP2p 1 directMode 0 isAllCudaP2p 1",
                                "nvmlDeviceGetNvLinkCapability() failed: Not Supported",
                                "CUDA Graph helper thread created for device 0",
                                "Communicator has 2 nodes which is less than CollNet node threshold 4, disabling CollNet",
                                "PXN Disabled as plugin is v4", "Loading topology file /etc/nccl/topo.xml",
                                "bootstrapSplit: comm 0x55d0 parent 0x55c0 rank 1 nranks 4 color 1 key 1 prev 0 next 2 - DONE",
                                "TOPO/NET : Importing network plugins to topology", "timings: rank 0 nranks 8 P2p connect done in 0.12",
                                "AllReduce [Symmetric]: 1048576 Bytes -> Kernel AllReduce_AGxLL_R nchannels 16 nthreads 512",
                                "GPU 0 / HCA 0 connected to CPU 0 via C2C link",
                                "alloc.h:58 Cuda Alloc Size 4194304 pointer 0x7f3c4a000000",
                                "enqueue.cc:1120 Cuda Host Alloc Size 2048 pointer 0x7f3c4a000000 seconds: cudaHostAlloc=0.01",
                                "Register ptr 0x7f3c4a000000 size 4194304 on 4 net devices"}) {
    CAPTURE(line);
    CHECK(std::holds_alternative<IgnoredEvent>(classify_message(line)));
  }
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("Connected all rings")));
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message(
      "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 1 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1")));
  CHECK(std::holds_alternative<UnknownEvent>(classify_message("Frobnicating the widget")));
  CHECK(std::holds_alternative<UnknownEvent>(classify_message("frob.cc:12 Frobnicating the widget")));
  CHECK(std::holds_alternative<UnknownEvent>(classify_message("socketFinalizeAccept: didn't receive a valid magic from 10.0.0.2<4321>")));
}

TEST_CASE("traceback frames of every generation, and what only looks like one") {
  struct Case {
    std::string_view msg, file;
    uint32_t line, code;
    std::string_view thread;
    bool failing;
  };
  const Case cases[] = {
      {"init.cc:1234 -> 3", "init.cc", 1234, 3, "", true},
      {"init.cu:1160 -> 2", "init.cu", 1160, 2, "", true},  // 2.4
      {"transport/net.cc:687 -> 3", "transport/net.cc", 687, 3, "", true},
      {"transport/net_socket.cc:331 -> 3", "transport/net_socket.cc", 331, 3, "", false},
      {"misc/socket.cc:564 -> 2 (Connection refused)", "misc/socket.cc", 564, 2, "", false},  // 2.18+ strerror
      {"group.cc:64 -> 2 [Async thread]", "group.cc", 64, 2, "Async thread", true},
      {"transport/net_ib.cc:1047 -> 2 [Proxy Thread]", "transport/net_ib.cc", 1047, 2, "Proxy Thread", true},
      {"transport/net_ib/p2p.cc:700 (ncclIbTest) -> 6", "transport/net_ib/p2p.cc", 700, 6, "", false},  // 2.30.7
      {"external/nccl_archive/src/init.cc:878 -> 2", "external/nccl_archive/src/init.cc", 878, 2, "", true},
      {"bazel-out/k8-opt/bin/external/nccl_archive/_virtual_includes/include_hdrs/net.h:21 -> 2",
       "bazel-out/k8-opt/bin/external/nccl_archive/_virtual_includes/include_hdrs/net.h", 21, 2, "", false},
      {"ras/ras.cc:300 -> 2", "ras/ras.cc", 300, 2, "", false},   // RAS is a side thread
      {"mygroup.cc:10 -> 2", "mygroup.cc", 10, 2, "", false},      // not NCCL's group.cc
  };
  for (const auto& c : cases) {
    CAPTURE(c.msg);
    auto ev = classify_message(c.msg);
    REQUIRE(std::holds_alternative<ReturnTraceEvent>(ev));
    const auto& t = std::get<ReturnTraceEvent>(ev);
    CHECK(t.file == c.file);
    CHECK(t.line == c.line);
    CHECK(t.code == c.code);
    CHECK(t.thread == c.thread);
    CHECK(t.on_failing_path == c.failing);
  }
  for (std::string_view msg : {"init.cc:1234 -> ", "init.cc -> 3", "Ring 00 : 0 -> 1 -> 2", "a b.cc:1 -> 2",
                               "init.cc:12 -> 3 trailing words", "x:1 -> 2"}) {
    CAPTURE(msg);
    CHECK_FALSE(std::holds_alternative<ReturnTraceEvent>(classify_message(msg)));
  }
}

TEST_CASE("affinity lines: 2.4-2.26 hex masks, 2.27 range lists, 2.28 ncclTopoGetCpuAffinity") {
  auto mask = std::get<AffinityEvent>(classify_message("Setting affinity for GPU 3 to ffff,ffffffff"));
  CHECK(mask.gpu == 3);
  CHECK(mask.hex_mask);
  CHECK(mask.affinity == "ffff,ffffffff");
  auto list = std::get<AffinityEvent>(classify_message("Setting affinity for GPU 0 to 0-23,48-71"));
  CHECK_FALSE(list.hex_mask);
  auto v228 = std::get<AffinityEvent>(classify_message(
      "ncclTopoGetCpuAffinity: Affinity for GPU 1 is empty, ignoring. (GPU affinity = 0-23,48-71 ; CPU affinity = 24-47)."));
  CHECK(v228.gpu == 1);
  CHECK(v228.empty);
  CHECK(v228.affinity.empty());
  CHECK(v228.gpu_affinity == "0-23,48-71");
  CHECK(v228.cpu_affinity == "24-47");
  auto ignore = std::get<AffinityEvent>(
      classify_message("ncclTopoGetCpuAffinity: Affinity for GPU 0 is 0-23. (GPU affinity = 0-23)."));
  CHECK(ignore.affinity == "0-23");
  CHECK(ignore.cpu_affinity.empty());
}

TEST_CASE("graph search Pattern lines with `speed` (2.6-2.13) and `bw` (2.14+)") {
  auto bw = std::get<GraphPatternEvent>(classify_message(
      "Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000, type NVL/PIX, sameChannels 1"));
  CHECK(bw.pattern == 4);
  CHECK(bw.nchannels == 16);
  CHECK(bw.bw_intra == doctest::Approx(40.0));
  CHECK(bw.type_intra == "NVL");
  CHECK(bw.type_inter == "PIX");
  auto speed = std::get<GraphPatternEvent>(classify_message(
      "Pattern 3, crossNic 1, nChannels 2, speed 12.000000/6.000000, type SYS/PHB, sameChannels 0"));
  CHECK(speed.cross_nic == 1);
  CHECK(speed.bw_inter == doctest::Approx(6.0));
  CHECK(speed.type_intra == "SYS");
  // 2.5's numeric form is known but not read.
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("Pattern 4, crossNic 0, nChannels 2, speed 12/12, nvlink 1, type 1")));
}

TEST_CASE("NVLS Trees (2.18+) read as trees of channels 0 and 1") {
  auto t = std::get<TreesEvent>(classify_message("NVLS Trees : 8/-1/-1->0->-1 -1/-1/-1->0->8"));
  REQUIRE(t.entries.size() == 2);
  CHECK(t.entries[0].nvls);
  CHECK(t.entries[0].channel == 0);
  CHECK(t.entries[0].down[0] == 8);
  CHECK(t.entries[1].channel == 1);
  CHECK(t.entries[1].up == 8);
}
