#include "parsers/line_reader.h"

#include <string>
#include <unistd.h>

#include <doctest/doctest.h>

using namespace nd;

namespace {

// Feeds `data` through a pipe in a writer thread-free way: small inputs fit
// in the pipe buffer.
std::vector<Line> read_all(const std::string& data, size_t max_line = 64, size_t chunk = 16,
                           std::vector<std::string>* texts = nullptr) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(write(fds[1], data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  close(fds[1]);
  LineReader reader(fds[0], max_line, chunk);
  std::vector<Line> lines;
  Line line;
  while (reader.next(line)) {
    lines.push_back(line);
    if (texts) texts->emplace_back(line.text);
  }
  close(fds[0]);
  return lines;
}

}  // namespace

TEST_CASE("lines split on LF and CRLF with 1-based numbers") {
  std::vector<std::string> texts;
  auto lines = read_all("a\r\nbb\n\nccc", 64, 16, &texts);
  REQUIRE(texts.size() == 4);
  CHECK(texts[0] == "a");
  CHECK(texts[1] == "bb");
  CHECK(texts[2] == "");
  CHECK(texts[3] == "ccc");
  CHECK(lines[3].number == 4);
}

TEST_CASE("a line longer than the cap is cut and its tail skipped") {
  std::vector<std::string> texts;
  std::string data = std::string(200, 'x') + "\nnext\n";
  auto lines = read_all(data, 32, 8, &texts);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0] == std::string(32, 'x'));
  CHECK(lines[0].truncated);
  CHECK(texts[1] == "next");
  CHECK(lines[1].number == 2);
}

TEST_CASE("an overlong line read in one chunk is cut the same way") {
  std::vector<std::string> texts;
  auto lines = read_all(std::string(100, 'y') + "\nz\n", 32, 4096, &texts);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0] == std::string(32, 'y'));
  CHECK(lines[0].truncated);
  CHECK(texts[1] == "z");
}

TEST_CASE("a line of exactly the cap is whole, however its bytes arrive") {
  // The newline in the same read, in a later read, or never (end of input).
  for (size_t chunk : {4, 32, 33, 4096}) {
    for (const std::string& end : {std::string("\n"), std::string()}) {
      std::vector<std::string> texts;
      auto lines = read_all(std::string(32, 'w') + end, 32, chunk, &texts);
      CAPTURE(chunk);
      REQUIRE(texts.size() == 1);
      CHECK(texts[0] == std::string(32, 'w'));
      CHECK_FALSE(lines[0].truncated);
    }
  }
  auto lines = read_all(std::string(33, 'w'), 32, 4);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].truncated);
}

TEST_CASE("lines spanning read chunks are joined") {
  std::vector<std::string> texts;
  read_all("0123456789abcdef0123\nxy\n", 64, 4, &texts);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0] == "0123456789abcdef0123");
}

TEST_CASE("a last line without newline is kept") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(write(fds[1], "one\ntwo", 7) == 7);
  close(fds[1]);
  LineReader reader(fds[0], 64, 16);
  Line line;
  REQUIRE(reader.next(line));
  REQUIRE(reader.next(line));
  CHECK(line.text == "two");
  CHECK_FALSE(reader.next(line));
  CHECK(reader.ended_without_newline());
  close(fds[0]);
}

TEST_CASE("a read error is reported, not a crash") {
  LineReader reader(-1, 64, 16);
  Line line;
  CHECK_FALSE(reader.next(line));
  CHECK(reader.error() != 0);
}
