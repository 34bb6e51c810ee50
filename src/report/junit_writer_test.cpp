#include "src/report/junit_writer.h"

#include <cstdio>

#include <doctest/doctest.h>

using namespace nd;

TEST_CASE("xml_escape: markup characters") {
  CHECK(xml_escape("a<b>&\"c'd") == "a&lt;b&gt;&amp;&quot;c&apos;d");
  CHECK(xml_escape("]]>") == "]]&gt;");
  CHECK(xml_escape("") == "");
}

TEST_CASE("xml_escape: whitespace controls survive as references") {
  CHECK(xml_escape("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d");
}

TEST_CASE("xml_escape: every other C0 control and DEL becomes visible text") {
  for (int c = 0; c < 0x20; ++c) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    std::string in(1, static_cast<char>(c));
    char expected[8];
    std::snprintf(expected, sizeof expected, "\\x%02x", c);
    CHECK(xml_escape(in) == expected);
  }
  CHECK(xml_escape(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(xml_escape("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(xml_escape("\x7f") == "\\x7f");
}

TEST_CASE("xml_escape: UTF-8 kept, C1 as references, invalid bytes and non-characters visible") {
  CHECK(xml_escape("gpu\xC3\xA9-\xE2\x80\x94-\xF0\x9F\x98\x80") == "gpu\xC3\xA9-\xE2\x80\x94-\xF0\x9F\x98\x80");
  CHECK(xml_escape("\xC2\x85") == "&#133;");              // NEL, a C1 control
  CHECK(xml_escape("\xEF\xBF\xBE") == "\\ufffe");          // U+FFFE
  CHECK(xml_escape("\xEF\xBF\xBF") == "\\uffff");          // U+FFFF
  CHECK(xml_escape("\xFF") == "\\xff");                    // never valid
  CHECK(xml_escape("\xC0\xAF") == "\\xc0\\xaf");           // overlong '/'
  CHECK(xml_escape("\xED\xA0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  CHECK(xml_escape("\xF4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  CHECK(xml_escape("\xE2\x80") == "\\xe2\\x80");           // cut short
}

TEST_CASE("xml_escape_text: element content keeps tabs and line breaks") {
  CHECK(xml_escape_text("a\tb\nc\rd<&>") == "a\tb\nc&#13;d&lt;&amp;&gt;");
  CHECK(xml_escape_text("\x01") == "\\x01");
}

TEST_CASE("write_junit: counts per suite and in all, one element per outcome") {
  JunitSuite a{"node a", {}};
  a.cases.push_back({"node a", "ND1 passes"});
  a.cases.push_back({"node a", "ND2 fails", JunitCase::Outcome::Failure, "bad <link>", "error", "error: bad\n  x: y\n"});
  JunitSuite b{"cluster", {}};
  b.cases.push_back({"cluster", "ND3 skipped", JunitCase::Outcome::Skipped, "not checked: no lines", "", "why\n"});
  b.cases.push_back({"cluster", "input", JunitCase::Outcome::Error, "cannot open", "input", "cannot open\n",
                     "notes\n"});
  CHECK(write_junit("nccl-doctor test", {a, b}) ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"nccl-doctor test\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\">\n"
        "  <testsuite name=\"node a\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
        "    <testcase classname=\"node a\" name=\"ND1 passes\"/>\n"
        "    <testcase classname=\"node a\" name=\"ND2 fails\">\n"
        "      <failure message=\"bad &lt;link&gt;\" type=\"error\">error: bad\n  x: y\n</failure>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "  <testsuite name=\"cluster\" tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"1\">\n"
        "    <testcase classname=\"cluster\" name=\"ND3 skipped\">\n"
        "      <skipped message=\"not checked: no lines\">why\n</skipped>\n"
        "    </testcase>\n"
        "    <testcase classname=\"cluster\" name=\"input\">\n"
        "      <error message=\"cannot open\" type=\"input\">cannot open\n</error>\n"
        "      <system-out>notes\n</system-out>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
}
