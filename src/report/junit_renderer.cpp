#include "src/report/junit_renderer.h"

#include <map>

#include <fmt/format.h>

#include "src/report/junit_writer.h"
#include "src/report/text_renderer.h"

namespace nd {
namespace {

struct Scope {
  std::string name;
  std::map<std::string, std::vector<const Finding*>> by_rule;
};

std::string findings_text(const std::vector<const Finding*>& findings) {
  std::string text;
  for (const Finding* f : findings) text += render_finding(*f, TextStyle{false});
  return text;
}

JunitCase rule_case(const CheckReport& report, const Scope& scope, const RuleStatus& rule) {
  JunitCase c{fmt::format("nccl-doctor.{}", scope.name), fmt::format("{} {}", rule.id, rule.slug)};
  std::vector<const Finding*> failing, other;
  if (auto it = scope.by_rule.find(rule.id); it != scope.by_rule.end()) {
    for (const Finding* f : it->second) (report.fails(*f) ? failing : other).push_back(f);
  }
  if (!failing.empty()) {
    c.outcome = JunitCase::Outcome::Failure;
    c.message = failing.front()->message;
    if (failing.size() > 1) c.message += fmt::format(" (and {} more)", failing.size() - 1);
    c.type = severity_name(failing.front()->severity);
    c.text = findings_text(failing);
  } else if (!rule.gaps.empty() && other.empty()) {
    const Gap& first = report.gaps[rule.gaps.front()];
    c.outcome = JunitCase::Outcome::Skipped;
    c.message = fmt::format("{}: {}", first.blocks_verdict ? "inconclusive" : "not checked", first.reason);
    for (size_t g : rule.gaps) c.text += fmt::format("{}; rerun with: {}\n", report.gaps[g].reason, report.gaps[g].rerun);
  }
  // Findings below --fail-on do not fail the case but stay visible.
  c.output = findings_text(other);
  return c;
}

}  // namespace

std::string render_junit(const CheckReport& report) {
  std::vector<Scope> scopes;
  scopes.push_back({"job", {}});
  std::map<std::string, size_t> scope_of;
  for (const auto& c : report.summary.comms) {
    scope_of.emplace(c.key, scopes.size());
    scopes.push_back({"communicator " + c.key, {}});
  }
  for (const auto& f : report.findings) {
    auto it = f.comm.empty() ? scope_of.end() : scope_of.find(f.comm);
    scopes[it == scope_of.end() ? 0 : it->second].by_rule[f.id].push_back(&f);
  }
  std::vector<JunitSuite> suites;
  for (const auto& scope : scopes) {
    JunitSuite suite{scope.name, {}};
    for (const auto& rule : report.rules) suite.cases.push_back(rule_case(report, scope, rule));
    suites.push_back(std::move(suite));
  }
  if (!report.input_errors.empty()) {
    // Unreadable inputs are errors of the run, not rule failures.
    JunitCase input{"nccl-doctor.job", "input", JunitCase::Outcome::Error, report.input_errors.front(), "input"};
    for (const auto& e : report.input_errors) input.text += e + "\n";
    suites.front().cases.push_back(std::move(input));
  }
  return write_junit("nccl-doctor check", suites);
}

}  // namespace nd
