#include <fmt/format.h>

#include "checks/registry.h"
#include "src/report/junit_writer.h"
#include "src/report/preflight_output.h"

namespace nd {
namespace {

// One test case per rule: failed by the findings (notes excepted) it holds.
struct Case {
  std::string name;
  std::vector<const Finding*> failures;
};

JunitSuite suite(const std::string& name, const std::vector<Case>& cases) {
  JunitSuite out{name, {}};
  for (const auto& c : cases) {
    JunitCase jc{name, c.name};
    if (!c.failures.empty()) {
      jc.outcome = JunitCase::Outcome::Failure;
      jc.message = c.failures[0]->message;
      jc.type = severity_name(c.failures[0]->severity);
      for (const Finding* f : c.failures) {
        jc.text += fmt::format("{}: {}\n", severity_name(f->severity), f->message);
        for (const auto& e : f->evidence) jc.text += fmt::format("  {}: {}\n", e.file, e.text);
      }
    }
    out.cases.push_back(std::move(jc));
  }
  return out;
}

bool names(const Finding& f, const std::string& label) {
  for (const auto& h : f.hosts) {
    if (h == label) return true;
  }
  return false;
}

}  // namespace

std::string render_preflight_junit(const PreflightReport& r) {
  std::vector<JunitSuite> suites;
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
    suites.push_back(suite(n.label, cases));
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
    suites.push_back(suite("cluster", cases));
  }
  return write_junit("nccl-doctor preflight", suites);
}

}  // namespace nd
