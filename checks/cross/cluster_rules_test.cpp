#include "checks/cross/cluster_rule.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/cross/node_differs_from_majority.h"
#include "src/probe/probe_test_config.h"
#include "src/probe/snapshot_collect.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

NodeSnapshot dgx(const std::string& host) {
  SysfsReader s(std::string(ND_FIXTURES) + "/sysfs/dgx-h100-ib");
  std::vector<ReadIssue> issues;
  HostFacts f = load_host_facts(s, [](const std::string&) { return std::nullopt; }, issues);
  NodeSnapshot n = collect_snapshot(s, f, {nullptr, "no-devices", ""});
  n.host.host = host;
  return n;
}

std::vector<Finding> run_all(const std::vector<NodeSnapshot>& snaps, const std::vector<RecordProblem>& problems = {},
                             const Expectations& e = {}) {
  std::vector<ClusterNode> nodes;
  for (const auto& s : snaps) nodes.push_back({s.host.host, &s});
  CollectingSink sink;
  for (const auto& r : cluster_rules()) r->check({nodes, problems, e, "records.jsonl"}, sink);
  return sink.findings;
}

std::vector<std::string> messages(const std::vector<Finding>& f) {
  std::vector<std::string> out;
  for (const auto& x : f) out.push_back(x.id + " " + severity_name(x.severity) + ": " + x.message);
  return out;
}

}  // namespace

TEST_CASE("identical nodes: nothing to say") {
  CHECK(run_all({dgx("n1"), dgx("n2"), dgx("n3")}).empty());
}

TEST_CASE("one slow, old-firmware node among four is the only one flagged") {
  std::vector<NodeSnapshot> nodes = {dgx("n1"), dgx("n2"), dgx("n3"), dgx("n4")};
  nodes[2].hcas[5].ports[0].rate_gbps = 200;
  nodes[2].hcas[5].fw_ver = "28.37.1014";
  auto found = run_all(nodes);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "ND5001 error: n3 differs from the majority on port rates: 7x400 Gb/s, 1x200 Gb/s (majority: 8x400 Gb/s "
            "on 3 of 4 nodes)",
            "ND5001 warning: n3 differs from the majority on HCA firmware: MT4129 28.37.1014, MT4129 28.39.1002 "
            "(majority: MT4129 28.39.1002 on 3 of 4 nodes)"});
  for (const auto& f : found) CHECK(f.hosts == std::vector<std::string>{"n3"});
}

TEST_CASE("two nodes that disagree have no majority") {
  std::vector<NodeSnapshot> nodes = {dgx("a"), dgx("b")};
  nodes[1].gdr.peermem_markers.clear();
  CHECK(messages(run_all(nodes)) ==
        std::vector<std::string>{"ND5001 warning: nodes disagree on GPUDirect RDMA and no value has a majority: not "
                                 "ready on b; ready on a"});
}

TEST_CASE("bookkeeping: bad records, missing nodes, a host twice") {
  Expectations e;
  REQUIRE(parse_expectations("nodes=4", e) == "");
  std::vector<RecordProblem> problems = {{7, "not valid JSON", "{\"hello\": }"}};
  auto found = run_all({dgx("n1"), dgx("n1")}, problems, e);
  CHECK(messages(found) ==
        std::vector<std::string>{
            "ND5002 warning: record at line 7 ignored: not valid JSON",
            "ND5003 error: 2 node record(s), expected 4: the missing nodes did not run the probe or their output was "
            "lost",
            "ND5004 warning: host n1 sent 2 records: run one probe per node (srun --ntasks-per-node=1, mpirun "
            "--map-by ppr:1:node)"});
  CHECK(found[0].evidence.at(0).file == "records.jsonl");
  CHECK(found[0].evidence.at(0).line == 7);
}

TEST_CASE("catalogue: sorted IDs, doc pages, bad and good fixtures") {
  std::string last;
  for (const auto& r : cluster_rules()) {
    std::string id(r->info().id);
    CAPTURE(id);
    CHECK(id.starts_with("ND5"));
    CHECK(id > last);
    last = id;
    fs::path doc = fs::path(ND_FIXTURES) / ".." / "man" / "rules" / (id + ".md");
    CHECK_MESSAGE(fs::exists(doc), "missing " << doc.string());
    int bad = 0, good = 0;
    fs::path dir = fs::path(ND_FIXTURES) / "rules" / id;
    REQUIRE(fs::is_directory(dir));
    for (const auto& entry : fs::directory_iterator(dir)) {
      std::string name = entry.path().filename().string();
      if (!name.ends_with(".jsonl")) continue;
      CAPTURE(name);
      std::ifstream in(entry.path());
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      RecordSet set = read_probe_records(text);
      Expectations e;
      std::ifstream ex(entry.path().string() + ".expect");
      std::string spec;
      if (ex) std::getline(ex, spec);
      REQUIRE(parse_expectations(spec, e) == "");
      std::vector<ClusterNode> nodes;
      for (const auto& rec : set.records) nodes.push_back({rec.node.host.host, &rec.node});
      CollectingSink sink;
      r->check({nodes, set.problems, e, name}, sink);
      if (name.starts_with("bad-")) {
        ++bad;
        CHECK_FALSE(sink.findings.empty());
      } else if (name.starts_with("good-")) {
        ++good;
        CHECK(messages(sink.findings) == std::vector<std::string>{});
      }
    }
    CHECK(bad >= 1);
    CHECK(good >= 1);
  }
}
