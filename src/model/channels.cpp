#include "src/model/channels.h"

#include "src/model/ring_graph.h"

namespace nd {

void ChannelSet::insert(const ChannelSet& other) {
  for (uint16_t ch : other.list()) insert(ch);
}

std::vector<uint16_t> ChannelSet::list() const {
  std::vector<uint16_t> out;
  for (size_t ch = 0; ch < on_.size(); ++ch) {
    if (on_[ch]) out.push_back(static_cast<uint16_t>(ch));
  }
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
