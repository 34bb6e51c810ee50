#include "src/probe/probe_node.h"

#include <filesystem>

#include "src/probe/captured_verbs.h"
#include "src/probe/snapshot_collect.h"
#include "src/probe/verbs_loader.h"

namespace nd {
namespace {

// The captured node's verbs answers, or "not-captured" with the reason.
// A capture of the capture keeps its verbs answers: `verbs_record` gets
// them as read.
NodeSnapshot collect_from_capture(const SysfsReader& sysfs, const HostFacts& facts, std::vector<ReadIssue>& issues,
                                  std::string* verbs_record) {
  std::string error;
  std::optional<CapturedVerbs> captured = load_captured_verbs(sysfs, error);
  if (!captured) {
    if (!error.empty()) issues.push_back({kVerbsCaptureFile, error});
    return collect_snapshot(sysfs, facts,
                            {nullptr, "not-captured",
                             "the capture has no verbs facts (verbs.json: taken with --no-verbs, or by an older "
                             "version); verbs not checked"});
  }
  if (verbs_record != nullptr) *verbs_record = sysfs.read(kVerbsCaptureFile).value;
  return collect_snapshot(sysfs, facts, {captured->probe.get(), captured->status, captured->message});
}

}  // namespace

ProbeSource probe_source_for(const std::string& sysfs_root, bool no_verbs) {
  std::error_code ec;
  bool live = std::filesystem::equivalent(sysfs_root, "/sys", ec) && !ec;
  if (live) return no_verbs ? ProbeSource::LiveNodeNoVerbs : ProbeSource::LiveNode;
  return no_verbs ? ProbeSource::CaptureNoVerbs : ProbeSource::Capture;
}

NodeSnapshot probe_node(const SysfsReader& sysfs, const EnvLookup& env, ProbeSource source, HostFacts* facts_out,
                        std::string* verbs_record) {
  bool capture = source == ProbeSource::Capture || source == ProbeSource::CaptureNoVerbs;
  std::vector<ReadIssue> issues;
  HostFacts facts = load_host_facts(sysfs, env, issues, capture ? HostFactsOrigin::Capture : HostFactsOrigin::Live);
  NodeSnapshot n;
  if (source == ProbeSource::LiveNode) {
    VerbsLoad load = load_verbs_plugin(env);
    RecordingVerbsProbe recorder(load.probe.get());
    std::string status = verbs_load_status_str(load.status);
    n = collect_snapshot(sysfs, facts, {load.probe ? &recorder : nullptr, status, load.message});
    if (verbs_record != nullptr) verbs_record->assign(verbs_capture_json(status, load.message, load.probe ? &recorder : nullptr));
  } else if (source == ProbeSource::Capture) {
    n = collect_from_capture(sysfs, facts, issues, verbs_record);
  } else {
    n = collect_snapshot(sysfs, facts, {nullptr, "skipped", "verbs not consulted (--no-verbs)"});
  }
  n.issues.insert(n.issues.begin(), issues.begin(), issues.end());
  if (facts_out != nullptr) *facts_out = std::move(facts);
  return n;
}

}  // namespace nd
