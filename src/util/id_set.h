#pragma once
// A set of 64-bit keys in one open-addressing array: the per-line "seen this
// combination before?" question without a node per key.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nd {

class IdSet {
 public:
  // Returns false when `key` was already there.
  bool insert(uint64_t key);
  bool contains(uint64_t key) const;
  size_t size() const { return size_ + (has_zero_ ? 1 : 0); }

 private:
  size_t slot_of(uint64_t key) const;
  void grow();

  std::vector<uint64_t> keys_;  // 0 marks an empty slot; key 0 lives in has_zero_
  size_t size_ = 0;
  unsigned shift_ = 64;
  bool has_zero_ = false;
};

}  // namespace nd
