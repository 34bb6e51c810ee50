#include "parsers/nccl_prefix.h"

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("prefix lexer splits host, pid, tid, device and level") {
  auto scan = scan_nccl_headers("node01:2771:2801 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1");
  REQUIRE(scan.count == 1);
  const auto& h = scan.headers[0];
  CHECK(h.host == "node01");
  CHECK(h.pid == 2771);
  CHECK(h.tid == 2801);
  CHECK(h.dev == 0);
  CHECK(h.level == Level::Info);
  CHECK(h.payload == "Ring 00 : 1 -> 0 -> 1");
  CHECK_FALSE(scan.spliced);
}

TEST_CASE("WARN location may hold spaces and colons (NCCL 2.27.7 aws-ofi plugin)") {
  auto scan = scan_nccl_headers(
      "[2026-01-02 10:24:27] ip-172-31-3-153:35115:35469 [2] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208 "
      "NCCL WARN NET/OFI Failed to initialize sendrecv protocol");
  REQUIRE(scan.count == 1);
  const auto& h = scan.headers[0];
  CHECK(h.host == "ip-172-31-3-153");
  CHECK(h.dev == 2);
  CHECK(h.level == Level::Warn);
  CHECK(h.location == "int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):208");
  CHECK(h.payload == "NET/OFI Failed to initialize sendrecv protocol");
}

TEST_CASE("NCCL 2.30.7 WARN with function location") {
  auto scan = scan_nccl_headers(
      "[2026-06-10 09:15:02] gpu07:51234:51290 [3] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL WARN "
      "NET/IB: Got completion from peer 10.1.0.8<49513> with status=IBV_WC_RETRY_EXC_ERR(12)");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu07");
  CHECK(scan.headers[0].location == "transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError)");
}

TEST_CASE("CALL lines have no device bracket") {
  auto scan = scan_nccl_headers("gpu01:100:100 NCCL CALL ncclAllReduce(0x1,0x2,1,7,0,0x3,0x4)");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].level == Level::Call);
  CHECK(scan.headers[0].dev == -1);
}

TEST_CASE("a spliced line yields both headers, the first cut short") {
  auto scan = scan_nccl_headers(
      "gpu11:2771:2771 [0] NCCL INFO Connected allgpu12:2882:2882 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/1");
  REQUIRE(scan.count == 2);
  CHECK(scan.spliced);
  // The glued "all" cannot be told from the host name here; the model
  // resolves "allgpu12" against hosts it already knows.
  CHECK(scan.headers[0].payload == "Connected ");
  CHECK(scan.headers[1].host == "allgpu12");
  CHECK(scan.headers[1].payload == "Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/1");
}

TEST_CASE("text glued in front of a header is not part of the host") {
  auto scan = scan_nccl_headers("  1%|| 24/1752 [01:08<1:22:56,  2.88s/it]gpu12:2882:2882 [1] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu12");
  CHECK(scan.headers[0].column > 0);
}

TEST_CASE("a custom timestamp with colons is not taken for the header") {
  auto scan = scan_nccl_headers("10:24:27 gpu01:1:2 [0] NCCL INFO Using network IB");
  REQUIRE(scan.count == 1);
  CHECK(scan.headers[0].host == "gpu01");
}

TEST_CASE("lines that only look similar have no header") {
  CHECK(scan_nccl_headers("NCCL INFO without header").count == 0);
  CHECK(scan_nccl_headers("gpu01:1:2 [x] NCCL INFO bad dev").count == 0);
  CHECK(scan_nccl_headers("gpu01:1:2 [0] NCCL INFORMATION").count == 0);
  CHECK(scan_nccl_headers("gpu01:99999999999999999999999:2 [0] NCCL INFO x").count == 0);
  CHECK(scan_nccl_headers("").count == 0);
}

TEST_CASE("raw banner of 2.4-2.21") {
  std::string_view rest;
  CHECK(is_raw_banner("NCCL version 2.4.8+cuda10.0", rest));
  CHECK(rest == "2.4.8+cuda10.0");
  CHECK_FALSE(is_raw_banner("NCCL version unknown", rest));
}
