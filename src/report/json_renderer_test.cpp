#include "src/report/json_renderer.h"

#include <doctest/doctest.h>

using namespace nd;
using nlohmann::json;

TEST_CASE("JSON report has the documented shape") {
  CheckReport r;
  r.summary.hosts = 2;
  r.summary.ranks = 4;
  r.summary.communicators = 1;
  r.summary.nccl_versions = {Printed{"2.19.3"}};
  r.summary.intra = {"P2P"};
  r.summary.inter = {"IB"};
  r.summary.gdr = "no";
  Finding f;
  f.id = "ND3004";
  f.slug = "no-gpudirect-rdma";
  f.severity = Severity::Warning;
  f.message = "m";
  f.hosts = {"a", "b"};
  f.ranks = {1, 2};
  f.channels = {0};
  f.evidence.push_back({"job.log", 3, "line"});
  r.findings.push_back(f);
  r.verdict = Verdict::Pass;
  json j = json::parse(render_json(r));
  CHECK(j["schema"] == "nccl-doctor.check/2");
  CHECK(j["verdict"] == "pass");
  CHECK(j["summary"]["hosts"] == 2);
  CHECK(j["summary"]["ranks"] == 4);
  CHECK(j["summary"]["communicators"] == 1);
  CHECK(j["summary"]["nccl_versions"] == json::array({"2.19.3"}));
  CHECK(j["summary"]["transports"]["intra"] == json::array({"P2P"}));
  CHECK(j["summary"]["transports"]["inter"] == json::array({"IB"}));
  CHECK(j["summary"]["transports"]["inter_families"] == json::array());
  CHECK(j["summary"]["transports"]["inter_from"] == "none");
  CHECK(j["summary"]["gdr"] == "no");
  CHECK(j["summary"]["idle_nics"] == json::array());
  CHECK_FALSE(j["summary"].contains("host_unknown_processes"));
  r.summary.host_unknown_processes = 3;
  CHECK(json::parse(render_json(r))["summary"]["host_unknown_processes"] == 3);
  const auto& jf = j["findings"][0];
  CHECK(jf["id"] == "ND3004");
  CHECK(jf["slug"] == "no-gpudirect-rdma");
  CHECK(jf["severity"] == "warning");
  CHECK(jf["hosts"] == json::array({"a", "b"}));
  CHECK(jf["ranks"] == json::array({1, 2}));
  CHECK(jf["channels"] == json::array({0}));
  CHECK(jf["evidence"][0] == json({{"file", "job.log"}, {"line", 3}, {"text", "line"}}));
}

TEST_CASE("invalid UTF-8 from a log does not break the JSON") {
  CheckReport r;
  Finding f;
  f.message = "host \xff\xfe";
  r.findings.push_back(f);
  std::string out;
  CHECK_NOTHROW(out = render_json(r));
  CHECK(json::parse(out)["findings"][0]["message"] == "host \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("JSON report: a communicator's nNodes is null where NCCL did not print it") {
  CheckReport r;
  CommSummary c;
  c.key = "0x5";
  c.nranks = 16;
  c.hosts = 2;
  c.channels = 4;
  c.connected_channels = 2;
  c.ring_channels = 4;
  c.tree_channels = 4;
  c.edges = 64;
  r.summary.comms = {c};
  RailSummary rail;
  rail.name = "gpu01";
  rail.whole = true;
  rail.idle_nics = {"mlx5_1"};
  r.summary.rails = {rail};
  json j = json::parse(render_json(r));
  CHECK(j["communicators"][0] == json({{"id", "0x5"},
                                       {"nranks", 16},
                                       {"nnodes", nullptr},
                                       {"hosts", 2},
                                       {"channels", 4},
                                       {"connected_channels", 2},
                                       {"ring_channels", 4},
                                       {"tree_channels", 4},
                                       {"edges", 64},
                                       {"synthetic", false},
                                       {"ranks", json::array()},
                                       {"links", json::array()}}));
  CHECK(j["summary"]["idle_nics"] == json::array({{{"host", "gpu01"}, {"nics", {"mlx5_1"}}}}));
  r.summary.comms[0].nnodes = 2;
  CHECK(json::parse(render_json(r))["communicators"][0]["nnodes"] == 2);
}

TEST_CASE("JSON report: ranks' hosts and GPUs, links by channel, NICs in use and settings, for diff") {
  CheckReport r;
  CommSummary c;
  c.key = "0x5";
  c.nranks = 2;
  c.links = {{0, 0, 1, "gpu01", "gpu02", "NET/IB+GDR", 1}};
  r.summary.comms = {c};
  HostSummary h;
  h.name = "gpu01";
  h.gpus.push_back({2771, true, 0, 4, std::nullopt, {{0, 1}}});
  r.summary.host_rows = {h};
  RailSummary rail;
  rail.name = "gpu01";
  rail.uses.push_back({0, std::nullopt, "IB", 0, "mlx5_0", 2, false, {}});
  rail.uses.push_back({1, std::nullopt, "IB", 3, "", 2, false, {}});
  r.summary.rails = {rail};
  r.summary.settings = {{"NCCL_IB_DISABLE", "1", {"gpu01", "gpu02"}}};
  json j = json::parse(render_json(r));
  CHECK(j["communicators"][0]["ranks"] ==
        json::array({{{"rank", 1}, {"host", "gpu01"}, {"cuda_dev", 0}, {"nvml_dev", 4}}}));
  CHECK(j["communicators"][0]["links"] == json::array({{{"channel", 0},
                                                        {"from", "gpu01"},
                                                        {"to", "gpu02"},
                                                        {"transport", "NET/IB+GDR"},
                                                        {"connections", 1}}}));
  CHECK(j["summary"]["nics_used"] ==
        json::array({{{"host", "gpu01"},
                      {"nics", {{{"net", "IB"}, {"nic", "NET/IB/3"}}, {{"net", "IB"}, {"nic", "mlx5_0"}}}}}}));
  CHECK(j["summary"]["settings"] ==
        json::array({{{"name", "NCCL_IB_DISABLE"}, {"value", "1"}, {"hosts", {"gpu01", "gpu02"}}}}));
}
