#include "src/report/junit_renderer.h"

#include <map>

#include <fmt/format.h>

#include "src/report/text_renderer.h"

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

struct Scope {
  std::string name;
  std::map<std::string, std::vector<const Finding*>> by_rule;
};

bool fails(Severity s, FailOn fail_on) {
  switch (fail_on) {
    case FailOn::Error: return s == Severity::Error;
    case FailOn::Warning: return s != Severity::Info;
    case FailOn::Info:
    case FailOn::Inconclusive: return true;
  }
  return false;
}

bool gap_affects(const Gap& g, std::string_view id) {
  // A check left undone names its rules; only a verdict left open skips all.
  if (g.affects.empty()) return g.blocks_verdict;
  for (const auto& prefix : g.affects) {
    if (id.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

std::string xml_escape(std::string_view s) {
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
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
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

std::string render_junit(const CheckReport& report, const Registry& registry, const RuleSelection& selection,
                         FailOn fail_on) {
  std::vector<Scope> scopes;
  scopes.push_back({"job", {}});
  std::map<std::string, size_t> scope_of;
  for (const auto& c : report.summary.comms) {
    scope_of.emplace(c.key, scopes.size());
    scopes.push_back({"communicator " + c.key, {}});
  }
  for (const auto& f : report.findings) {
    auto it = f.comm.empty() ? scope_of.end() : scope_of.find(f.comm);
    size_t index = it == scope_of.end() ? 0 : it->second;
    scopes[index].by_rule[f.id].push_back(&f);
  }

  std::string suites;
  size_t all_tests = 0, all_failures = 0, all_skipped = 0, all_errors = 0;
  const TextStyle plain{false};
  for (const auto& scope : scopes) {
    std::string cases;
    size_t tests = 0, failures = 0, skipped = 0;
    for (const auto& rule : registry.rules()) {
      const RuleInfo& info = rule->info();
      if (!selection.enabled(info.id)) continue;
      ++tests;
      std::string head = fmt::format("    <testcase classname=\"nccl-doctor.{}\" name=\"{} {}\"",
                                     xml_escape(scope.name), info.id, info.slug);
      auto it = scope.by_rule.find(std::string(info.id));
      std::vector<const Finding*> failing, other;
      if (it != scope.by_rule.end()) {
        for (const Finding* f : it->second) (fails(f->severity, fail_on) ? failing : other).push_back(f);
      }
      std::string body;
      if (!failing.empty()) {
        ++failures;
        std::string message = failing.front()->message;
        if (failing.size() > 1) message += fmt::format(" (and {} more)", failing.size() - 1);
        std::string text;
        for (const Finding* f : failing) text += render_finding(*f, plain);
        body += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(message),
                            severity_name(failing.front()->severity), xml_escape(text));
      } else {
        std::string reasons;
        const Gap* first = nullptr;
        for (const auto& g : report.gaps) {
          if (!gap_affects(g, info.id)) continue;
          if (!first) first = &g;
          reasons += fmt::format("{}; rerun with: {}\n", g.reason, g.rerun);
        }
        if (first && other.empty()) {
          ++skipped;
          body += fmt::format("      <skipped message=\"{}: {}\">{}</skipped>\n",
                              first->blocks_verdict ? "inconclusive" : "not checked", xml_escape(first->reason),
                              xml_escape(reasons));
        }
      }
      if (!other.empty()) {
        // Findings below --fail-on do not fail the case but stay visible.
        std::string text;
        for (const Finding* f : other) text += render_finding(*f, plain);
        body += fmt::format("      <system-out>{}</system-out>\n", xml_escape(text));
      }
      cases += body.empty() ? head + "/>\n" : head + ">\n" + body + "    </testcase>\n";
    }
    size_t errors = 0;
    if (&scope == &scopes.front() && !report.input_errors.empty()) {
      // Unreadable inputs are errors of the run, not rule failures.
      ++tests;
      ++errors;
      std::string text;
      for (const auto& e : report.input_errors) text += e + "\n";
      cases += fmt::format("    <testcase classname=\"nccl-doctor.job\" name=\"input\">\n"
                           "      <error message=\"{}\" type=\"input\">{}</error>\n    </testcase>\n",
                           xml_escape(report.input_errors.front()), xml_escape(text));
    }
    suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n{}"
                          "  </testsuite>\n",
                          xml_escape(scope.name), tests, failures, errors, skipped, cases);
    all_errors += errors;
    all_tests += tests;
    all_failures += failures;
    all_skipped += skipped;
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"nccl-doctor check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                     "skipped=\"{}\">\n{}</testsuites>\n",
                     all_tests, all_failures, all_errors, all_skipped, suites);
}

}  // namespace nd
