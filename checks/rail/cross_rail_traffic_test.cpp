#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// A retry-exceeded completion on gpuA (2.18.3 form): what cross-rail links
// cost on a rail-only fabric.
constexpr std::string_view kRetryExceeded =
    "gpuA:100:160 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.11<49513> with error "
    "12, opcode 0, len 0, vendor err 129 (Send) localGid ::ffff:10.1.0.10 remoteGid ::ffff:10.1.0.11";

// NCCL 2.18.3 lines: rank 0 on gpuA sends to rank 1 on gpuB.
JobModel pair(std::string_view send, std::string_view receive, bool listed = true,
              std::string_view warn = kRetryExceeded) {
  std::vector<std::string_view> lines;
  if (listed) {
    lines.push_back("gpuA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.10<0>");
    lines.push_back("gpuB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.1.0.11<0>");
  }
  lines.push_back("gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE");
  lines.push_back("gpuB:200:200 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE");
  lines.push_back(send);
  lines.push_back(receive);
  if (!warn.empty()) lines.push_back(warn);
  return model_from_lines(lines);
}
}  // namespace

TEST_CASE("cross-rail-traffic fires when the send NIC and the receive NIC differ") {
  auto m = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA");
  auto f = run_rule("cross-rail-traffic", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Warning);
  CHECK(f[0].message == "rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NIC mlx5_0 -> NIC mlx5_1 (1 connection); IB "
                        "connections of gpuA, gpuB timed out (completion status 12 (IBV_WC_RETRY_EXC_ERR) at job.log:7): "
                        "on a rail-optimised fabric NICs of different rails may not reach each other");
  // The timeout first: it is what the cross-rail link costs.
  REQUIRE(f[0].evidence.size() == 3);
  CHECK(f[0].evidence[0].line == 7);
  CHECK(f[0].related == std::vector<std::string>{"ND3120"});
  auto unlisted = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                       "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA", false);
  f = run_rule("cross-rail-traffic", unlisted);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.starts_with("rank 0 on gpuA -> rank 1 on gpuB, channel 00, via NIC NET/IB/0 -> NIC NET/IB/1 (1 connection); "));
}

TEST_CASE("cross-rail-traffic: NCCL's own cross-rail rings cost nothing a log shows until connections time out") {
  // NCCL_CROSS_NIC's default lets the ring leave on one rail and arrive on another.
  auto healthy = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA", true, "");
  CHECK(run_rule("cross-rail-traffic", healthy).empty());
  // A flushed request (status 5) is an after-effect, not a timeout.
  auto flushed = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                      "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA", true,
                      "gpuB:200:260 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer "
                      "10.1.0.10<49513> with error 5, opcode 0, len 0, vendor err 249 (Recv)");
  CHECK(run_rule("cross-rail-traffic", flushed).empty());
  // 2.24+ modify_qp ETIMEDOUT on the receiving host.
  auto timed_out = pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                        "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA", true,
                        "gpuB:200:260 [0] transport/net_ib.cc:1020 NCCL WARN Call to ibv_modify_qp failed with 110 "
                        "Connection timed out, on dev mlx5_1:1, curr state INIT, next state RTR, local GID index 3, "
                        "local GID ::ffff:10.1.0.11, remote GID ::ffff:10.1.0.10");
  auto f = run_rule("cross-rail-traffic", timed_out);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.ends_with("IB connections of gpuA, gpuB timed out (ibv_modify_qp ETIMEDOUT (110) at job.log:7): "
                               "on a rail-optimised fabric NICs of different rails may not reach each other"));
}

TEST_CASE("cross-rail-traffic: same NIC, one half missing, or sockets do not fire") {
  CHECK(run_rule("cross-rail-traffic", pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/1(3)/GDRDMA",
                                        "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/1/GDRDMA"))
            .empty());
  CHECK(run_rule("cross-rail-traffic", pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
                                        "gpuA:100:100 [0] NCCL INFO cudaDriverVersion 12040"))
            .empty());
  CHECK(run_rule("cross-rail-traffic", pair("gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
                                        "gpuB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/1"))
            .empty());
}
