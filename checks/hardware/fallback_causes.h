#pragma once
// Why a log's transport fell back, as the probe record of a node shows it.
// The causes are the node rules' own findings (no predicate is copied):
// each fallback rule lists the node rules that explain it, and a finding of
// the log on a host that a record describes cites the causes found there.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checks/finding.h"

namespace nd {

// One probe record read beside the log, and what the node rules found on it.
struct RecordedNode {
  std::string host;       // as the record names it; empty: none
  std::string file;       // the record's input, for evidence
  uint64_t line = 0;      // where the record starts
  std::vector<Finding> findings;  // every node rule's, enabled or not
};

// The node rules whose findings explain the fallback that the log rule `id`
// reports: sockets between nodes (ND3001, ND3005), RDMA without GPUDirect
// (ND3004), SHM inside a node (ND3002). Empty for any other rule.
std::span<const std::string_view> fallback_cause_rules(std::string_view id);

// A log's host name and a record's name one host: the same name, or the
// same short name (NCCL prints gethostname() cut at the first '.').
bool same_host(std::string_view log_host, std::string_view record_host);

// "a100-05: mlx5_0 port 1 is DOWN / Polling": a cause in a few words.
std::string cause_words(const RecordedNode& node, const Finding& cause);

// Adds to each fallback finding whose hosts a record describes the causes
// found on them: their words in the message, the record's line as evidence
// (within max_evidence, keeping one line of the log), the node rules' IDs in
// `related`.
void explain_fallbacks(std::vector<Finding>& findings, std::span<const RecordedNode> nodes, size_t max_evidence);

}  // namespace nd
