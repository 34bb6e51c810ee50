#include "src/util/interner.h"

namespace nd {

uint32_t Interner::intern(std::string_view s) {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(s);
  ids_.emplace(std::string(s), id);
  return id;
}

std::optional<uint32_t> Interner::find(std::string_view s) const {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  return std::nullopt;
}

}  // namespace nd
