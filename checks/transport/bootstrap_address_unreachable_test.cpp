#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {

// NCCL 2.19: gn01's IPoIB interface has only its link-local address; gn02
// bootstraps on IPv4.
const std::vector<std::string> kLinkLocalRoot{
    "gn01:41873:41873 [0] NCCL INFO Bootstrap : Using ib0:fe80::a288:c203:d2:aaf2%ib0<0>",
    "gn02:9746:9746 [0] NCCL INFO Bootstrap : Using bond0:10.42.7.12<0>",
    "gn02:9746:9769 [0] NCCL INFO comm 0x55f1c2a0 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId "
    "0x7b1e5a9d00c3f2e1 - Init START",
};

}  // namespace

TEST_CASE("a link-local bootstrap in a job across hosts: an error beside init failing, else a note") {
  auto note = run_rule("bootstrap-address-unreachable", model_from_lines(kLinkLocalRoot));
  REQUIRE(note.size() == 1);
  CHECK(note[0].severity == Severity::Info);
  CHECK(note[0].message ==
        "gn01 bootstraps on ib0 (fe80::a288:c203:d2:aaf2%ib0): a link-local address (valid on one link only); the "
        "ranks of other hosts connect to it in init; no communicator across hosts completed init in this log, so "
        "whether they could was not checked; if the job hangs or times out at start, this is a likely cause: set "
        "NCCL_SOCKET_IFNAME=bond0 (or NCCL_SOCKET_FAMILY=AF_INET)");
  CHECK(note[0].hosts == std::vector<std::string>{"gn01"});
  CHECK(note[0].evidence.size() == 1);

  auto failing = kLinkLocalRoot;
  failing.push_back("gn02:9746:9769 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                    "fe80::a288:c203:d2:aaf2%ib0<45621> failed : Network is unreachable");
  failing.push_back("gn02:9746:9769 [0] NCCL INFO bootstrap.cc:274 -> 2");
  auto error = run_rule("bootstrap-address-unreachable", model_from_lines(failing));
  REQUIRE(error.size() == 1);
  CHECK(error[0].severity == Severity::Error);
  CHECK(error[0].message ==
        "gn01 bootstraps on ib0 (fe80::a288:c203:d2:aaf2%ib0): a link-local address (valid on one link only); the "
        "ranks of other hosts connect to it in init, and a socket WARN shows init failing: a likely cause; set "
        "NCCL_SOCKET_IFNAME=bond0 (or NCCL_SOCKET_FAMILY=AF_INET)");
  REQUIRE(error[0].evidence.size() == 2);
  CHECK(error[0].evidence[1].line == 4);
}

TEST_CASE("hosts on one docker bridge are one finding; a failed call counts as init failing") {
  auto found = run_rule("bootstrap-address-unreachable",
                        model_from({
                            "node-a:10:10 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>",
                            "node-b:20:20 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>",
                            "node-b:20:21 [0] NCCL INFO init.cc:1501 -> 2",
                            "node-b:20:21 [0] NCCL INFO group.cc:64 -> 2 [Async thread]",
                        }));
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Error);
  CHECK(found[0].message ==
        "node-a, node-b bootstrap on docker0 (node-a's 172.17.0.1): an address on a container or VM bridge private "
        "to this host; the ranks of other hosts connect to it in init, and NCCL returned an error to the caller "
        "shows init failing: a likely cause; set NCCL_SOCKET_IFNAME to the interface of the network between hosts");
  CHECK(found[0].hosts == std::vector<std::string>{"node-a", "node-b"});
}

TEST_CASE("a bootstrap that worked, or one host, or a routable address is no finding") {
  // Identical hosts on one IPoIB link: the same interface number, init completes.
  CHECK(run_rule("bootstrap-address-unreachable",
                 model_from({
                     "gn01:1:1 [0] NCCL INFO Bootstrap : Using ib0:fe80::1%ib0<0>",
                     "gn02:2:2 [0] NCCL INFO Bootstrap : Using ib0:fe80::2%ib0<0>",
                     "gn01:1:3 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
                     "gn02:2:4 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
                 }))
            .empty());
  // One host: its ranks reach its own addresses.
  CHECK(run_rule("bootstrap-address-unreachable",
                 model_from({
                     "gn01:1:1 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>",
                     "gn01:1:3 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 127.0.0.1<4> failed : x",
                 }))
            .empty());
  CHECK(run_rule("bootstrap-address-unreachable",
                 model_from({
                     "gn01:1:1 [0] NCCL INFO Bootstrap : Using ib0:fd00:12::1<0>",
                     "gn02:2:2 [0] NCCL INFO Bootstrap : Using lo:10.20.0.7<0>",
                 }))
            .empty());
}
