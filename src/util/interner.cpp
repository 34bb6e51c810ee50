#include "src/util/interner.h"

#include <bit>

#include "src/util/name_set.h"

namespace nd {

size_t Interner::slot_of(std::string_view s, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = static_cast<size_t>(hash >> shift_);; i = (i + 1) & mask) {
    uint32_t id = slots_[i];
    if (id == 0 || (hashes_[i] == hash && names_[id - 1] == s)) return i;
  }
}

uint32_t Interner::intern(std::string_view s) {
  // At most half full.
  if ((names_.size() + 1) * 2 > slots_.size()) grow();
  uint64_t hash = NameSet::hash(s);
  size_t i = slot_of(s, hash);
  if (slots_[i] != 0) return slots_[i] - 1;
  auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(s);
  slots_[i] = id + 1;
  hashes_[i] = hash;
  return id;
}

std::optional<uint32_t> Interner::find(std::string_view s) const {
  if (names_.empty()) return std::nullopt;
  size_t i = slot_of(s, NameSet::hash(s));
  if (slots_[i] == 0) return std::nullopt;
  return slots_[i] - 1;
}

void Interner::rename(uint32_t id, std::string_view s) {
  names_[id] = std::string(s);
  rehash(slots_.size());
}

void Interner::grow() { rehash(slots_.empty() ? 16 : slots_.size() * 2); }

void Interner::rehash(size_t n) {
  slots_.assign(n, 0);
  hashes_.assign(n, 0);
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(n));
  for (uint32_t id = 0; id < names_.size(); ++id) {
    uint64_t hash = NameSet::hash(names_[id]);
    size_t i = slot_of(names_[id], hash);
    slots_[i] = id + 1;
    hashes_[i] = hash;
  }
}

}  // namespace nd
