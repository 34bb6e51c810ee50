#pragma once
// Which channels of a communicator the log shows, by what shows them: the
// one definition that summaries, rails and rules share.

#include <cstdint>
#include <vector>

#include "src/model/job_model.h"

namespace nd {

// Channel numbers as flags: a communicator has few channels, and they are
// asked about once per edge.
class ChannelSet {
 public:
  void insert(uint16_t ch) {
    if (ch >= on_.size()) on_.resize(size_t{ch} + 1);
    count_ += !on_[ch];
    on_[ch] = true;
  }
  void insert(const ChannelSet& other);
  bool contains(uint16_t ch) const { return ch < on_.size() && on_[ch]; }
  size_t size() const { return count_; }
  std::vector<uint16_t> list() const;

 private:
  std::vector<bool> on_;
  size_t count_ = 0;
};

// The channels with a connection line.
ChannelSet connected_channels(const Communicator& comm);
// The channels build_rings() draws a ring on (see ring_source()), without
// building the graphs.
ChannelSet ring_channels(const Communicator& comm);
// The channels with a tree (NVLS trees left out).
ChannelSet tree_channels(const Communicator& comm);
// The channels NCCL set up: named by any GRAPH ring line, ring listing, tree
// line or connection line.
ChannelSet channels_set_up(const Communicator& comm);

}  // namespace nd
