// Walks the one rule catalogue: every rule has a documentation page with the
// required sections, and fixtures named bad-* that fire it and good-* that do
// not, of the kind the rule reads: a log (.log), one node's probe (.json) or
// the probe records of many nodes (.jsonl).

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checks/node_fixture.h"
#include "src/model/line_feeder.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot(ND_SOURCE_ROOT);

std::string read_text(const fs::path& path) {
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// --expect for a fixture: a .json case says it inside, records say it in
// NAME.jsonl.expect (absent: none).
Expectations expectations(const std::string& spec) {
  Expectations e;
  REQUIRE(parse_expectations(spec, e) == "");
  return e;
}

// A log, read the way `check` reads it.
std::vector<Finding> run_log(const Rule& rule, const fs::path& path) {
  JobModel model;
  ModelBuilder builder(model);
  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  FeedResult fed = feed_lines(fd, builder.add_file(path.filename().string()), builder);
  ::close(fd);
  REQUIRE(fed.error == 0);
  builder.finish();
  FindingList sink;
  rule.check(CheckContext{model, CheckOptions{}}, sink);
  return sink.findings;
}

// One node: {"sysfs": "broken", "verbs": "ok", "expect": "hcas=8"} names a
// scenario of testdata/sysfs/, how verbs behaves (see node_fixture) and --expect.
std::vector<Finding> run_node(const Rule& rule, const fs::path& path) {
  auto j = nlohmann::json::parse(read_text(path));
  NodeSnapshot node = node_fixture(j.at("sysfs").get<std::string>(), j.at("verbs").get<std::string>());
  return run_node_rule(rule.info().id, node, expectations(j.value("expect", "")));
}

// Probe records, one JSON object a line, as `preflight --aggregate` reads them.
std::vector<Finding> run_cluster(const Rule& rule, const fs::path& path) {
  RecordSet set = read_probe_records(read_text(path));
  std::string spec;
  std::ifstream expect(path.string() + ".expect");
  std::getline(expect, spec);
  std::vector<NodeSnapshot> nodes;
  for (const auto& rec : set.records) nodes.push_back(rec.node);
  return run_cluster_rule(rule.info().id, nodes, set.problems, expectations(spec));
}

struct FixtureKind {
  std::string extension;
  std::vector<Finding> (*run)(const Rule&, const fs::path&);
};

FixtureKind kind_of(Needs needs) {
  switch (needs) {
    case Needs::Log: return {".log", run_log};
    case Needs::Node: return {".json", run_node};
    case Needs::Cluster: return {".jsonl", run_cluster};
  }
  FAIL("unknown Needs");
  return {};
}

}  // namespace

TEST_CASE("rule IDs and slugs are unique, well formed and sorted; check sees the log rules only") {
  std::set<std::string_view> ids, slugs;
  std::string_view previous;
  size_t log = 0;
  for (const auto& rule : all_rules().rules()) {
    const auto& info = rule->info();
    CAPTURE(info.id);
    CHECK(info.id.size() == 6);
    CHECK(info.id.starts_with("ND"));
    CHECK(ids.insert(info.id).second);
    CHECK(slugs.insert(info.slug).second);
    CHECK(previous < info.id);
    previous = info.id;
    CHECK(all_rules().find(info.slug) == &info);
    CHECK(all_rules().rule(info.id) == rule.get());
    // Families: 4 judges one node, 5 compares nodes, the others read the log.
    Needs family = info.id[2] == '4' ? Needs::Node : info.id[2] == '5' ? Needs::Cluster : Needs::Log;
    CHECK(info.needs == family);
    if (info.needs == Needs::Log) {
      ++log;
      CHECK(log_rules().rule(info.id) == rule.get());
    } else {
      CHECK(log_rules().find(info.id) == nullptr);
    }
  }
  CHECK(log_rules().rules().size() == log);
}

TEST_CASE("every rule has a page and bad/good fixtures that behave") {
  std::set<std::string> ids;
  for (const auto& rule : all_rules().rules()) {
    const RuleInfo& info = rule->info();
    std::string id(info.id);
    ids.insert(id);
    INFO("rule " << id);
    fs::path page = kRoot / "man" / "rules" / (id + ".md");
    REQUIRE(fs::exists(page));
    std::string text = read_text(page);
    CHECK(text.starts_with(fmt::format("# {} {}\n", info.id, info.slug)));
    for (auto section : {"## Summary", "## Why it matters", "## Triggers", "## Does not trigger", "## How to fix",
                         "## Options", "## Limitations", "## See also"}) {
      CHECK_MESSAGE(text.find(section) != std::string::npos, page.string() << " lacks " << section);
    }
    FixtureKind kind = kind_of(info.needs);
    size_t bad = 0, good = 0;
    fs::path dir = kRoot / "testdata" / "rules" / id;
    REQUIRE(fs::is_directory(dir));
    for (const auto& entry : fs::directory_iterator(dir)) {
      std::string name = entry.path().filename().string();
      INFO("fixture " << name);
      if (name.ends_with(".jsonl.expect") && info.needs == Needs::Cluster) continue;
      // Anything else is a case, named for its outcome, of the rule's kind.
      CHECK(entry.path().extension() == kind.extension);
      auto found = kind.run(*rule, entry.path());
      if (name.starts_with("bad-")) {
        ++bad;
        CHECK_FALSE(found.empty());
        for (const auto& f : found) CHECK(f.id == id);
      } else {
        CHECK(name.starts_with("good-"));
        ++good;
        CHECK(messages(found) == std::vector<std::string>{});
      }
    }
    CHECK(bad >= 1);
    CHECK(good >= 1);
  }
  // No page and no fixture outlives its rule (IDs are never reused).
  for (const auto& dir : {kRoot / "man" / "rules", kRoot / "testdata" / "rules"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      CHECK_MESSAGE(ids.count(entry.path().stem().string()) == 1, entry.path().string() << " has no rule");
    }
  }
}
