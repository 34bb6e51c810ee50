#include "checks/hardware/hardware_rule.h"

#include <filesystem>
#include <fstream>
#include <set>

#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include <nlohmann/json.hpp>

#include "src/probe/fake_verbs_probe.h"
#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

// A rule fixture names a sysfs scenario, how verbs behaves and the
// expectations: {"sysfs": "broken", "verbs": "ok", "expect": "hcas=8"}.
// verbs: "ok" lists every sysfs device, "none" lists nothing (no provider),
// "not-installed" plays a node without rdma-core.
NodeSnapshot snapshot_for(const std::string& sysfs, const std::string& verbs) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/" + sysfs);
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  FakeVerbsProbe fake;
  for (const auto& name : s.list_dir("class/infiniband")) {
    VerbsDevice d;
    d.name = name;
    fake.devices.push_back(d);
  }
  FakeVerbsProbe empty;
  VerbsSource src{nullptr, "not-installed", "cannot load libibverbs.so.1"};
  if (verbs == "ok") src = {&fake, "", "fake"};
  if (verbs == "none") src = {&empty, "", "fake"};
  NodeSnapshot n = collect_snapshot(s, f, src);
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  return n;
}

std::vector<Finding> run(const HardwareRule& rule, const NodeSnapshot& n, const Expectations& e) {
  CollectingSink sink;
  rule.check({n, e}, sink);
  return sink.findings;
}

std::vector<Finding> run_case(const HardwareRule& rule, const fs::path& file) {
  std::ifstream in(file);
  auto j = nlohmann::json::parse(in);
  Expectations e;
  REQUIRE(parse_expectations(j.value("expect", ""), e) == "");
  return run(rule, snapshot_for(j.at("sysfs"), j.at("verbs")), e);
}

const HardwareRule& rule(std::string_view id) {
  for (const auto& r : hardware_rules()) {
    if (r->info().id == id) return *r;
  }
  FAIL("no rule " << id);
  throw;
}

std::vector<std::string> messages(const std::vector<Finding>& fs_) {
  std::vector<std::string> out;
  for (const auto& f : fs_) out.push_back(std::string(severity_name(f.severity)) + ": " + f.message);
  return out;
}

}  // namespace

TEST_CASE("catalogue: sorted unique IDs and slugs, a doc page, bad and good fixtures per rule") {
  std::set<std::string> ids, slugs;
  std::string last;
  for (const auto& r : hardware_rules()) {
    const RuleInfo& info = r->info();
    std::string id(info.id);
    CAPTURE(id);
    CHECK(id.starts_with("ND4"));
    CHECK(id > last);
    last = id;
    CHECK(ids.insert(id).second);
    CHECK(slugs.insert(std::string(info.slug)).second);
    CHECK(info.needs == Needs::Hardware);
    fs::path doc = fs::path(ND_FIXTURES) / ".." / "man" / "rules" / (id + ".md");
    REQUIRE_MESSAGE(fs::exists(doc), "missing " << doc.string());
    std::ifstream in(doc);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* section : {"## Summary", "## Why it matters", "## Triggers", "## Does not trigger",
                                "## How to fix", "## Options", "## Limitations", "## See also"}) {
      CHECK_MESSAGE(text.find(section) != std::string::npos, id << " doc lacks " << section);
    }
    int bad = 0, good = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(ND_FIXTURES) / "rules" / id)) {
      std::string name = entry.path().filename().string();
      CAPTURE(name);
      auto found = run_case(*r, entry.path());
      if (name.starts_with("bad-")) {
        ++bad;
        CHECK_FALSE(found.empty());
        for (const auto& f : found) CHECK(f.id == id);
      } else if (name.starts_with("good-")) {
        ++good;
        CHECK(messages(found) == std::vector<std::string>{});
      }
    }
    CHECK(bad >= 1);
    CHECK(good >= 1);
  }
  CHECK(ids.size() == 16);
}

TEST_CASE("the broken node, rule by rule, in the user's words") {
  NodeSnapshot n = snapshot_for("broken", "ok");
  Expectations none;
  CHECK(messages(run(rule("ND4003"), n, none)) ==
        std::vector<std::string>{"error: mlx5_3 port 1 is DOWN / Polling: NCCL skips ports that are not ACTIVE",
                                 "error: mlx5_4 port 1 is INIT / LinkUp: NCCL skips ports that are not ACTIVE"});
  CHECK(messages(run(rule("ND4004"), n, none)) ==
        std::vector<std::string>{"error: mlx5_5 port 1 runs at 200 Gb/s while other ports of this node run at 400 "
                                 "Gb/s (degraded link: cable, transceiver or width)"});
  CHECK(messages(run(rule("ND4008"), n, none)) ==
        std::vector<std::string>{"error: memlock limit is 64 KiB (need unlimited): ibv_reg_mr will fail with ENOMEM "
                                 "(ulimit -l unlimited; Slurm: PropagateResourceLimitsExcept=MEMLOCK; Docker: "
                                 "--ulimit memlock=-1)"});
  CHECK(messages(run(rule("ND4011"), n, none)) ==
        std::vector<std::string>{"warning: mlx5_5 port 1 error counters are not zero: link_downed=255 (saturated), "
                                 "symbol_error=12 (flapping link or bad cable; compare again after clearing with "
                                 "perfquery -x)"});
  CHECK(messages(run(rule("ND4013"), n, none)) ==
        std::vector<std::string>{"error: mlx5_4 port 1 has LID 0x0 and SM LID 0x0: no subnet manager has configured "
                                 "it (check opensm / UFM)"});
  auto acs = run(rule("ND4009"), n, none);
  REQUIRE(acs.size() == 3);
  CHECK(acs[0].evidence[0].text ==
        "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-");
  CHECK(acs[0].hosts == std::vector<std::string>{"gpu-17"});
}

TEST_CASE("verbs: one device without a provider, the others fine") {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/dgx-h100-ib");
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  FakeVerbsProbe fake;
  for (const auto& name : s.list_dir("class/infiniband")) {
    if (name == "mlx5_4") continue;
    VerbsDevice d;
    d.name = name;
    fake.devices.push_back(d);
  }
  NodeSnapshot n = collect_snapshot(s, f, {&fake, "", ""});
  CHECK(messages(run(rule("ND4002"), n, {})) ==
        std::vector<std::string>{"error: mlx5_4 is in sysfs but not usable through verbs: libibverbs does not list "
                                 "it (no user-space provider such as libmlx5 for this device, or "
                                 "/dev/infiniband/uverbsN is not accessible in this container)"});
}

TEST_CASE("ACS unknown without root is information, not an error") {
  NodeSnapshot n = snapshot_for("roce-cx6dx", "ok");
  CHECK(messages(run(rule("ND4009"), n, {})) ==
        std::vector<std::string>{"info: ACS on 1 bridge(s) between GPUs and NICs is unknown: reading PCI extended "
                                 "config space needs root (run the probe as root to check)"});
}

TEST_CASE("expectations turn zero-config silence into findings") {
  NodeSnapshot n = snapshot_for("dgx-h100-ib", "ok");
  Expectations e;
  REQUIRE(parse_expectations("rate=800,link=roce,hcas=9,memlock=1G", e) == "");
  CHECK(run(rule("ND4004"), n, e).size() == 8);
  CHECK(run(rule("ND4005"), n, e).size() == 8);
  CHECK(messages(run(rule("ND4012"), n, e)).at(0).starts_with("error: 8 RDMA device(s) (mlx5_0, mlx5_3, mlx5_4,"));
  CHECK(run(rule("ND4008"), n, e).empty());
  Expectations no_gdr;
  REQUIRE(parse_expectations("gdr=no", no_gdr) == "");
  CHECK(run(rule("ND4007"), snapshot_for("broken", "ok"), no_gdr).empty());
}
