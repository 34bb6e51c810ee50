#pragma once
// A diagnosis: one rule's verdict on one group of evidence, with the log lines
// (or probe facts) that prove it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

enum class Severity : uint8_t { Info, Warning, Error };

const char* severity_name(Severity s);  // "info", "warning", "error"

struct Evidence {
  std::string file;   // log file, or a sysfs path for probe facts
  uint64_t line = 0;  // 0 when not a line of a file
  std::string text;   // the line as logged (may be empty when not retained)
};

struct Finding {
  std::string id;    // "ND3001"
  std::string slug;  // "inter-node-socket"
  Severity severity = Severity::Warning;
  std::string message;
  std::string comm;  // communicator key, empty when not about one
  std::vector<std::string> hosts;
  std::vector<uint32_t> ranks;
  std::vector<uint32_t> channels;
  std::vector<Evidence> evidence;
  // IDs of findings this one explains or is explained by ("ND3001"); JSON
  // key "related", omitted when empty.
  std::vector<std::string> related;
  // One line the user can act on: the rule's `Fix:` line unless the rule
  // knows a more precise one. JSON key "fix".
  std::string fix;
  // What the finding is about, beside its rule and communicator, in words
  // that stay the same as more lines arrive ("NET/Socket gpu009 gpu028"):
  // live mode tells each subject once. Empty: its hosts. Not rendered.
  std::string subject;
};

// "ND3001|0x52e9|NET/Socket gpu009 gpu028": a finding's identity for live
// mode, stable while its message and evidence grow.
std::string finding_key(const Finding& f);

// What the log lacks for some check, and what to rerun with. A gap that
// blocks the verdict leaves the main question (do the links seen use the
// right transports?) unanswerable: the verdict is then INCONCLUSIVE. The
// others only leave some checks undone ("not checked").
struct Gap {
  std::string reason;
  std::string rerun;
  // ID prefixes of the rules it leaves undecided ("ND2", "ND3001"); empty:
  // every rule.
  std::vector<std::string> affects = {};
  bool blocks_verdict = true;
};

}  // namespace nd
