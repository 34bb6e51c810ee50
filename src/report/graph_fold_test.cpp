#include "src/report/graph_fold.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.18.3: 2 ranks on each of 4 hosts, one ring on channels 0 and 1;
// channel 1 printed only its links between hosts. hostB -> hostC falls back
// to sockets, so hostB and hostC are faulty; hostA and hostD are healthy.
JobModel four_hosts() {
  return model_from({
      "hostA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init START",
      "hostA:101:101 [1] NCCL INFO comm 0x2 rank 1 nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init START",
      "hostB:200:200 [0] NCCL INFO comm 0x3 rank 2 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init START",
      "hostB:201:201 [1] NCCL INFO comm 0x4 rank 3 nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init START",
      "hostC:300:300 [0] NCCL INFO comm 0x5 rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init START",
      "hostC:301:301 [1] NCCL INFO comm 0x6 rank 5 nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init START",
      "hostD:400:400 [0] NCCL INFO comm 0x7 rank 6 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9 - Init START",
      "hostD:401:401 [1] NCCL INFO comm 0x8 rank 7 nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9 - Init START",
      "hostA:100:100 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7",
      "hostA:100:100 [0] NCCL INFO Channel 01/02 :    0   1   2   3   4   5   6   7",
      "hostA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read",
      "hostA:101:101 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "hostB:200:200 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA",
      "hostA:101:101 [1] NCCL INFO Channel 01/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA",
      "hostB:200:200 [0] NCCL INFO Channel 01/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA",
      "hostB:200:200 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[1] via P2P/IPC/read",
      "hostB:201:201 [1] NCCL INFO Channel 00/0 : 3[1] -> 4[0] [send] via NET/Socket/0",
      "hostC:300:300 [0] NCCL INFO Channel 00/0 : 3[1] -> 4[0] [receive] via NET/Socket/0",
      "hostB:201:201 [1] NCCL INFO Channel 01/0 : 3[1] -> 4[0] [send] via NET/Socket/0",
      "hostC:300:300 [0] NCCL INFO Channel 01/0 : 3[1] -> 4[0] [receive] via NET/Socket/0",
      "hostC:300:300 [0] NCCL INFO Channel 00/0 : 4[0] -> 5[1] via P2P/IPC/read",
      "hostC:301:301 [1] NCCL INFO Channel 00/0 : 5[1] -> 6[0] [send] via NET/IB/0/GDRDMA",
      "hostD:400:400 [0] NCCL INFO Channel 00/0 : 5[1] -> 6[0] [receive] via NET/IB/0/GDRDMA",
      "hostC:301:301 [1] NCCL INFO Channel 01/0 : 5[1] -> 6[0] [send] via NET/IB/0/GDRDMA",
      "hostD:400:400 [0] NCCL INFO Channel 01/0 : 5[1] -> 6[0] [receive] via NET/IB/0/GDRDMA",
      "hostD:400:400 [0] NCCL INFO Channel 00/0 : 6[0] -> 7[1] via P2P/IPC/read",
      "hostD:401:401 [1] NCCL INFO Channel 00/0 : 7[1] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "hostA:100:100 [0] NCCL INFO Channel 00/0 : 7[1] -> 0[0] [receive] via NET/IB/0/GDRDMA",
      "hostD:401:401 [1] NCCL INFO Channel 01/0 : 7[1] -> 0[0] [send] via NET/IB/0/GDRDMA",
      "hostA:100:100 [0] NCCL INFO Channel 01/0 : 7[1] -> 0[0] [receive] via NET/IB/0/GDRDMA",
  });
}

GraphRequest rings_by_host(uint32_t fold_above) {
  GraphRequest req;
  req.trees = false;
  req.level = GraphLevel::Host;
  req.fold_above_hosts = fold_above;
  return req;
}
}  // namespace

TEST_CASE("a link inside a host without a line takes the transport its pair printed") {
  auto m = four_hosts();
  GraphView v = build_graph(m, rings_by_host(0));
  REQUIRE(v.nodes.size() == 4);
  CHECK_FALSE(v.fold.has_value());
  for (const GraphNode& n : v.nodes) CHECK(n.inside == std::set<std::string>{"P2P"});
  GraphRequest ranks = rings_by_host(0);
  ranks.level = GraphLevel::Rank;
  GraphView r = build_graph(m, ranks);
  REQUIRE(r.edges.size() == 8);
  CHECK(r.edges[0].transport == "P2P");
  CHECK(r.edges[0].channels == std::set<uint16_t>{0, 1});
  ranks.channel = 1;
  std::string text = render_graph_text(m, ranks);
  CHECK(text.find("  hostA            0 -> 1  [P2P]\n") != std::string::npos);
  CHECK(text.find("no line") == std::string::npos);
}

TEST_CASE("auto level: ranks up to the limit, hosts above it") {
  auto m = four_hosts();
  GraphRequest req = rings_by_host(0);
  req.level = GraphLevel::Auto;
  req.rank_level_max_ranks = 8;
  CHECK(build_graph(m, req).level == GraphLevel::Rank);
  req.rank_level_max_ranks = 7;
  CHECK(build_graph(m, req).level == GraphLevel::Host);
}

TEST_CASE("no fold up to the threshold") {
  auto m = four_hosts();
  CHECK_FALSE(build_graph(m, rings_by_host(4)).fold.has_value());
  CHECK(build_graph(m, rings_by_host(4)).nodes.size() == 4);
}

TEST_CASE("above the threshold healthy hosts fold into one node, faulty ones keep their links") {
  auto m = four_hosts();
  GraphView v = build_graph(m, rings_by_host(3));
  REQUIRE(v.fold.has_value());
  CHECK(v.fold->hosts == 4);
  CHECK(v.fold->folded == 2);
  CHECK(v.fold->shown == 2);
  REQUIRE(v.nodes.size() == 3);
  CHECK(v.nodes[0].id == "healthy");
  CHECK(v.nodes[0].hosts == 2);
  CHECK(v.nodes[0].ranks == 4);
  CHECK(v.nodes[0].between == std::map<std::string, uint64_t>{{"NET/IB+GDR", 2}});
  CHECK(v.nodes[1].host_name == "hostB");
  CHECK(v.nodes[2].host_name == "hostC");
  CHECK(render_graph_dot(v) ==
        "digraph nccl {\n"
        "graph [\n"
        "fontname=Helvetica, label=\"communicator 0x9: rings on channel(s) 0-1 (host level)\\n4 hosts: 2 healthy (no "
        "warning or error on their links) folded into one node; 2 shown with their links\", labelloc=t, rankdir=LR, "
        "splines=true];\n"
        "node [\n"
        "fontname=Helvetica, shape=box, style=rounded];\n"
        "edge [\n"
        "fontname=Helvetica, fontsize=10];\n"
        "0[fillcolor=\"#eeeeee\", label=\"2 healthy hosts\\n4 ranks\\ninside: P2P\\nlinks between them: 2 over "
        "NET/IB+GDR\", style=\"rounded,filled\"];\n"
        "1[label=\"hostB\\n2 ranks\\ninside: P2P\"];\n"
        "2[label=\"hostC\\n2 ranks\\ninside: P2P\"];\n"
        "0 -> 1[color=\"#1565c0\", fontcolor=\"#1565c0\", label=\"NET/IB+GDR\\n2 links, ch 0-1\", penwidth=1.5];\n"
        "1 -> 2[color=\"#d50000\", fontcolor=\"#d50000\", label=\"NET/Socket\\n2 links, ch 0-1\\n! TCP sockets between "
        "hosts (ND3001)\", penwidth=3, tooltip=\"TCP sockets between hosts (ND3001)\"];\n"
        "2 -> 0[color=\"#1565c0\", fontcolor=\"#1565c0\", label=\"NET/IB+GDR\\n2 links, ch 0-1\", penwidth=1.5];\n"
        "}\n");
  auto j = nlohmann::json::parse(render_graph_json(v));
  CHECK(j["level"] == "host");
  CHECK(j["fold"] == nlohmann::json({{"hosts", 4}, {"folded", 2}, {"shown", 2}}));
  CHECK(j["nodes"][0]["id"] == "healthy");
  CHECK(j["nodes"][0]["host"].is_null());
  CHECK(j["nodes"][0]["hosts"] == 2);
  CHECK(j["nodes"][0]["between"] == nlohmann::json::parse(R"([{"transport": "NET/IB+GDR", "links": 2}])"));
  CHECK(j["nodes"][1]["id"] == "h1");
  CHECK(j["edges"][1]["from"] == "h1");
  CHECK(j["edges"][1]["to"] == "h2");
  CHECK_FALSE(nlohmann::json::parse(render_graph_json(build_graph(m, rings_by_host(0)))).contains("fold"));
}

TEST_CASE("fewer than two healthy hosts: nothing to fold") {
  auto m = four_hosts();
  GraphRequest req = rings_by_host(0);
  GraphView v = build_graph(m, req);
  v.edges[0].has_problem = true;  // hostA -> hostB
  v.edges[0].problem = Severity::Warning;
  GraphView same = fold_healthy_hosts(v);
  CHECK_FALSE(same.fold.has_value());
  CHECK(same.nodes.size() == 4);
}

TEST_CASE("fold caption") {
  CHECK(fold_caption(GraphFold{1024, 1019, 5}) ==
        "1024 hosts: 1019 healthy (no warning or error on their links) folded into one node; 5 shown with their links");
}
