#include <doctest/doctest.h>

#include "checks/config/nccl_releases.h"

using namespace nd;

TEST_CASE("the release table runs from 2.4.2 to 2.30.7, sorted by version and date") {
  auto all = nccl_releases();
  REQUIRE(all.size() >= 50);
  CHECK(all.front().version == NcclVersion{2, 4, 2});
  CHECK(all.front().date == "2019-01-29");
  CHECK(all.back().version == NcclVersion{2, 30, 7});
  CHECK(all.back().date == "2026-06-04");
  for (size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1].version < all[i].version);
}

TEST_CASE("versions parse with or without the CUDA suffix") {
  CHECK(parse_nccl_version("2.18.3") == NcclVersion{2, 18, 3});
  CHECK(parse_nccl_version("2.27.7+cuda13.0") == NcclVersion{2, 27, 7});
  CHECK_FALSE(parse_nccl_version("2.18"));
  CHECK_FALSE(parse_nccl_version("banana"));
}

TEST_CASE("an untagged build takes the date of the tag before it") {
  const NcclRelease* r = release_at_or_before({2, 19, 2});
  REQUIRE(r);
  CHECK(r->version == NcclVersion{2, 19, 1});
  CHECK(release_at_or_before({2, 3, 7}) == nullptr);
  CHECK(days_between("2025-06-04", "2026-06-04") == 365);
}
