#include <doctest/doctest.h>

#include <string>

#include "parsers/guarded_pattern.h"

using namespace nd;

TEST_CASE("a guarded pattern is compiled only for text that holds its word") {
  GuardedPattern p("Got completion", R"(Got completion (?:from peer (\S+) )?with error (\d+))");
  std::string peer, status;
  CHECK_FALSE(p.partial_match("NET/IB : Got async event : port error", &peer, &status));
  CHECK_FALSE(p.is_compiled());
  CHECK_FALSE(p.partial_match("Got completion but no status"));
  CHECK(p.is_compiled());
  REQUIRE(p.partial_match("NET/IB : Got completion from peer 10.1.0.8<1> with error 12, opcode 0", &peer, &status));
  CHECK(peer == "10.1.0.8<1>");
  CHECK(status == "12");
}

TEST_CASE("a guarded pattern answers as its regular expression wherever the word stands") {
  GuardedPattern p("errno ", R"( errno (\d+))");
  const char* texts[] = {"", "errno", "errno 5", " errno 5", "x errno 12, more", "errno x errno 7", " errno  9"};
  re2::RE2 plain(R"( errno (\d+))");
  for (const char* text : texts) {
    INFO(text);
    std::string a, b;
    CHECK(p.partial_match(text, &a) == re2::RE2::PartialMatch(text, plain, &b));
    CHECK(a == b);
  }
}
