#pragma once
// Maps repeated strings (host names, transport texts) to small dense ids so
// per-line records stay compact.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/util/name_set.h"

namespace nd {

class Interner {
 public:
  uint32_t intern(std::string_view s);
  std::optional<uint32_t> find(std::string_view s) const;
  const std::string& name(uint32_t id) const { return names_[id]; }
  size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return NameSet::hash(s); }  // cheap: host names are short
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> ids_;
  std::vector<std::string> names_;
};

}  // namespace nd
