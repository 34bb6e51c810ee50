#include <doctest/doctest.h>

#include "checks/node_fixture.h"

using namespace nd;

TEST_CASE("a record that could not be read is cited by input and line") {
  std::vector<RecordProblem> problems = {{7, "not valid JSON", "{\"hello\": }"}};
  auto found = run_cluster_rule("record-invalid", {healthy_node("n1")}, problems);
  CHECK(messages(found) == std::vector<std::string>{"warning: record at line 7 ignored: not valid JSON"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].evidence.at(0).file == "records.jsonl");
  CHECK(found[0].evidence.at(0).line == 7);
  CHECK(found[0].evidence.at(0).text == "{\"hello\": }");
  CHECK(run_cluster_rule("record-invalid", {healthy_node("n1")}).empty());
}
