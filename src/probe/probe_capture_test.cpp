#include "src/probe/probe_capture.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"
#include "src/probe/snapshot_json.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

NodeSnapshot probe(const SysfsReader& s, HostFacts& facts) {
  std::vector<ReadIssue> issues;
  facts = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  NodeSnapshot n = collect_snapshot(s, facts, {nullptr, "not-installed", "no"});
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  return n;
}

}  // namespace

TEST_CASE("a capture, probed again, gives the same snapshot") {
  for (const char* scenario : {"dgx-h100-ib", "broken", "roce-cx6dx"}) {
    CAPTURE(scenario);
    SysfsReader src(std::string(ND_FIXTURES) + "/sysfs/" + scenario);
    src.record_accesses(true);
    HostFacts facts;
    NodeSnapshot before = probe(src, facts);
    fs::path dest = fs::temp_directory_path() / ("nd-capture-" + std::to_string(getpid()) + "-" + scenario);
    fs::remove_all(dest);
    CaptureStats stats;
    std::string error;
    REQUIRE(capture_tree(src, facts, "", dest, stats, error));
    CHECK(stats.files > 10);
    SysfsReader copy(dest);
    HostFacts facts2;
    NodeSnapshot after = probe(copy, facts2);
    CHECK(snapshot_to_json(after).dump(1) == snapshot_to_json(before).dump(1));
    // Only what the probe read: a file it never looks at stays behind.
    CHECK_FALSE(fs::exists(dest / "class/infiniband/mlx5_0/node_desc"));
    fs::remove_all(dest);
  }
}

TEST_CASE("an unwritable destination is an error, not a crash") {
  SysfsReader src(std::string(ND_FIXTURES) + "/sysfs/no-rdma");
  HostFacts facts;
  CaptureStats stats;
  std::string error;
  CHECK_FALSE(capture_tree(src, facts, "", ND_FIXTURES "/sysfs/no-rdma/host.json/sub", stats, error));
  CHECK(error.starts_with("cannot create "));
}
