#pragma once
// The length of a union of time intervals that come in about time order,
// in bounded memory: the latest kOpen merged runs stay open for a late
// interval to merge with; older ones are folded into a total and a horizon,
// and the part of a straggler before the horizon is not counted again (it
// may be undercounted, never counted twice). A Horovod timeline writes an
// activity's end when it happens, so intervals end nearly in order.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace nd {

class IntervalUnion {
 public:
  static constexpr size_t kOpen = 64;

  void add(double from, double to) {
    from = std::max(from, horizon_);
    if (!(to > from)) return;  // empty, or all before the horizon (NaN too)
    // The first open run that ends after `from`: the runs before it end first.
    auto it = std::lower_bound(open_.begin(), open_.end(), from,
                               [](const std::pair<double, double>& run, double t) { return run.second <= t; });
    // Overlapping runs merge; runs that only touch stay apart, so that
    // back-to-back operations count as two.
    auto last = it;
    while (last != open_.end() && last->first < to && last->second > from) {
      from = std::min(from, last->first);
      to = std::max(to, last->second);
      ++last;
    }
    if (last != it) {
      *it = {from, to};
      open_.erase(it + 1, last);
    } else {
      open_.insert(it, {from, to});
    }
    if (open_.size() > kOpen) {
      closed_ += open_.front().second - open_.front().first;
      ++closed_runs_;
      horizon_ = open_.front().second;
      open_.erase(open_.begin());
    }
  }

  double length() const {
    double sum = closed_;
    for (const auto& [from, to] : open_) sum += to - from;
    return sum;
  }

  // Separate runs: overlapping intervals (one fused operation under each
  // of its tensors) count once.
  uint64_t runs() const { return closed_runs_ + open_.size(); }

 private:
  std::vector<std::pair<double, double>> open_;  // sorted, disjoint
  double closed_ = 0;
  uint64_t closed_runs_ = 0;
  double horizon_ = -std::numeric_limits<double>::infinity();
};

}  // namespace nd
