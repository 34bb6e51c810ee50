#include "src/report/graph_renderer.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.18.3: ranks 0,1 on gpuA and 2,3 on `b\N`, one ring, the hop back over sockets.
JobModel four_ranks() {
  return model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init START",
      "b\\N:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init START",
      "b\\N:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init START",
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1   2   3",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
      "gpuA:101:101 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "b\\N:200:200 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA",
      "b\\N:200:200 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[1] via P2P/IPC/read",
      "b\\N:201:201 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/0",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/Socket/0",
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "gpuA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
      "b\\N:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5 - Init COMPLETE",
      "b\\N:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x5 - Init COMPLETE",
  });
}
}  // namespace

TEST_CASE("dot_text doubles backslashes and shows control bytes") {
  CHECK(dot_text("plain") == "plain");
  CHECK(dot_text("a\\") == "a\\\\");
  CHECK(dot_text("q\"") == "q\"");  // Boost's writer escapes the quote
  CHECK(dot_text("x\x1b[31m") == "x\\\\x1b[31m");
}

TEST_CASE("find_comm: by key, unique prefix, default the largest") {
  auto m = four_ranks();
  CHECK(find_comm(m, "") == 0u);
  CHECK(find_comm(m, "0x5") == 0u);
  CHECK(find_comm(m, "0x") == 0u);
  CHECK_FALSE(find_comm(m, "0x6").has_value());
}

TEST_CASE("graph at rank level: transports, problems, clusters by host") {
  auto m = four_ranks();
  GraphRequest req;
  GraphView v = build_graph(m, req);
  REQUIRE(v.nodes.size() == 4);
  CHECK(v.ring_channels == std::vector<uint16_t>{0});
  REQUIRE(v.edges.size() == 4);
  CHECK(v.edges[1].transport == "NET/IB+GDR");
  CHECK(v.edges[3].transport == "NET/Socket");
  CHECK(v.edges[3].has_problem);
  CHECK(v.edges[3].problem == Severity::Error);
  std::string dot = render_graph_dot(v);
  CHECK(dot.find("subgraph cluster_1 {") != std::string::npos);
  CHECK(dot.find("label=\"b\\\\N\"") != std::string::npos);
  CHECK(dot.find("3 -> 0[color=\"#d50000\", fontcolor=\"#d50000\", label=\"NET/Socket ch 0\\n! TCP sockets between hosts "
                 "(ND3001)\", penwidth=3") != std::string::npos);
  auto j = nlohmann::json::parse(render_graph_json(v));
  CHECK(j["schema"] == "nccl-doctor.graph/1");
  CHECK(j["nodes"][2]["host"] == "b\\N");
  CHECK(j["edges"][3]["problem"]["severity"] == "error");
}

TEST_CASE("graph at host level folds ranks and keeps intra-host links on the node") {
  auto m = four_ranks();
  GraphRequest req;
  req.level = GraphLevel::Host;
  GraphView v = build_graph(m, req);
  REQUIRE(v.nodes.size() == 2);
  CHECK(v.nodes[0].ranks == 2);
  CHECK(v.nodes[0].inside == std::set<std::string>{"P2P"});
  REQUIRE(v.edges.size() == 2);
  CHECK(v.edges[0].links == 1);
}

TEST_CASE("graph text: one ring in 80 columns") {
  auto m = four_ranks();
  GraphRequest req;
  req.trees = false;
  CHECK(render_graph_text(m, req) ==
        "Ring, channel 00: 4 ranks on 2 hosts (communicator 0x5)\n"
        "  gpuA             0 -> 1  [P2P]\n"
        "    | NET/IB+GDR\n"
        "  b\\N              2 -> 3  [P2P]\n"
        "    | NET/Socket  !! TCP sockets between hosts (ND3001)  (back to rank 0)\n");
}
