#include "src/util/text.h"

#include <doctest/doctest.h>

using namespace nd;
using namespace std::string_view_literals;

TEST_CASE("printable escapes control bytes and broken UTF-8") {
  CHECK(printable("gpu01") == "gpu01");
  CHECK(printable("evil\x1b[2Jhost") == "evil\\x1b[2Jhost");
  CHECK(printable("a\tb") == "a b");
  CHECK(printable("\xff\xfeok") == "\\xff\\xfeok");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("valid_utf8 replaces invalid sequences") {
  CHECK(valid_utf8("ok") == "ok");
  CHECK(valid_utf8("a\xffz") == "a\xEF\xBF\xBDz");
  CHECK(valid_utf8("\xc3") == "\xEF\xBF\xBD");
}

TEST_CASE("valid_utf8 finds a stray byte anywhere in a long ASCII line") {
  const std::string line = "gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
  CHECK(valid_utf8(line) == line);
  for (size_t at = 0; at < line.size(); ++at) {
    std::string bad = line;
    bad[at] = '\xff';
    CAPTURE(at);
    CHECK(valid_utf8(bad) == line.substr(0, at) + "\xEF\xBF\xBD" + line.substr(at + 1));
  }
  CHECK(valid_utf8("h\xc3\xa9llo w\xc3\xb6rld, nothing to replace") == "h\xc3\xa9llo w\xc3\xb6rld, nothing to replace");
}

TEST_CASE("trim drops blanks at both ends, sysfs and CRLF ones included") {
  CHECK(trim("  mlx5_0\n") == "mlx5_0");
  CHECK(trim("4: ACTIVE\0"sv) == "4: ACTIVE");
  CHECK(trim("\tkey = value\r") == "key = value");
  CHECK(trim("a b") == "a b");
  CHECK(trim(" \r\n\t") == "");
}

TEST_CASE("plural adds an s to any count but one") {
  CHECK(plural(0, "host") == "0 hosts");
  CHECK(plural(1, "host") == "1 host");
  CHECK(plural(2, "host pair") == "2 host pairs");
  CHECK(plural(8192, "rank") == "8192 ranks");
}
