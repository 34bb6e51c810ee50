#include "src/util/id_set.h"

#include <bit>

namespace nd {

size_t IdSet::slot_of(uint64_t key) const {
  size_t mask = keys_.size() - 1;
  for (size_t i = static_cast<size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_);; i = (i + 1) & mask) {
    if (keys_[i] == 0 || keys_[i] == key) return i;
  }
}

bool IdSet::insert(uint64_t key) {
  if (key == 0) {
    bool fresh = !has_zero_;
    has_zero_ = true;
    return fresh;
  }
  // At most half full.
  if ((size_ + 1) * 2 > keys_.size()) grow();
  size_t i = slot_of(key);
  if (keys_[i] == key) return false;
  keys_[i] = key;
  ++size_;
  return true;
}

bool IdSet::contains(uint64_t key) const {
  if (key == 0) return has_zero_;
  return size_ > 0 && keys_[slot_of(key)] == key;
}

void IdSet::grow() {
  std::vector<uint64_t> old = std::move(keys_);
  size_t n = old.empty() ? 64 : old.size() * 2;
  keys_.assign(n, 0);
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(n));
  for (uint64_t key : old) {
    if (key != 0) keys_[slot_of(key)] = key;
  }
}

}  // namespace nd
