#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("a connection to another host on a docker veth's link-local address is an error naming the interface to use") {
  // NCCL 2.7.8, one node's output: device 1 of its socket list carries channel 00.
  auto m = model_from({
      "worker:101542:101542 [0] NCCL INFO NET/IB : No device found.",
      "worker:101542:101542 [0] NCCL INFO NET/Socket : Using [0]eno1:172.18.40.41<0> [1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>",
      "worker:101542:101542 [0] NCCL INFO Using network Socket",
      "worker:101542:101934 [0] NCCL INFO Channel 00 : 0[18000] -> 1[18000] [receive] via NET/Socket/1",
      "worker:101542:101934 [0] NCCL INFO Channel 00 : 1[18000] -> 0[18000] [send] via NET/Socket/1",
  });
  auto f = run_rule("socket-interface-unreachable", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message ==
        "rank 1 on worker connects to other hosts over NET/Socket/1, veth25f2e72 "
        "(fe80::380d:bfff:fe5b:54d2%veth25f2e72): a link-local address (valid on one link only) on a container or VM "
        "bridge private to this host; other hosts cannot reach it, so these connections fail or hang (channel 00, 2 "
        "connections); set NCCL_SOCKET_IFNAME=eno1");
  CHECK(f[0].evidence.size() == 3);
  CHECK(f[0].hosts == std::vector<std::string>{"worker"});
}

TEST_CASE("a host-private interface listed in a job across hosts: a warning beside socket failures, else a note") {
  std::vector<std::string> listed{
      "gpu-a:3100:3100 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]docker0:172.17.0.1<0>",
      "gpu-a:3100:3100 [0] NCCL INFO Using network Socket",
      "gpu-b:3200:3200 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.12<0>",
      "gpu-b:3200:3200 [0] NCCL INFO Using network Socket",
  };
  auto note = run_rule("socket-interface-unreachable", model_from_lines(listed));
  REQUIRE(note.size() == 1);
  CHECK(note[0].severity == Severity::Info);
  CHECK(note[0].message ==
        "NCCL's socket network on gpu-a lists docker0 (172.17.0.1): an address on a container or VM bridge private to "
        "this host; the log shows no connection on it and no init that completed, so whether NCCL put channels on it "
        "was not checked; if connections between hosts hang, set NCCL_SOCKET_IFNAME=eth0");

  listed.push_back("gpu-b:3200:3250 [0] misc/socket.cc:538 NCCL WARN Net : Connect to 172.17.0.1<45123> failed : Connection refused");
  auto warning = run_rule("socket-interface-unreachable", model_from_lines(listed));
  REQUIRE(warning.size() == 1);
  CHECK(warning[0].severity == Severity::Warning);
  CHECK(warning[0].message ==
        "NCCL's socket network on gpu-a lists docker0 (172.17.0.1): an address on a container or VM bridge private to "
        "this host; NCCL spreads channels over every interface it lists, and connections from other hosts over this "
        "one fail or hang: a likely cause of the socket failures this log shows; set NCCL_SOCKET_IFNAME=eth0");
}

TEST_CASE("a listed host-private interface that no connection used, or after an init that completed, is no finding") {
  // Every connection of gpu-a went on device 0.
  CHECK(run_rule("socket-interface-unreachable",
                 model_from({
                     "gpu-a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]docker0:172.17.0.1<0>",
                     "gpu-a:1:1 [0] NCCL INFO Using network Socket",
                     "gpu-a:1:2 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/Socket/0",
                     "gpu-a:1:2 [0] NCCL INFO Channel 01/0 : 0[18000] -> 1[18000] [send] via NET/Socket/0",
                     "gpu-b:2:2 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/Socket/0",
                 }))
            .empty());
  CHECK(run_rule("socket-interface-unreachable",
                 model_from({
                     "gpu-a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]docker0:172.17.0.1<0>",
                     "gpu-a:1:1 [0] NCCL INFO Using network Socket",
                     "gpu-b:2:2 [0] NCCL INFO Using network Socket",
                     "gpu-a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
                 }))
            .empty());
}

TEST_CASE("loopback inside one host, a routable address on lo, and an RDMA job are not findings") {
  // P2P and SHM off on one host: NET/Socket over 127.0.0.1 stays inside it.
  CHECK(run_rule("socket-interface-unreachable", model_from({
                                                     "gpu01:1:1 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>",
                                                     "gpu01:1:1 [0] NCCL INFO Using network Socket",
                                                     "gpu01:1:2 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[19000] [send] via NET/Socket/0",
                                                     "gpu01:2:3 [1] NCCL INFO Channel 00/0 : 1[19000] -> 0[18000] [send] via NET/Socket/0",
                                                     "gpu01:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
                                                     "gpu01:2:2 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 19000 commId 0x5 - Init COMPLETE",
                                                 }))
            .empty());
  // BGP-unnumbered hosts keep their routable address on lo.
  CHECK(run_rule("socket-interface-unreachable",
                 model_from({
                     "axa:1:1 [0] NCCL INFO NET/Socket : Using [0]lo:10.20.0.7<0>",
                     "axa:1:2 [0] NCCL INFO Channel 00/0 : 0[7000] -> 1[1b000] [send] via NET/Socket/0",
                 }))
            .empty());
  // The socket list NCCL prints beside IB is the bootstrap's, not a data path.
  CHECK(run_rule("socket-interface-unreachable",
                 model_from({
                     "gpu-a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]docker0:172.17.0.1<0>",
                     "gpu-a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.1.11<0>",
                     "gpu-a:1:1 [0] NCCL INFO Using network IB",
                     "gpu-a:1:2 [0] NCCL INFO Channel 00/0 : 0[7000] -> 1[1b000] [send] via NET/IB/0/GDRDMA",
                     "gpu-b:2:2 [0] NCCL INFO Channel 00/0 : 0[7000] -> 1[1b000] [receive] via NET/IB/0/GDRDMA",
                 }))
            .empty());
}

TEST_CASE("a connection line that lost its host prefix reads the one socket list the log has") {
  auto f = run_rule("socket-interface-unreachable",
                    model_from({
                        "ip-172-31-0-137:14605:14673 [0] NCCL INFO NET/Socket : Using [0]ens5:172.31.0.137<0> [1]lo:127.0.0.1<0>",
                        "ip-172-31-0-137:14605:14673 [0] NCCL INFO Using network Socket",
                        " [0] NCCL INFO Channel 01 : 0[1e0] -> 1[1e0] [send] via NET/Socket/1",
                    }));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message.starts_with("rank 0 on ip-172-31-0-137 connects to other hosts over NET/Socket/1, lo (127.0.0.1): "
                                 "a loopback address (every host has its own);"));
}

TEST_CASE("lists printed without a host that differ are several hosts': none is read") {
  auto f = run_rule("socket-interface-unreachable",
                    model_from({
                        " [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]virbr0:192.168.122.1<0>",
                        " [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.12<0> [1]eth1:10.0.2.12<0>",
                        " [0] NCCL INFO Using network Socket",
                        " [0] NCCL INFO Channel 01 : 0[1e0] -> 1[1e0] [send] via NET/Socket/1",
                    }));
  for (const auto& x : f) CHECK(x.severity != Severity::Error);
}

TEST_CASE("a socket failure after connections on other devices does not blame a listed interface") {
  CHECK(run_rule("socket-interface-unreachable",
                 model_from({
                     "gpu-a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0> [1]docker0:172.17.0.1<0>",
                     "gpu-a:1:1 [0] NCCL INFO Using network Socket",
                     "gpu-a:1:2 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [send] via NET/Socket/0",
                     "gpu-b:2:3 [0] NCCL INFO Channel 00/0 : 0[18000] -> 1[18000] [receive] via NET/Socket/0",
                     "gpu-a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
                     "gpu-b:2:2 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 18000 commId 0x5 - Init COMPLETE",
                     "gpu-b:2:3 [0] misc/socket.cc:538 NCCL WARN socketProgress: Connection closed by remote peer 10.0.1.11<45123>",
                 }))
            .empty());
}

TEST_CASE("a list printed without a host prefix is read for lines without one, among named hosts") {
  auto f = run_rule("socket-interface-unreachable",
                    model_from({
                        "gpu-a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.11<0>",
                        "gpu-b:2:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.12<0>",
                        " [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.1.13<0> [1]lo:127.0.0.1<0>",
                        " [0] NCCL INFO Channel 01 : 0[1e0] -> 1[1e0] [send] via NET/Socket/1",
                    }));
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message.starts_with("rank 0 (host unknown) connects to other hosts over NET/Socket/1, lo (127.0.0.1): "));
  CHECK(f[0].hosts.empty());
}
