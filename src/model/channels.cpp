#include "src/model/channels.h"

#include <algorithm>
#include <bit>

#include "src/model/ring_graph.h"

namespace nd {

void ChannelSet::insert(const ChannelSet& other) {
  for (size_t i = 0; i < bits_.size(); ++i) {
    uint64_t added = other.bits_[i] & ~bits_[i];
    count_ += static_cast<size_t>(std::popcount(added));
    bits_[i] |= added;
  }
  for (uint16_t ch : other.beyond_bits_) insert_beyond_bits(ch);
}

void ChannelSet::insert_beyond_bits(uint16_t ch) {
  auto at = std::lower_bound(beyond_bits_.begin(), beyond_bits_.end(), ch);
  if (at != beyond_bits_.end() && *at == ch) return;
  beyond_bits_.insert(at, ch);
  ++count_;
}

bool ChannelSet::contains(uint16_t ch) const {
  if (ch < kBitCount) return (bits_[ch / 64] >> (ch % 64)) & 1;
  return std::binary_search(beyond_bits_.begin(), beyond_bits_.end(), ch);
}

std::vector<uint16_t> ChannelSet::list() const {
  std::vector<uint16_t> out;
  out.reserve(count_);
  for (size_t i = 0; i < bits_.size(); ++i) {
    for (uint64_t word = bits_[i]; word != 0; word &= word - 1) {
      out.push_back(static_cast<uint16_t>(i * 64 + static_cast<size_t>(std::countr_zero(word))));
    }
  }
  out.insert(out.end(), beyond_bits_.begin(), beyond_bits_.end());
  return out;
}

ChannelSet connected_channels(const Communicator& comm) {
  ChannelSet out;
  for (const auto& e : comm.edges) out.insert(e.channel);
  return out;
}

ChannelSet ring_channels(const Communicator& comm) {
  ChannelSet out;
  switch (ring_source(comm)) {
    case RingSource::GraphLines:
      for (const auto& g : comm.graph_rings) {
        if (g.next >= 0) out.insert(g.channel);
      }
      break;
    case RingSource::Listing:
      for (const auto& l : comm.listings) out.insert(l.channel);
      break;
    case RingSource::Connections:
      for (const auto& e : comm.edges) {
        if (e.conn_index <= 0) out.insert(e.channel);
      }
      break;
  }
  return out;
}

ChannelSet tree_channels(const Communicator& comm) {
  ChannelSet out;
  for (const auto& t : comm.trees) {
    if (!t.entry.nvls) out.insert(static_cast<uint16_t>(t.entry.channel));
  }
  return out;
}

ChannelSet channels_set_up(const Communicator& comm) {
  ChannelSet all = connected_channels(comm);
  all.insert(ring_channels(comm));
  all.insert(tree_channels(comm));
  for (const auto& g : comm.graph_rings) all.insert(g.channel);
  for (const auto& l : comm.listings) all.insert(l.channel);
  return all;
}

}  // namespace nd
