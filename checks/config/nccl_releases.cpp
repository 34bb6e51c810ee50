#include "checks/config/nccl_releases.h"

#include <chrono>

#include "src/util/numbers.h"

namespace nd {
namespace {

// Source: the release tags v2.4.2-1 ... v2.30.7-1 of github.com/NVIDIA/nccl;
// each date is the commit date of the tagged release commit
// (`git for-each-ref --format='%(refname:short) %(creatordate:short)' refs/tags`).
// Only tagged releases are listed; NCCL ships some patch builds without a tag.
constexpr NcclRelease kReleases[] = {
    {{2, 4, 2}, "2019-01-29"},
    {{2, 4, 6}, "2019-04-05"},
    {{2, 4, 7}, "2019-05-10"},
    {{2, 4, 8}, "2019-06-25"},
    {{2, 5, 6}, "2019-11-19"},
    {{2, 5, 7}, "2020-01-16"},
    {{2, 6, 4}, "2020-03-20"},
    {{2, 7, 3}, "2020-06-08"},
    {{2, 7, 5}, "2020-06-26"},
    {{2, 7, 6}, "2020-06-26"},
    {{2, 7, 8}, "2020-07-27"},
    {{2, 8, 3}, "2020-11-17"},
    {{2, 8, 4}, "2021-02-09"},
    {{2, 9, 6}, "2021-04-12"},
    {{2, 9, 8}, "2021-05-10"},
    {{2, 9, 9}, "2021-05-12"},
    {{2, 10, 3}, "2021-07-08"},
    {{2, 11, 4}, "2021-09-08"},
    {{2, 12, 7}, "2022-03-02"},
    {{2, 12, 10}, "2022-03-30"},
    {{2, 12, 12}, "2022-05-13"},
    {{2, 13, 4}, "2022-07-11"},
    {{2, 14, 3}, "2022-08-18"},
    {{2, 15, 1}, "2022-09-27"},
    {{2, 15, 5}, "2022-10-25"},
    {{2, 16, 2}, "2022-11-30"},
    {{2, 16, 5}, "2023-02-02"},
    {{2, 17, 1}, "2023-03-01"},
    {{2, 18, 1}, "2023-04-18"},
    {{2, 18, 3}, "2023-06-14"},
    {{2, 18, 5}, "2023-08-23"},
    {{2, 18, 6}, "2023-10-10"},
    {{2, 19, 1}, "2023-09-26"},
    {{2, 19, 3}, "2023-09-26"},
    {{2, 19, 4}, "2023-11-13"},
    {{2, 20, 3}, "2024-02-13"},
    {{2, 20, 5}, "2024-02-26"},
    {{2, 21, 5}, "2024-04-02"},
    {{2, 22, 3}, "2024-06-19"},
    {{2, 23, 4}, "2024-09-16"},
    {{2, 24, 3}, "2025-01-07"},
    {{2, 25, 1}, "2025-01-27"},
    {{2, 26, 2}, "2025-03-12"},
    {{2, 26, 3}, "2025-04-22"},
    {{2, 26, 5}, "2025-04-22"},
    {{2, 26, 6}, "2025-05-20"},
    {{2, 27, 3}, "2025-05-29"},
    {{2, 27, 5}, "2025-06-18"},
    {{2, 27, 6}, "2025-07-11"},
    {{2, 27, 7}, "2025-07-24"},
    {{2, 28, 3}, "2025-09-02"},
    {{2, 28, 7}, "2025-10-17"},
    {{2, 28, 9}, "2025-11-10"},
    {{2, 29, 2}, "2025-12-24"},
    {{2, 29, 3}, "2026-02-03"},
    {{2, 29, 7}, "2026-02-27"},
    {{2, 30, 3}, "2026-04-14"},
    {{2, 30, 4}, "2026-04-22"},
    {{2, 30, 7}, "2026-06-04"},
};

std::chrono::sys_days to_days(std::string_view date) {
  auto y = parse_u32(date.substr(0, 4));
  auto m = parse_u32(date.substr(5, 2));
  auto d = parse_u32(date.substr(8, 2));
  using namespace std::chrono;
  return sys_days{year{static_cast<int>(y.value_or(1970))} / month{m.value_or(1)} / day{d.value_or(1)}};
}

}  // namespace

std::span<const NcclRelease> nccl_releases() { return kReleases; }

std::optional<NcclVersion> parse_nccl_version(std::string_view text) {
  int parts[3] = {0, 0, 0};
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = pos;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    auto v = parse_u32(text.substr(pos, end - pos));
    if (!v || *v > 1000) return std::nullopt;
    parts[i] = static_cast<int>(*v);
    if (i < 2) {
      if (end >= text.size() || text[end] != '.') return std::nullopt;
      pos = end + 1;
    }
  }
  return NcclVersion{parts[0], parts[1], parts[2]};
}

const NcclRelease* release_at_or_before(NcclVersion v) {
  const NcclRelease* best = nullptr;
  for (const auto& r : kReleases) {
    if (r.version <= v) best = &r;
  }
  return best;
}

int days_between(std::string_view a, std::string_view b) {
  return static_cast<int>((to_days(b) - to_days(a)).count());
}

}  // namespace nd
