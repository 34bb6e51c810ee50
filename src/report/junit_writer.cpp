#include "src/report/junit_writer.h"

#include <fmt/format.h>

namespace nd {
namespace {

// Decodes the UTF-8 sequence at s[i]: its length and code point, or length 0
// when invalid (overlong, surrogate, beyond U+10FFFF, cut short).
size_t decode_utf8(std::string_view s, size_t i, char32_t& cp) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t n;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    n = 2;
    cp = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3;
    cp = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

std::string escape(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(s, i, cp);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      // A parser turns a raw CR into LF even in content.
      case '\r': out += "&#13;"; break;
      default:
        if (cp < 0x20 || cp == 0x7f || cp == 0xfffe || cp == 0xffff) {
          // Not a legal XML 1.0 character, not even as &#N;.
          out += cp < 0x80 ? fmt::format("\\x{:02x}", static_cast<unsigned>(cp))
                           : fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
        } else if (cp >= 0x80 && cp <= 0x9f) {
          // Legal but discouraged C1 controls: a reference keeps them intact.
          out += fmt::format("&#{};", static_cast<unsigned>(cp));
        } else {
          out.append(s.substr(i, n));
        }
    }
    i += n;
  }
  return out;
}

const char* element_of(JunitCase::Outcome o) {
  switch (o) {
    case JunitCase::Outcome::Failure: return "failure";
    case JunitCase::Outcome::Skipped: return "skipped";
    case JunitCase::Outcome::Error: return "error";
    case JunitCase::Outcome::Passed: break;
  }
  return nullptr;
}

struct Counts {
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;

  void add(const Counts& o) {
    tests += o.tests;
    failures += o.failures;
    errors += o.errors;
    skipped += o.skipped;
  }
  std::string attributes() const {
    return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"", tests, failures, errors, skipped);
  }
};

std::string write_case(const JunitCase& c, Counts& counts) {
  ++counts.tests;
  counts.failures += c.outcome == JunitCase::Outcome::Failure;
  counts.errors += c.outcome == JunitCase::Outcome::Error;
  counts.skipped += c.outcome == JunitCase::Outcome::Skipped;
  std::string body;
  if (const char* element = element_of(c.outcome)) {
    std::string type = c.type.empty() ? std::string() : fmt::format(" type=\"{}\"", xml_escape(c.type));
    body += fmt::format("      <{0} message=\"{1}\"{2}>{3}</{0}>\n", element, xml_escape(c.message), type,
                        xml_escape_text(c.text));
  }
  if (!c.output.empty()) body += fmt::format("      <system-out>{}</system-out>\n", xml_escape_text(c.output));
  std::string head =
      fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_escape(c.classname), xml_escape(c.name));
  return body.empty() ? head + "/>\n" : head + ">\n" + body + "    </testcase>\n";
}

}  // namespace

std::string xml_escape(std::string_view s) { return escape(s, true); }

std::string xml_escape_text(std::string_view s) { return escape(s, false); }

std::string write_junit(std::string_view name, const std::vector<JunitSuite>& suites) {
  Counts all;
  std::string body;
  for (const auto& suite : suites) {
    Counts counts;
    std::string cases;
    for (const auto& c : suite.cases) cases += write_case(c, counts);
    body += fmt::format("  <testsuite name=\"{}\" {}>\n{}  </testsuite>\n", xml_escape(suite.name),
                        counts.attributes(), cases);
    all.add(counts);
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{}\" {}>\n{}</testsuites>\n",
                     xml_escape(name), all.attributes(), body);
}

}  // namespace nd
