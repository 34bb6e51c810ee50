#include "src/model/job_model.h"

#include <vector>

namespace nd {

size_t ListingRecord::readable(uint32_t nranks) const {
  // ` %3d` is exact up to rank 999: only larger jobs lose digits.
  if (!four_byte_slots || nranks <= 1000) return ranks.size();
  for (size_t i = 0; i + 1 < ranks.size(); ++i) {
    if (ranks[i] >= 100) return i;
  }
  return ranks.size();
}

bool ListingRecord::whole(uint32_t nranks) const {
  if (ranks.size() != nranks || readable(nranks) != ranks.size()) return false;
  std::vector<bool> seen(nranks, false);
  for (uint32_t r : ranks) {
    if (r >= nranks || seen[r]) return false;
    seen[r] = true;
  }
  return true;
}

}  // namespace nd
