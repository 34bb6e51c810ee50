#include "parsers/line_splitter.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using namespace nd;

namespace {

std::vector<Line> split(std::string_view data, size_t max_line = 64) {
  std::vector<Line> lines;
  uint64_t n = split_lines(data, max_line, [&](const Line& line) { lines.push_back(line); });
  CHECK(n == lines.size());
  return lines;
}

}  // namespace

TEST_CASE("lines split on LF and CRLF with 1-based numbers") {
  auto lines = split("a\r\nbb\n\nccc");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].text == "a");
  CHECK(lines[1].text == "bb");
  CHECK(lines[2].text == "");
  CHECK(lines[3].text == "ccc");
  CHECK(lines[3].number == 4);
  CHECK_FALSE(lines[3].truncated);
}

TEST_CASE("a line longer than the cap keeps its head and is flagged") {
  std::string data = std::string(200, 'x') + "\nnext\n";
  auto lines = split(data, 32);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].text == std::string(32, 'x'));
  CHECK(lines[0].truncated);
  CHECK(lines[1].text == "next");
  CHECK(lines[1].number == 2);
  CHECK_FALSE(lines[1].truncated);
}

TEST_CASE("a line of exactly the cap is whole, with or without its newline") {
  for (const std::string& end : {std::string("\n"), std::string()}) {
    std::string data = std::string(32, 'w') + end;
    auto lines = split(data, 32);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].text == std::string(32, 'w'));
    CHECK_FALSE(lines[0].truncated);
  }
  // The CR of a CRLF counts towards the cap: one byte over is cut.
  std::string crlf = std::string(32, 'w') + "\r\n";
  auto lines = split(crlf, 32);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text == std::string(32, 'w'));
  CHECK(lines[0].truncated);
  crlf = std::string(31, 'w') + "\r\n";
  lines = split(crlf, 32);
  CHECK(lines[0].text == std::string(31, 'w'));
  CHECK_FALSE(lines[0].truncated);
}

TEST_CASE("a last line without newline is kept; an empty buffer has no lines") {
  auto lines = split("one\ntwo\r");
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].text == "two");
  CHECK(split("").empty());
  CHECK(split("\n").size() == 1);
}

TEST_CASE("make_line applies the rules to one line's bytes") {
  std::string_view text = "gpu01:2771:2771 [0] NCCL INFO Using network IB\r";
  Line line = make_line(text.data(), text.size(), 1024, 7);
  CHECK(line.text == "gpu01:2771:2771 [0] NCCL INFO Using network IB");
  CHECK(line.number == 7);
  CHECK_FALSE(line.truncated);
  line = make_line(text.data(), text.size(), 5, 8);
  CHECK(line.text == "gpu01");
  CHECK(line.truncated);
  CHECK(overlong_head(5) == 6);
}
