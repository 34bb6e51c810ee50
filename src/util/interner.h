#pragma once
// Maps repeated strings (host names, transport texts) to small dense ids so
// per-line records stay compact. Looked up once or twice per connection
// line: an open-addressing table of ids and hashes, no node per name.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

class Interner {
 public:
  uint32_t intern(std::string_view s);
  std::optional<uint32_t> find(std::string_view s) const;
  // Gives `id` the name `s`, which must not be interned yet; O(size()).
  void rename(uint32_t id, std::string_view s);
  const std::string& name(uint32_t id) const { return names_[id]; }
  size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  // The slot of `s`: the one holding it, or the empty one where it belongs.
  size_t slot_of(std::string_view s, uint64_t hash) const;
  void grow();
  void rehash(size_t slots);

  std::vector<std::string> names_;
  std::vector<uint32_t> slots_;   // id + 1; 0 marks an empty slot
  std::vector<uint64_t> hashes_;  // of the name in the same slot
  unsigned shift_ = 64;           // 64 - log2(slots)
};

}  // namespace nd
