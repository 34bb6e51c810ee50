// Walks the rule catalogue: every rule has its documentation page with the
// required sections, and fixtures named bad-* that fire it and good-* that
// do not.

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <doctest/doctest.h>

#include "checks/check_fixture.h"
#include "checks/registry.h"
#include "src/model/line_feeder.h"

using namespace nd;
namespace fs = std::filesystem;

namespace {

JobModel model_of_file(const fs::path& path) {
  JobModel model;
  ModelBuilder builder(model);
  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  uint32_t file = builder.add_file(path.filename().string());
  CHECK(feed_lines(fd, file, builder).error == 0);
  ::close(fd);
  builder.finish();
  return model;
}

std::set<std::string> fired(const JobModel& model) {
  CollectingSink sink;
  CheckOptions options;
  for (const auto& rule : log_rules().rules()) rule->check(CheckContext{model, options}, sink);
  std::set<std::string> ids;
  for (const auto& f : sink.findings) ids.insert(f.id);
  return ids;
}

}  // namespace

TEST_CASE("rule IDs and slugs are unique, well formed and sorted") {
  std::set<std::string_view> ids, slugs;
  std::string_view previous;
  for (const auto& rule : log_rules().rules()) {
    const auto& info = rule->info();
    CHECK(info.id.size() == 6);
    CHECK(info.id.starts_with("ND"));
    CHECK(ids.insert(info.id).second);
    CHECK(slugs.insert(info.slug).second);
    CHECK(previous < info.id);
    previous = info.id;
    CHECK(log_rules().find(info.slug) == &info);
    CHECK(log_rules().find(info.id) == &info);
  }
}

TEST_CASE("every rule has a page and bad/good fixtures that behave") {
  const fs::path root(ND_SOURCE_ROOT);
  for (const auto& rule : log_rules().rules()) {
    std::string id(rule->info().id);
    INFO("rule " << id);
    fs::path page = root / "man" / "rules" / (id + ".md");
    REQUIRE(fs::exists(page));
    std::stringstream text;
    text << std::ifstream(page).rdbuf();
    for (auto section : {"## Summary", "## Why it matters", "## Triggers", "## Does not trigger", "## How to fix",
                         "## Options", "## Limitations", "## See also"}) {
      CHECK_MESSAGE(text.str().find(section) != std::string::npos, page.string() << " lacks " << section);
    }
    size_t bad = 0, good = 0;
    for (const auto& entry : fs::directory_iterator(root / "testdata" / "rules" / id)) {
      std::string name = entry.path().filename().string();
      INFO("fixture " << name);
      auto ids = fired(model_of_file(entry.path()));
      if (name.starts_with("bad-")) {
        ++bad;
        CHECK(ids.count(id) == 1);
      } else if (name.starts_with("good-")) {
        ++good;
        CHECK(ids.count(id) == 0);
      }
    }
    CHECK(bad >= 1);
    CHECK(good >= 1);
  }
}
