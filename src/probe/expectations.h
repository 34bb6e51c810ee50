#pragma once
// What a site expects of its nodes: `--expect hcas=8,rate=400,link=ib,gdr=yes`
// or the same keys one per line in a file. Anything unset falls back to the
// zero-config rules (ports of one node agree with each other, all ACTIVE).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nd {

struct Expectations {
  std::optional<uint32_t> hcas;      // RDMA devices per node
  std::optional<double> rate;        // Gb/s per port
  std::optional<std::string> link;   // "ib" or "roce"
  std::optional<bool> gdr;           // GPUDirect RDMA must be ready
  std::optional<uint64_t> memlock;   // minimum bytes; kMemlockUnlimited by default
  std::optional<uint32_t> gpus;      // GPUs per node
  std::optional<uint32_t> nodes;     // records expected by --aggregate
};

// Adds "key=value[,key=value…]" to `e`. Returns an error message naming the
// bad key, or "" when all parsed. Sizes accept K/M/G suffixes and "unlimited".
std::string parse_expectations(std::string_view spec, Expectations& e);

// One key=value per line; '#' starts a comment.
std::string parse_expectations_file(std::string_view text, Expectations& e);

std::string expectations_str(const Expectations& e);  // "hcas=8,rate=400" (set keys only)

}  // namespace nd
