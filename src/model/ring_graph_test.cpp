#include "src/model/ring_graph.h"

#include <doctest/doctest.h>

#include "src/model/model_fixture.h"

using namespace nd;

TEST_CASE("rings from GRAPH lines form one cycle and classify locality") {
  auto m = model_from({
      "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE",
      "a:2:2 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 busId 2000 - Init COMPLETE",
      "b:3:3 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE",
      "b:4:4 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 busId 2000 - Init COMPLETE",
      // GRAPH lines come before Init COMPLETE in real logs; order does not matter here.
  });
  REQUIRE(m.comms.size() == 1);
  auto& comm = m.comms[0];
  for (uint32_t r = 0; r < 4; ++r) {
    comm.graph_rings.push_back({0, static_cast<int64_t>((r + 3) % 4), r, static_cast<int64_t>((r + 1) % 4), {}});
  }
  auto rings = build_rings(comm);
  REQUIRE(rings.count(0) == 1);
  const auto& ring = rings.at(0);
  CHECK(ring.source == RingSource::GraphLines);
  CHECK(ring.next(3) == 0u);
  CHECK(ring.is_single_cycle());
  CHECK(locality(comm, 0, 1) == Locality::Intra);
  CHECK(locality(comm, 1, 2) == Locality::Inter);
}

TEST_CASE("a broken ring is not a single cycle") {
  RingGraph g(4);
  g.add_link(0, 1, {});
  g.add_link(1, 0, {});
  g.add_link(2, 3, {});
  g.add_link(3, 2, {});
  CHECK_FALSE(g.is_single_cycle());
  CHECK(g.strong_component_count() == 2);
}

TEST_CASE("rings from a complete listing, trees from Trees lines") {
  auto m = model_from({
      "a:1:1 [0] NCCL INFO Channel 00/01 :    0   1   2",
      "a:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1",
      "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 3 cudaDev 0 busId 1000 - Init COMPLETE",
      "a:2:2 [1] NCCL INFO Trees [0] 2/-1/-1->1->0",
      "a:2:2 [1] NCCL INFO comm 0x2 rank 1 nranks 3 cudaDev 1 busId 2000 - Init COMPLETE",
  });
  REQUIRE(m.comms.size() == 1);
  auto rings = build_rings(m.comms[0]);
  REQUIRE(rings.count(0) == 1);
  CHECK(rings.at(0).source == RingSource::Listing);
  CHECK(rings.at(0).next(2) == 0u);
  auto trees = build_trees(m.comms[0]);
  REQUIRE(trees.count(0) == 1);
  CHECK(trees.at(0).parent(2) == 1u);
  CHECK(trees.at(0).parent(1) == 0u);
  CHECK(trees.at(0).roots() == std::vector<uint32_t>{0});
}
