#pragma once
// Which channels of a communicator the log shows, by what shows them: the
// one definition that summaries, rails and rules share.

#include <array>
#include <cstdint>
#include <vector>

#include "parsers/line_classifier.h"
#include "src/model/job_model.h"

namespace nd {

// Channel numbers as bits: summaries and rules build several sets per
// communicator, so a set must cost no allocation. Channels the parser
// accepts fit the bits; any other number (a model built by hand) goes to a
// short sorted list.
class ChannelSet {
 public:
  void insert(uint16_t ch) {
    if (ch < kBitCount) {
      uint64_t& word = bits_[ch / 64];
      uint64_t bit = uint64_t{1} << (ch % 64);
      count_ += (word & bit) == 0;
      word |= bit;
    } else {
      insert_beyond_bits(ch);
    }
  }
  void insert(const ChannelSet& other);
  bool contains(uint16_t ch) const;
  size_t size() const { return count_; }
  std::vector<uint16_t> list() const;

 private:
  static constexpr size_t kBitCount = kMaxChannels;
  void insert_beyond_bits(uint16_t ch);

  std::array<uint64_t, kBitCount / 64> bits_{};
  std::vector<uint16_t> beyond_bits_;
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
