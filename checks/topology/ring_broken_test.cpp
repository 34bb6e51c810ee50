#include <algorithm>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checks/check_fixture.h"
#include "src/model/model_fixture.h"

using namespace nd;

namespace {
// NCCL 2.11: GRAPH `Ring NN : prev -> me -> next`, Init COMPLETE with busId.
JobModel four_ranks(std::initializer_list<std::string_view> rings) {
  std::vector<std::string_view> lines(rings);
  for (std::string_view l : {
           "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
           "gpuA:101:101 [1] NCCL INFO comm 0x11 rank 1 nranks 4 cudaDev 1 busId 2a000 - Init COMPLETE",
           "gpuB:200:200 [0] NCCL INFO comm 0x20 rank 2 nranks 4 cudaDev 0 busId 18000 - Init COMPLETE",
           "gpuB:201:201 [1] NCCL INFO comm 0x21 rank 3 nranks 4 cudaDev 1 busId 2a000 - Init COMPLETE"}) {
    lines.push_back(l);
  }
  return model_from_lines(lines);
}
}  // namespace

TEST_CASE("ring-broken: a rank whose next is -1") {
  auto m = four_ranks({"gpuA:100:100 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1",
                       "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 2",
                       "gpuB:200:200 [0] NCCL INFO Ring 00 : 1 -> 2 -> -1",
                       "gpuB:201:201 [1] NCCL INFO Ring 00 : 2 -> 3 -> 0"});
  auto f = run_rule("ring-broken", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].message == "ring 00: no link out of rank 2 (next is -1)");
  CHECK(f[0].hosts == std::vector<std::string>{"gpuB"});
  REQUIRE(f[0].evidence.size() == 1);
  CHECK(f[0].evidence[0].line == 3);
  CHECK(f[0].evidence[0].text == "gpuB:200:200 [0] NCCL INFO Ring 00 : 1 -> 2 -> -1");
}

TEST_CASE("ring-broken: two cycles that each skip half of the ranks") {
  auto m = four_ranks({"gpuA:100:100 [0] NCCL INFO Ring 01 : 1 -> 0 -> 1",
                       "gpuA:101:101 [1] NCCL INFO Ring 01 : 0 -> 1 -> 0",
                       "gpuB:200:200 [0] NCCL INFO Ring 01 : 3 -> 2 -> 3",
                       "gpuB:201:201 [1] NCCL INFO Ring 01 : 2 -> 3 -> 2"});
  auto f = run_rule("ring-broken", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "ring 01: the cycle through rank 0 closes after 2 of 4 ranks and skips ranks 2-3");
}

TEST_CASE("ring-broken: two successors and a predecessor that disagrees") {
  auto m = four_ranks({"gpuA:100:100 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1",
                       "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 3",
                       "gpuB:200:200 [0] NCCL INFO Ring 00 : 1 -> 2 -> 3",
                       "gpuB:201:201 [1] NCCL INFO Ring 00 : 2 -> 3 -> 0"});
  auto f = run_rule("ring-broken", m);
  REQUIRE(f.size() == 2);
  CHECK(f[0].message == "ring 00: rank 2 says its predecessor is rank 1, but rank 1 passes to rank 3");
  CHECK(f[1].message == "ring 00: ranks 1-2 all pass to rank 3");
}

TEST_CASE("ring-broken: cut listings of large jobs are not broken (NCCL 2.23+ and <=2.22 slots)") {
  // 2.27.3, 128 ranks: the listing holds ranks 0-27 in its 127 characters.
  std::string exact = "gpuA:100:100 [0] NCCL INFO Channel 00/02 :";
  for (int r = 0; r < 28; ++r) exact += fmt::format(" {:3d}", r);
  auto m = model_from({exact, "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 128 cudaDev 0 busId 18000 - Init COMPLETE"});
  CHECK(run_rule("ring-broken", m).empty());
  // 2.27.3, 1280 ranks: `1000 ... 1019 102...` ends with a cut number, not rank 102.
  m = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0 1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 "
                  "1010 1011 1012 1013 1014 1015 1016 1017 1018 1019 102...",
                  "gpuA:100:100 [0] NCCL INFO Ring 00 : 1279 -> 0 -> 1000",
                  "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 1280 cudaDev 0 busId 18000 - Init COMPLETE"});
  CHECK(run_rule("ring-broken", m).empty());
  CHECK(run_rule("ring-sources-disagree", m).empty());
  // 2.18.3, 1280 ranks: 1000-1009 print as `100`, so `100` twice is no duplicate.
  m = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0 100 100 1002",
                  "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 1280 cudaDev 0 busId 18000 - Init COMPLETE"});
  CHECK(run_rule("ring-broken", m).empty());
}

TEST_CASE("ring-incomplete: a cut listing without GRAPH lines is a note that the ring is not fully visible") {
  std::string exact = "gpuA:100:100 [0] NCCL INFO Channel 00/02 :";
  for (int r = 0; r < 28; ++r) exact += fmt::format(" {:3d}", r);
  auto m = model_from({exact, "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 128 cudaDev 0 busId 18000 - Init COMPLETE"});
  auto f = run_rule("ring-incomplete", m);
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::Info);
  CHECK(f[0].message == "ring 00: the ring listing shows 28 of 128 ranks (NCCL prints at most 127 characters of it) "
                        "and the log has no GRAPH ring lines (`Ring NN : p -> r -> n`, NCCL 2.10+ with "
                        "NCCL_DEBUG_SUBSYS=INIT,GRAPH): the ring is not fully visible and was checked only between the "
                        "ranks shown");
}

TEST_CASE("ring-broken: a listing that names a rank twice; cut listings and missing ranks are not broken") {
  auto dup = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00/02 :    0   1   1",
                         "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 3 cudaDev 0 busId 18000 - Init COMPLETE"});
  auto f = run_rule("ring-broken", dup);
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "ring 00: the ring listing names rank 1 twice");
  auto cut = model_from({"gpuA:100:100 [0] NCCL INFO Channel 00/24 : 0 1 2 3 ...",
                         "gpuA:100:100 [0] NCCL INFO comm 0x10 rank 0 nranks 64 cudaDev 0 busId 18000 - Init COMPLETE"});
  CHECK(run_rule("ring-broken", cut).empty());
  auto partial = four_ranks({"gpuA:100:100 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1",
                             "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 2"});
  CHECK(run_rule("ring-broken", partial).empty());
  auto good = four_ranks({"gpuA:100:100 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1",
                          "gpuA:101:101 [1] NCCL INFO Ring 00 : 0 -> 1 -> 2",
                          "gpuB:200:200 [0] NCCL INFO Ring 00 : 1 -> 2 -> 3",
                          "gpuB:201:201 [1] NCCL INFO Ring 00 : 2 -> 3 -> 0"});
  CHECK(run_rule("ring-broken", good).empty());
}
