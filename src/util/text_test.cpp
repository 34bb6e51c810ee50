#include "src/util/text.h"

#include <doctest/doctest.h>

using namespace nd;

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
