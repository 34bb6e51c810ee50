#pragma once
// Live mode (`check --tee -`, `--hang-after`): while the input is still
// open, judges the model the batch run builds with the rules the batch run
// runs, and tells each finding once, long before the report at end of input.
//
// Only rules whose findings hold whatever lines follow (RuleInfo::decided ==
// Decided::AsSeen: transports, WARNs, hangs with evidence) run live, and they
// see CheckContext::input_open. Notes wait for the report. A finding is told
// once per rule, communicator and subject (finding_key()), even as its
// message grows; the report at the end stays the authority.
//
// Besides findings, one note per communicator once all its ranks printed
// Init COMPLETE, with the links seen so far: the live "all clear so far".

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checks/registry.h"
#include "src/model/model_builder.h"

namespace nd {

class LiveReporter {
 public:
  using Clock = std::chrono::steady_clock;
  // `rules`: the registry's AsSeen rules that `selection` enables, and of
  // those only `only` when it is not empty. `emit` receives text ready to
  // print, from whichever thread merges input.
  LiveReporter(ModelBuilder& builder, const Registry& rules, const RuleSelection& selection,
               const CheckOptions& options, std::function<void(std::string_view)> emit,
               std::set<std::string_view> only = {});

  // After each chunk of input is in the model (FeedOptions::after_merge).
  void after_merge(bool more_input);
  // The input has been quiet (FeedOptions::on_silence): ranks still in init
  // become a stall in the model, which init-incomplete reports.
  void on_silence(LineRef last, Clock::duration quiet);

  // Findings told so far (notes not counted).
  size_t reported() const { return reported_; }
  // The keys (finding_key()) of the findings told so far.
  const std::set<std::string>& told() const { return told_; }

  // Live findings per rule before the rest wait for the final report.
  static constexpr size_t kMaxPerRule = 8;
  // Judging may take at most this share of the time while more input waits.
  static constexpr int kMaxShare = 10;

 private:
  // What the live rules read has grown since they last ran.
  uint64_t progress() const;
  void judge();
  void tell(const Finding& f);
  void announce_complete_communicators();

  ModelBuilder& builder_;
  const CheckOptions& options_;
  std::function<void(std::string_view)> emit_;
  std::vector<const Rule*> rules_;
  uint64_t judged_progress_ = 0;
  Clock::time_point judged_at_{};
  Clock::duration judge_cost_{};
  std::set<std::string> told_;
  std::map<std::string, size_t> per_rule_;
  std::set<std::string> announced_;  // communicators whose init completed
  size_t reported_ = 0;
};

}  // namespace nd
