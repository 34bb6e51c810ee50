#include "src/model/channels.h"

#include <doctest/doctest.h>

#include <set>

#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("channel sets: a channel counts once, listed in order, with numbers beyond the bits") {
  ChannelSet set;
  for (uint16_t ch : {5, 0, 63, 64, 1023, 5, 64}) set.insert(ch);
  CHECK(set.size() == 5);
  CHECK(set.list() == std::vector<uint16_t>{0, 5, 63, 64, 1023});
  // A model built by hand may name any channel: the set still answers.
  set.insert(40000);
  set.insert(1024);
  set.insert(40000);
  CHECK(set.size() == 7);
  CHECK(set.contains(1024));
  CHECK(set.contains(40000));
  CHECK_FALSE(set.contains(1025));
  CHECK_FALSE(set.contains(1));
  CHECK(set.list() == std::vector<uint16_t>{0, 5, 63, 64, 1023, 1024, 40000});
}

TEST_CASE("channel sets: a union counts only what it adds") {
  ChannelSet a, b;
  for (uint16_t ch : {1, 2, 3, 2000}) a.insert(ch);
  for (uint16_t ch : {3, 4, 65, 2000, 3000}) b.insert(ch);
  a.insert(b);
  CHECK(a.size() == 7);
  CHECK(a.list() == std::vector<uint16_t>{1, 2, 3, 4, 65, 2000, 3000});
}

TEST_CASE("channel sets: the same answers as a std::set over pseudo-random channels") {
  uint32_t state = 12345;
  for (int round = 0; round < 200; ++round) {
    ChannelSet set;
    std::set<uint16_t> expected;
    for (int i = 0; i < 50; ++i) {
      state = state * 1664525u + 1013904223u;
      // Mostly real channel numbers, now and then one beyond them.
      auto ch = static_cast<uint16_t>((state >> 8) % (i % 10 == 0 ? 65536u : 128u));
      set.insert(ch);
      expected.insert(ch);
    }
    CHECK(set.size() == expected.size());
    CHECK(set.list() == std::vector<uint16_t>(expected.begin(), expected.end()));
    for (uint16_t ch = 0; ch < 130; ++ch) CHECK(set.contains(ch) == expected.contains(ch));
  }
}

TEST_CASE("channel sets: what each kind of line shows of a communicator") {
  auto m = model_from({
      "gpuA:100:100 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
      "gpuA:200:200 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE",
      "gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1",
      "gpuA:100:100 [0] NCCL INFO Channel 01/02 :    0   1",
      "gpuA:100:100 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1",
      "gpuA:200:200 [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0",
      "gpuA:100:100 [0] NCCL INFO Channel 00/0 : 0[1000] -> 1[2000] via P2P/IPC",
      "gpuA:200:200 [1] NCCL INFO Channel 00/0 : 1[2000] -> 0[1000] via P2P/IPC",
  });
  REQUIRE(m.comms.size() == 1);
  const Communicator& c = m.comms.front();
  CHECK(connected_channels(c).list() == std::vector<uint16_t>{0});
  CHECK(tree_channels(c).list() == std::vector<uint16_t>{0, 1});
  CHECK(channels_set_up(c).list() == std::vector<uint16_t>{0, 1});
}
