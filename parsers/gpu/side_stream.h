#pragma once
// Every reader of a tool's output, for one stream: one input, or the lines
// of one host within it (a launcher prefix names the host). The reader in
// the middle of a block sees each line first; out of a block, each reader
// may claim a line that opens its format.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/gpu/gpu_records.h"

namespace nd {

class SideStream {
 public:
  SideStream();
  // Whether a reader took the line.
  bool feed(std::string_view payload, uint64_t line);
  // The stream ended: readers keep what is pending.
  void finish();

  // What the readers found; the caller may take samples and processes out
  // as they come, so that a long dmon log does not pile up.
  GpuRecords records;

 private:
  std::vector<std::unique_ptr<BlockReader>> readers_;
  BlockReader* current_ = nullptr;
};

// A PCI address as "0000:06:00.0", lower case, whatever form a tool printed:
// nvidia-smi's "00000000:06:00.0", nccl-tests' "0000:06:00" or "0x06",
// NCCL's busId "6000"/"0000:06:00.0". Empty when `text` is none of them.
std::string canonical_bus_id(std::string_view text);

}  // namespace nd
