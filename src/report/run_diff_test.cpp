#include "src/report/run_diff.h"

#include <doctest/doctest.h>

using namespace nd;
using nlohmann::json;

namespace {

// A two-host job of 4 ranks as `check --format json` reports it: ranks 0-1
// on gpu01, 2-3 on gpu02, two channels, each between the hosts over `net`.
json report(const std::string& comm_id, const std::string& net, const std::string& gdr) {
  json links = json::array();
  for (int ch = 0; ch < 2; ++ch) {
    links.push_back({{"channel", ch}, {"from", "gpu01"}, {"to", "gpu01"}, {"transport", "P2P"}, {"connections", 1}});
    links.push_back({{"channel", ch}, {"from", "gpu01"}, {"to", "gpu02"}, {"transport", net}, {"connections", 1}});
    links.push_back({{"channel", ch}, {"from", "gpu02"}, {"to", "gpu01"}, {"transport", net}, {"connections", 1}});
    links.push_back({{"channel", ch}, {"from", "gpu02"}, {"to", "gpu02"}, {"transport", "P2P"}, {"connections", 1}});
  }
  json ranks = json::array();
  for (int r = 0; r < 4; ++r) {
    ranks.push_back({{"rank", r}, {"host", r < 2 ? "gpu01" : "gpu02"}, {"cuda_dev", r % 2}, {"nvml_dev", r % 2}});
  }
  json nics = json::array();
  for (const char* host : {"gpu01", "gpu02"}) {
    nics.push_back({{"host", host}, {"nics", {{{"net", "IB"}, {"nic", "mlx5_0"}}, {{"net", "IB"}, {"nic", "mlx5_1"}}}}});
  }
  return {{"schema", "nccl-doctor.check/2"},
          {"summary",
           {{"hosts", 2},
            {"ranks", 4},
            {"communicators", 1},
            {"nccl_versions", {"2.19.3"}},
            {"gdr", gdr},
            {"nccl_lines", 100},
            {"nics_used", nics},
            {"settings", json::array({{{"name", "NCCL_SOCKET_IFNAME"}, {"value", "ib0"}, {"hosts", {"gpu01", "gpu02"}}}})}}},
          {"communicators", json::array({{{"id", comm_id}, {"nranks", 4}, {"ranks", ranks}, {"links", links}}})},
          {"findings", json::array()}};
}

std::vector<std::string> texts(const std::vector<DiffItem>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(std::string(change_name(i.change)) + ": " + i.text);
  return out;
}

}  // namespace

TEST_CASE("diff of a run with itself finds nothing") {
  json r = report("0xaaaa", "NET/IB+GDR", "yes");
  RunDiff d = diff_runs(r, r, "good.json", "good.json");
  CHECK(d.changes() == 0);
  CHECK_FALSE(d.regressed());
  CHECK(d.not_compared.empty());
  CHECK(render_diff_text(d) ==
        "good: good.json (NCCL 2.19.3; 2 hosts, 4 ranks, 1 communicator)\n"
        "bad:  good.json (NCCL 2.19.3; 2 hosts, 4 ranks, 1 communicator)\n"
        "\n"
        "nothing changed\n"
        "\n"
        "verdict: UNCHANGED (0 changes: 0 worse, 0 better)\n");
}

TEST_CASE("diff matches communicators by size and order and names channels that moved to sockets") {
  json good = report("0xaaaa", "NET/IB+GDR", "yes");
  json bad = report("0xbbbb", "NET/Socket", "no");
  bad["summary"]["nics_used"] = json::array({{{"host", "gpu01"}, {"nics", {{{"net", "Socket"}, {"nic", "ib0"}}}}},
                                             {{"host", "gpu02"}, {"nics", {{{"net", "Socket"}, {"nic", "ib0"}}}}}});
  bad["summary"]["settings"].push_back({{"name", "NCCL_IB_DISABLE"}, {"value", "1"}, {"hosts", {"gpu01"}}});
  RunDiff d = diff_runs(good, bad, "good.log", "bad.log");
  REQUIRE(d.comms.size() == 1);
  CHECK(d.comms[0].good == "0xaaaa");
  CHECK(d.comms[0].bad == "0xbbbb");
  CHECK(d.comms[0].matched_by == "size and order");
  CHECK(texts(d.comms[0].items) ==
        std::vector<std::string>{"worse: channels 00-01 moved from NET/IB/GDRDMA to NET/Socket between gpu01 and gpu02"});
  CHECK(texts(d.job) == std::vector<std::string>{
                            "worse: GPUDirect RDMA lost (yes -> no)",
                            "worse: NICs no longer used on gpu01 and gpu02: mlx5_0, mlx5_1 (IB)",
                            "changed: NIC newly used on gpu01 and gpu02: ib0 (Socket)",
                            "changed: NCCL_IB_DISABLE: not set -> 1",
                        });
  CHECK(d.regressed());
  CHECK(render_diff_text(d) ==
        "good: good.log (NCCL 2.19.3; 2 hosts, 4 ranks, 1 communicator)\n"
        "bad:  bad.log (NCCL 2.19.3; 2 hosts, 4 ranks, 1 communicator)\n"
        "\n"
        "communicator 0xaaaa -> 0xbbbb (4 ranks)\n"
        "  worse: channels 00-01 moved from NET/IB/GDRDMA to NET/Socket between gpu01 and gpu02\n"
        "job\n"
        "  worse: GPUDirect RDMA lost (yes -> no)\n"
        "  worse: NICs no longer used on gpu01 and gpu02: mlx5_0, mlx5_1 (IB)\n"
        "  changed: NIC newly used on gpu01 and gpu02: ib0 (Socket)\n"
        "  changed: NCCL_IB_DISABLE: not set -> 1\n"
        "\n"
        "verdict: REGRESSED (5 changes: 3 worse, 0 better)\n");
  json j = json::parse(render_diff_json(d));
  CHECK(j["schema"] == "nccl-doctor.diff/1");
  CHECK(j["verdict"] == "regressed");
  CHECK(j["communicators"][0]["changes"][0]["kind"] == "transport");
  CHECK(j["communicators"][0]["changes"][0]["channels"] == json::array({0, 1}));
  CHECK(j["communicators"][0]["changes"][0]["from"] == json::array({"NET/IB/GDRDMA"}));
  CHECK(j["communicators"][0]["changes"][0]["to"] == json::array({"NET/Socket"}));
  CHECK(j["communicators"][0]["changes"][0]["host_pairs"] == json::array({{"gpu01", "gpu02"}}));
}

TEST_CASE("diff sees the reverse as better, and matches equal communicator ids") {
  json good = report("0xaaaa", "NET/IB", "no");
  json bad = report("0xaaaa", "NET/IB+GDR", "yes");
  RunDiff d = diff_runs(good, bad, "a", "b");
  CHECK(d.comms[0].matched_by == "id");
  CHECK(texts(d.comms[0].items) ==
        std::vector<std::string>{"better: channels 00-01 moved from NET/IB to NET/IB/GDRDMA between gpu01 and gpu02"});
  CHECK(texts(d.job) == std::vector<std::string>{"better: GPUDirect RDMA gained (no -> yes)"});
  CHECK_FALSE(d.regressed());
  CHECK(render_diff_text(d).ends_with("verdict: NOT WORSE (2 changes: 0 worse, 2 better)\n"));
}

TEST_CASE("diff tells ranks that moved, versions, findings new and gone, busbw and utilisation") {
  json good = report("0xaaaa", "NET/IB+GDR", "yes");
  json bad = report("0xbbbb", "NET/IB+GDR", "yes");
  bad["communicators"][0]["ranks"][3]["host"] = "gpu07";
  bad["summary"]["nccl_versions"] = {"2.21.5"};
  good["findings"].push_back({{"id", "ND3102"}, {"slug", "nccl-outdated"}, {"severity", "info"},
                              {"message", "NCCL 2.19.3 is old"}, {"hosts", json::array()}});
  bad["findings"].push_back({{"id", "ND3102"}, {"slug", "nccl-outdated"}, {"severity", "info"},
                             {"message", "NCCL 2.21.5 is old"}, {"hosts", json::array()}});
  good["findings"].push_back({{"id", "ND6001"}, {"slug", "gpu-busy-low"}, {"severity", "warning"},
                              {"message", "gpu01 GPU 0 is busy 40 %"}, {"hosts", {"gpu01"}}});
  good["findings"].push_back({{"id", "ND2008"}, {"slug", "uneven-ranks-per-host"}, {"severity", "warning"},
                              {"message", "communicator 0xaaaa: gpu01 holds 3 ranks"}, {"communicator", "0xaaaa"},
                              {"hosts", {"gpu01"}}});
  bad["findings"].push_back({{"id", "ND2008"}, {"slug", "uneven-ranks-per-host"}, {"severity", "warning"},
                             {"message", "communicator 0xbbbb: gpu01 holds 3 ranks"}, {"communicator", "0xbbbb"},
                             {"hosts", {"gpu01"}}});
  bad["findings"].push_back({{"id", "ND3120"}, {"slug", "nccl-warning"}, {"severity", "warning"},
                             {"message", "gpu02: NET/IB : Got async event : port error"}, {"hosts", {"gpu02"}}});
  good["nccl_tests"] = json::array({{{"op", "all_reduce"}, {"ranks", 4}, {"max_busbw_gbs", 180.0}}});
  bad["nccl_tests"] = json::array({{{"op", "all_reduce"}, {"ranks", 4}, {"max_busbw_gbs", 120.0}}});
  good["gpus"] = json::array({{{"host", "gpu01"}, {"index", 0}, {"util_mean", 95.0}}});
  bad["gpus"] = json::array({{{"host", "gpu01"}, {"index", 0}, {"util_mean", 40.0}}});
  RunDiff d = diff_runs(good, bad, "a", "b");
  CHECK(texts(d.comms[0].items) == std::vector<std::string>{"changed: rank 3 moved from gpu02 GPU 1 to gpu07 GPU 1"});
  CHECK(texts(d.job) == std::vector<std::string>{
                            "changed: hosts new in the job: gpu07",
                            "changed: NCCL version 2.19.3 -> 2.21.5",
                            "changed: info ND3102 nccl-outdated now: NCCL 2.21.5 is old",
                            "worse: new warning ND3120 nccl-warning: gpu02: NET/IB : Got async event : port error",
                            "better: gone warning ND6001 gpu-busy-low: gpu01 GPU 0 is busy 40 %",
                            "worse: busbw of all_reduce (4 ranks) fell 33 % (180.0 -> 120.0 GB/s)",
                            "changed: GPU utilisation of gpu01 GPU 0 fell from 95 % to 40 %",
                        });
}

TEST_CASE("diff names what a report saved by an older nccl-doctor lacks") {
  json good = report("0xaaaa", "NET/IB+GDR", "yes");
  json bad = good;
  good["communicators"][0].erase("links");
  good["summary"].erase("settings");
  RunDiff d = diff_runs(good, bad, "a", "b");
  CHECK(d.changes() == 0);
  CHECK(d.not_compared == std::vector<std::string>{
                              "transports by channel: the GOOD report lacks them (saved by an older nccl-doctor?)",
                              "NCCL settings: the GOOD report lacks them (saved by an older nccl-doctor?)",
                          });
}

TEST_CASE("a check report is known by its schema") {
  CHECK(is_check_report(json{{"schema", "nccl-doctor.check/2"}}));
  CHECK_FALSE(is_check_report(json{{"schema", "nccl-doctor.summary/1"}}));
  CHECK_FALSE(is_check_report(json::array()));
}
