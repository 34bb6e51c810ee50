#include "src/util/name_set.h"

#include <algorithm>
#include <bit>

namespace nd {
namespace {

// A quarter full at most: most lookups find their name in the first slot.
constexpr size_t kLoadDivisor = 4;

}  // namespace

bool NameSet::insert(std::string_view name) {
  if ((size_ + 1) * kLoadDivisor > tags_.size()) grow();
  Key k = key_of(name);
  size_t i = find_slot(name, k);
  if (tags_[i] != 0) return false;
  tags_[i] = tag_of(k);
  slots_[i] = Slot{k.head, k.tail, name.data(), k.size};
  ++size_;
  return true;
}

void NameSet::grow() {
  std::vector<uint64_t> old_tags = std::move(tags_);
  std::vector<Slot> old = std::move(slots_);
  size_t n = old.empty() ? 64 : old.size() * 2;
  tags_.assign(n, 0);
  slots_.assign(n, Slot{});
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(n));
  for (size_t j = 0; j < old.size(); ++j) {
    if (old_tags[j] == 0) continue;
    const Slot& s = old[j];
    size_t i = find_slot(std::string_view(s.data, s.size), key_of(std::string_view(s.data, s.size)));
    tags_[i] = old_tags[j];
    slots_[i] = s;
  }
}

void NameSet::own() {
  size_t total = 0;
  for (size_t i = 0; i < slots_.size(); ++i) total += tags_[i] != 0 ? slots_[i].size : 0;
  std::string copy;
  copy.reserve(std::max<size_t>(total, 64));  // on the heap: a move keeps the address
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (tags_[i] == 0) continue;
    Slot& s = slots_[i];
    const char* at = copy.data() + copy.size();
    copy.append(s.data, s.size);
    s.data = at;
  }
  storage_ = std::move(copy);
}

void NameSet::clear() {
  if (size_ == 0) return;
  std::fill(tags_.begin(), tags_.end(), 0);
  size_ = 0;
}

}  // namespace nd
