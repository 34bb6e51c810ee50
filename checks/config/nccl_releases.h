#pragma once
// NCCL releases with their dates, for "is this job's NCCL old?" questions.

#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace nd {

struct NcclVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;
  friend auto operator<=>(const NcclVersion&, const NcclVersion&) = default;
};

struct NcclRelease {
  NcclVersion version;
  std::string_view date;  // YYYY-MM-DD
};

// Every tagged release from 2.4.2 to the newest, oldest first.
std::span<const NcclRelease> nccl_releases();

// "2.18.3" (or "2.18.3+cuda12.2") -> {2, 18, 3}; nullopt when not a version.
std::optional<NcclVersion> parse_nccl_version(std::string_view text);

// The newest release at or below `v` (untagged builds such as 2.18.6 take the
// date of the tag before them); nullptr when `v` predates the table.
const NcclRelease* release_at_or_before(NcclVersion v);

// Days between two YYYY-MM-DD dates (b - a).
int days_between(std::string_view a, std::string_view b);

}  // namespace nd
