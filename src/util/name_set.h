#pragma once
// A small open-addressing set of names with a cheap hash, for the per-line
// "seen this host already?" question on the hot path. It stores views; the
// caller keeps the bytes alive (or lets the set own a copy, see own()).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nd {

class NameSet {
 public:
  NameSet() = default;
  NameSet(NameSet&&) = default;
  NameSet& operator=(NameSet&&) = default;
  NameSet(const NameSet&) = delete;
  NameSet& operator=(const NameSet&) = delete;

  bool contains(std::string_view name) const;
  // Returns false when the name was already there.
  bool insert(std::string_view name);
  // Copies every name into storage of the set's own, so the originals may go.
  void own();
  void clear();
  size_t size() const { return size_; }

  static uint64_t hash(std::string_view name);

 private:
  struct Slot {
    uint64_t hash = 0;
    const char* data = nullptr;
    uint32_t size = 0;
    bool used = false;
  };
  size_t find_slot(std::string_view name, uint64_t h) const;
  void grow();

  std::vector<Slot> slots_;
  size_t size_ = 0;
  std::string storage_;
};

}  // namespace nd
