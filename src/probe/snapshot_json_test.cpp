#include "src/probe/snapshot_json.h"

#include <doctest/doctest.h>

#include "src/probe/snapshot_collect.h"
#include "src/probe/probe_test_config.h"

using namespace nd;

namespace {

NodeSnapshot collect(const std::string& scenario) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/" + scenario);
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  return collect_snapshot(s, f, {nullptr, "not-installed", "no"});
}

}  // namespace

TEST_CASE("a snapshot survives the JSON round trip") {
  for (const char* scenario : {"dgx-h100-ib", "broken", "roce-cx6dx", "no-rdma", "garbage"}) {
    CAPTURE(scenario);
    NodeSnapshot n = collect(scenario);
    nlohmann::json j = snapshot_to_json(n);
    CHECK(j["schema"] == "nccl-doctor.probe/1");
    std::string error;
    auto back = snapshot_from_json(nlohmann::json::parse(j.dump()), error);
    REQUIRE(back);
    CHECK(snapshot_to_json(*back) == j);
  }
}

TEST_CASE("memlock: unlimited is a word, a limit a number") {
  HostInfo h;
  h.memlock_soft = kMemlockUnlimited;
  CHECK(host_to_json(h)["memlock_soft"] == "unlimited");
  h.memlock_soft = 65536;
  CHECK(host_to_json(h)["memlock_soft"] == 65536);
}

TEST_CASE("foreign and broken records are refused with a reason") {
  std::string error;
  CHECK_FALSE(snapshot_from_json(nlohmann::json::array(), error));
  CHECK(error == "not a JSON object");
  CHECK_FALSE(snapshot_from_json({{"hello", 1}}, error));
  CHECK(error == "no \"schema\" field: not an nccl-doctor probe record");
  CHECK_FALSE(snapshot_from_json({{"schema", "nccl-doctor.probe/2"}}, error));
  CHECK(error == "schema 'nccl-doctor.probe/2' is not nccl-doctor.probe/1");
  CHECK_FALSE(snapshot_from_json({{"schema", "nccl-doctor.probe/1"}, {"host", {{"host", "a"}}}}, error));
  CHECK(error.starts_with("record does not fit nccl-doctor.probe/1: "));
  nlohmann::json wrong = snapshot_to_json(collect("dgx-h100-ib"));
  wrong["hcas"][0]["ports"][0]["state"] = "ACTIVE";
  CHECK_FALSE(snapshot_from_json(wrong, error));
  nlohmann::json memlock = snapshot_to_json(collect("dgx-h100-ib"));
  memlock["host"]["memlock_soft"] = "lots";
  CHECK_FALSE(snapshot_from_json(memlock, error));
  CHECK(error ==
        "record does not fit nccl-doctor.probe/1: field \"host\": memlock_soft: expected a number or \"unlimited\"");
  nlohmann::json host_string = snapshot_to_json(collect("dgx-h100-ib"));
  host_string["host"] = "n4";
  CHECK_FALSE(snapshot_from_json(host_string, error));
  CHECK(error == "record does not fit nccl-doctor.probe/1: field \"host\": cannot use value() with string");
  nlohmann::json no_hcas = snapshot_to_json(collect("dgx-h100-ib"));
  no_hcas.erase("hcas");
  CHECK_FALSE(snapshot_from_json(no_hcas, error));
  CHECK(error == "record does not fit nccl-doctor.probe/1: field \"hcas\" is missing");
}
