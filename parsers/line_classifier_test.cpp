#include "parsers/line_classifier.h"

#include <doctest/doctest.h>

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
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("Connected all rings")));
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message(
      "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 1 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1")));
  CHECK(std::holds_alternative<IgnoredEvent>(classify_message("init.cc:1234 -> 3")));
  CHECK(std::holds_alternative<UnknownEvent>(classify_message("Frobnicating the widget")));
}
