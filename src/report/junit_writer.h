#pragma once
// The one JUnit XML writer of `check` and `preflight`: suites of test cases,
// each passed, failed, skipped or in error, with the counts CI dashboards
// read, and all text escaped for XML 1.0.

#include <string>
#include <string_view>
#include <vector>

namespace nd {

struct JunitCase {
  enum class Outcome : uint8_t { Passed, Failure, Skipped, Error };
  std::string classname;
  std::string name;
  Outcome outcome = Outcome::Passed;
  std::string message = {};  // failure, skipped, error: the attribute
  std::string type = {};     // failure, error: "error", "warning", "input"
  std::string text = {};     // failure, skipped, error: the body
  std::string output = {};   // <system-out>, when not empty
};

struct JunitSuite {
  std::string name;
  std::vector<JunitCase> cases;
};

// `<testsuites name="...">` with totals, one `<testsuite>` per suite.
std::string write_junit(std::string_view name, const std::vector<JunitSuite>& suites);

// Escapes text for an XML 1.0 attribute value: & < > " ' become entities;
// tab, LF and CR become character references (so the attribute keeps them);
// other control characters, which XML 1.0 cannot carry even as references,
// and invalid UTF-8 bytes become the visible text "\xNN".
std::string xml_escape(std::string_view s);
// The same for element content, where tab and LF stay as they are: a body
// of several lines reads as lines.
std::string xml_escape_text(std::string_view s);

}  // namespace nd
