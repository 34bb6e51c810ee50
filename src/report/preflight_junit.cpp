#include <fmt/format.h>

#include "checks/registry.h"
#include "src/report/preflight_output.h"
#include "src/util/text.h"

namespace nd {
namespace {

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : valid_utf8(s)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

struct Case {
  std::string name;
  std::vector<const Finding*> failures;
};

std::string suite(const std::string& name, const std::vector<Case>& cases) {
  size_t failures = 0;
  for (const auto& c : cases) failures += !c.failures.empty();
  std::string out = fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                                xml_escape(name), cases.size(), failures);
  for (const auto& c : cases) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml_escape(name), xml_escape(c.name));
    if (c.failures.empty()) {
      out += "/>\n";
      continue;
    }
    std::string body;
    for (const Finding* f : c.failures) {
      body += fmt::format("{}: {}\n", severity_name(f->severity), f->message);
      for (const auto& e : f->evidence) body += fmt::format("  {}: {}\n", e.file, e.text);
    }
    out += fmt::format(">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                       xml_escape(c.failures[0]->message), severity_name(c.failures[0]->severity), xml_escape(body));
  }
  return out + "  </testsuite>\n";
}

bool names(const Finding& f, const std::string& label) {
  for (const auto& h : f.hosts) {
    if (h == label) return true;
  }
  return false;
}

}  // namespace

std::string render_preflight_junit(const PreflightReport& r) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"nccl-doctor preflight\">\n";
  for (const auto& n : r.nodes) {
    std::vector<Case> cases;
    for (const auto& rule : all_rules().rules()) {
      if (rule->info().needs != Needs::Node) continue;
      Case c{fmt::format("{} {}", rule->info().id, rule->info().slug), {}};
      for (const auto& f : r.findings) {
        // Notes (info) do not fail a test case.
        if (f.id == rule->info().id && f.severity != Severity::Info && names(f, n.label)) c.failures.push_back(&f);
      }
      cases.push_back(std::move(c));
    }
    out += suite(n.label, cases);
  }
  if (r.aggregate) {
    std::vector<Case> cases;
    for (const auto& rule : all_rules().rules()) {
      if (rule->info().needs != Needs::Cluster) continue;
      Case c{fmt::format("{} {}", rule->info().id, rule->info().slug), {}};
      for (const auto& f : r.findings) {
        if (f.id == rule->info().id && f.severity != Severity::Info) c.failures.push_back(&f);
      }
      cases.push_back(std::move(c));
    }
    out += suite("cluster", cases);
  }
  return out + "</testsuites>\n";
}

}  // namespace nd
