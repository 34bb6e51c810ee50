#include "src/pipeline/preflight.h"

#include <doctest/doctest.h>

#include "src/probe/scripted_verbs_probe.h"
#include "src/report/preflight_output.h"
#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"
#include "src/probe/snapshot_json.h"
#include "src/util/golden_check.h"

using namespace nd;

namespace {

NodeSnapshot collect(const std::string& scenario) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/" + scenario);
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  ScriptedVerbsProbe fake;
  for (const auto& name : s.list_dir("class/infiniband")) {
    VerbsDevice d;
    d.name = name;
    fake.devices.push_back(d);
  }
  NodeSnapshot n = collect_snapshot(s, f, {&fake, "", "fake"});
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  return n;
}

// Regenerated only on purpose: ND_GOLDEN_UPDATE=1.
void check_preflight_golden(const std::string& name, const std::string& actual) {
  check_golden(std::string(ND_FIXTURES) + "/preflight/" + name, actual);
}

}  // namespace

TEST_CASE("a healthy DGX is OK with zero config and with expectations") {
  PreflightReport r = preflight_local(collect("dgx-h100-ib"), {});
  CHECK(r.status == PreflightStatus::Ok);
  CHECK(r.reason == "nccl-doctor: fabric OK");
  Expectations e;
  REQUIRE(parse_expectations("hcas=8,rate=400,link=ib,gdr=yes", e) == "");
  CHECK(preflight_local(collect("dgx-h100-ib"), e).status == PreflightStatus::Ok);
  check_preflight_golden("dgx-h100-ib.expected.txt", render_preflight_text(preflight_local(collect("dgx-h100-ib"), e)));
}

TEST_CASE("the broken node is CRITICAL, in every format") {
  Expectations e;
  REQUIRE(parse_expectations("hcas=8,rate=400,link=ib", e) == "");
  PreflightReport r = preflight_local(collect("broken"), e);
  CHECK(r.status == PreflightStatus::Critical);
  CHECK(r.reason == "nccl-doctor ND4003: mlx5_3 port 1 is DOWN / Polling: NCCL skips ports that are not ACTIVE "
                    "(+14 more)");
  check_preflight_golden("broken.expected.txt", render_preflight_text(r));
  check_preflight_golden("broken.expected.json", render_preflight_json(r));
  check_preflight_golden("broken.expected.junit.xml", render_preflight_junit(r));
  check_preflight_golden("broken.expected.prom", render_preflight_prometheus(r));
  auto j = nlohmann::json::parse(render_preflight_json(r));
  CHECK(j["exit_code"] == 2);
  CHECK(j["nodes"][0]["status"] == "CRITICAL");
}

TEST_CASE("warnings only give status 1") {
  NodeSnapshot n = collect("dgx-h100-ib");
  n.hcas[2].ports[0].counters["symbol_error"] = 3;
  PreflightReport r = preflight_local(n, {});
  CHECK(r.status == PreflightStatus::Warning);
  CHECK(r.reason == "nccl-doctor ND4011: mlx5_4 port 1 error counters are not zero: symbol_error=3 (flapping link "
                    "or bad cable; compare again after clearing with perfquery -x)");
}

TEST_CASE("the drain reason is one line without quotes") {
  NodeSnapshot n = collect("dgx-h100-ib");
  n.issues.push_back({"class/x", "unexpected contents: 'a\"b\nc`$(reboot)'"});
  PreflightReport r = preflight_local(n, {});
  CHECK(r.reason.find('\n') == std::string::npos);
  CHECK(r.reason.find('"') == std::string::npos);
  CHECK(r.reason.find('`') == std::string::npos);
  CHECK(r.reason.find('$') == std::string::npos);
  CHECK(r.reason.size() <= 200);
}

TEST_CASE("aggregate: the outlier is flagged, the others are OK") {
  std::string input;
  for (int i = 0; i < 4; ++i) {
    NodeSnapshot n = collect("dgx-h100-ib");
    n.host.host = "dgx-0" + std::to_string(i + 1);
    n.host.rank = static_cast<uint32_t>(i);
    if (i == 1) {
      n.hcas[4].ports[0].rate_gbps = 200;
      n.hcas[4].ports[0].rate_text = "200 Gb/sec (2X NDR)";
    }
    input += "[1," + std::to_string(i) + "]<stdout>:" + snapshot_record_line(n) + "\n";
  }
  PreflightReport r = preflight_aggregate(read_probe_records(input), {}, "records.jsonl", true);
  CHECK(r.status == PreflightStatus::Critical);
  REQUIRE(r.nodes.size() == 4);
  CHECK(r.nodes[0].status == PreflightStatus::Ok);
  CHECK(r.nodes[1].status == PreflightStatus::Critical);
  CHECK(r.nodes[2].status == PreflightStatus::Ok);
  CHECK(r.reason.starts_with("nccl-doctor ND4004: dgx-02: mlx5_6 port 1 runs at 200 Gb/s"));
  check_preflight_golden("aggregate-one-slow.expected.txt", render_preflight_text(r));
}

TEST_CASE("aggregate with nothing usable is UNKNOWN") {
  PreflightReport empty = preflight_aggregate(read_probe_records("hello\nworld\n"), {}, "-", true);
  CHECK(empty.status == PreflightStatus::Unknown);
  CHECK(empty.reason == "nccl-doctor: no probe records in - (2 lines)");
  PreflightReport junk = preflight_aggregate(read_probe_records("{\"schema\":\"x/1\"}\n"), {}, "in.jsonl", true);
  CHECK(junk.status == PreflightStatus::Unknown);
  CHECK(junk.reason == "nccl-doctor: no usable probe records in in.jsonl (1 rejected)");
}
