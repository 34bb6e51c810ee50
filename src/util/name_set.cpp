#include "src/util/name_set.h"

#include <algorithm>
#include <cstring>

namespace nd {

uint64_t NameSet::hash(std::string_view name) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ name.size();
  const char* p = name.data();
  size_t n = name.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0x94d049bb133111ebull;
    h ^= h >> 29;
  }
  // Final avalanche (MurmurHash3's fmix64): the slot comes from the low bits.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

size_t NameSet::find_slot(std::string_view name, uint64_t h) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.used) return i;
    if (s.hash == h && s.size == name.size() && std::memcmp(s.data, name.data(), name.size()) == 0) return i;
  }
}

bool NameSet::contains(std::string_view name) const {
  if (size_ == 0) return false;
  return slots_[find_slot(name, hash(name))].used;
}

bool NameSet::insert(std::string_view name) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  uint64_t h = hash(name);
  Slot& s = slots_[find_slot(name, h)];
  if (s.used) return false;
  s = Slot{h, name.data(), static_cast<uint32_t>(name.size()), true};
  ++size_;
  return true;
}

void NameSet::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  for (const Slot& s : old) {
    if (s.used) slots_[find_slot(std::string_view(s.data, s.size), s.hash)] = s;
  }
}

void NameSet::own() {
  size_t total = 0;
  for (const Slot& s : slots_) total += s.used ? s.size : 0;
  std::string copy;
  copy.reserve(std::max<size_t>(total, 64));  // on the heap: a move keeps the address
  for (Slot& s : slots_) {
    if (!s.used) continue;
    const char* at = copy.data() + copy.size();
    copy.append(s.data, s.size);
    s.data = at;
  }
  storage_ = std::move(copy);
}

void NameSet::clear() {
  if (size_ == 0) return;
  for (Slot& s : slots_) s = Slot{};
  size_ = 0;
}

}  // namespace nd
