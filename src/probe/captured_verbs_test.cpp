#include "src/probe/captured_verbs.h"

#include <cerrno>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "src/probe/host_facts.h"
#include "src/probe/probe_node.h"
#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"
#include "src/probe/snapshot_json.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

EnvLookup no_env() {
  return [](const std::string&) { return std::nullopt; };
}

ScriptedVerbsProbe two_devices_one_unopenable() {
  ScriptedVerbsProbe live;
  VerbsDevice d;
  d.name = "mlx5_0";
  d.fw_ver = "28.39.1002";
  d.node_guid = 0xa088c20300b28f4cULL;
  d.dmabuf = 1;
  VerbsPort p;
  p.port = 1;
  p.state = 4;
  p.active_mtu = 5;
  d.ports.push_back(p);
  live.devices.push_back(d);
  live.listed = std::vector<std::string>{"mlx5_0", "mlx5_3"};
  live.open_errors["mlx5_3"] = EACCES;
  return live;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("nd-captured-verbs-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("verbs answers recorded on one node are replayed the same elsewhere") {
  ScriptedVerbsProbe live = two_devices_one_unopenable();
  RecordingVerbsProbe recorder(&live);
  std::vector<std::string> names;
  REQUIRE(recorder.list_devices(names) == 0);
  VerbsDevice d;
  CHECK(recorder.query_device("mlx5_0", d) == 0);
  CHECK(recorder.query_device("mlx5_3", d) == EACCES);

  fs::path dir = scratch("roundtrip");
  std::ofstream(dir / kVerbsCaptureFile) << verbs_capture_json("loaded", "libibverbs.so.1 via plugin", &recorder);
  std::string error;
  std::optional<CapturedVerbs> back = load_captured_verbs(SysfsReader(dir), error);
  REQUIRE(back);
  CHECK(error.empty());
  CHECK(back->status == "loaded");
  REQUIRE(back->probe);
  std::vector<std::string> replayed;
  CHECK(back->probe->list_devices(replayed) == 0);
  CHECK(replayed == std::vector<std::string>{"mlx5_0", "mlx5_3"});
  VerbsDevice again;
  REQUIRE(back->probe->query_device("mlx5_0", again) == 0);
  CHECK(again.node_guid == 0xa088c20300b28f4cULL);
  CHECK(again.dmabuf == 1);
  REQUIRE(again.ports.size() == 1);
  CHECK(again.ports[0].active_mtu == 5);
  CHECK(back->probe->query_device("mlx5_3", again) == EACCES);
  fs::remove_all(dir);
}

TEST_CASE("a node whose libibverbs did not load is captured as such, with no answers") {
  fs::path dir = scratch("not-installed");
  std::ofstream(dir / kVerbsCaptureFile) << verbs_capture_json("not-installed", "cannot load libibverbs.so.1", nullptr);
  std::string error;
  std::optional<CapturedVerbs> back = load_captured_verbs(SysfsReader(dir), error);
  REQUIRE(back);
  CHECK(back->status == "not-installed");
  CHECK_FALSE(back->probe);
  fs::remove_all(dir);
}

TEST_CASE("a broken verbs.json is an error, a missing one is simply not captured") {
  fs::path dir = scratch("broken");
  std::string error;
  CHECK_FALSE(load_captured_verbs(SysfsReader(dir), error));
  CHECK(error.empty());
  std::ofstream(dir / kVerbsCaptureFile) << R"({"status": "loaded"})";
  CHECK_FALSE(load_captured_verbs(SysfsReader(dir), error));
  CHECK(error.starts_with("unexpected contents: "));
  // Numbers that would wrap or overflow are refused, not converted.
  for (const char* bad : {"-1", "4294967296", "1e300", "\"4\""}) {
    CAPTURE(bad);
    std::ofstream(dir / kVerbsCaptureFile)
        << R"({"status": "loaded", "message": "", "list_error": 0, "listed": ["mlx5_0"], "open_errors": {},
               "devices": [{"name": "mlx5_0", "fw_ver": "", "node_guid": 1, "vendor_id": 1, "vendor_part_id": 1,
                            "phys_port_cnt": )"
        << bad << R"(, "dmabuf": -1, "ports": []}]})";
    error.clear();
    CHECK_FALSE(load_captured_verbs(SysfsReader(dir), error));
    CHECK(error.starts_with("unexpected contents: "));
  }
  fs::remove_all(dir);
}

TEST_CASE("a capture is probed as the captured node: its verbs answers and host facts, nothing of this machine") {
  SysfsReader dgx(std::string(ND_FIXTURES) + "/sysfs/dgx-h100-ib");
  NodeSnapshot n = probe_node(dgx, no_env(), ProbeSource::Capture);
  CHECK(n.host.host == "dgx-01");
  CHECK(n.verbs.status == "ok");
  CHECK(n.verbs.devices.size() == 8);
  REQUIRE_FALSE(n.hcas.empty());
  CHECK(n.hcas[0].verbs_state == "ok");
  CHECK(n.gdr.dmabuf == true);

  // A capture without verbs.json or host.json: nothing is made up.
  SysfsReader roce(std::string(ND_FIXTURES) + "/sysfs/roce-cx6dx");
  NodeSnapshot r = probe_node(roce, no_env(), ProbeSource::Capture);
  CHECK(r.verbs.status == "not-captured");
  REQUIRE_FALSE(r.hcas.empty());
  CHECK(r.hcas[0].verbs_state == "not loaded");

  fs::path dir = scratch("no-host-json");
  fs::create_directories(dir / "class");
  NodeSnapshot bare = probe_node(SysfsReader(dir), no_env(), ProbeSource::Capture);
  CHECK(bare.host.host == dir.filename().string());
  CHECK_FALSE(bare.host.memlock_soft);
  REQUIRE_FALSE(bare.issues.empty());
  CHECK(bare.issues[0].path == "host.json");
  CHECK(bare.issues[0].error == "not captured: hostname, memlock limit and kernel unknown");
  fs::remove_all(dir);
}

TEST_CASE("only /sys itself is this machine; any other root is a capture") {
  CHECK(probe_source_for("/sys", false) == ProbeSource::LiveNode);
  CHECK(probe_source_for("/sys/", true) == ProbeSource::LiveNodeNoVerbs);
  CHECK(probe_source_for(std::string(ND_FIXTURES) + "/sysfs/dgx-h100-ib", false) == ProbeSource::Capture);
  CHECK(probe_source_for(std::string(ND_FIXTURES) + "/sysfs/dgx-h100-ib", true) == ProbeSource::CaptureNoVerbs);
}
