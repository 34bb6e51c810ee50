#pragma once
// A small open-addressing set of names with a cheap hash, for the per-line
// "seen this host already?" question on the hot path. Probing reads only an
// array of hashes; each slot keeps the name's first and last eight bytes, so
// a name of up to 16 bytes (every host name in practice) is compared without
// a call. It stores views; the caller keeps the bytes alive (or lets the set
// own a copy, see own()).

#include <cstdint>
#include <cstring>
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

  bool contains(std::string_view name) const {
    if (size_ == 0) return false;
    Key k = key_of(name);
    return tags_[find_slot(name, k)] != 0;
  }
  // Returns false when the name was already there.
  bool insert(std::string_view name);
  // Copies every name into storage of the set's own, so the originals may go.
  void own();
  void clear();
  size_t size() const { return size_; }

  static uint64_t hash(std::string_view name) { return key_of(name).hash(); }

 private:
  // The first eight bytes and the last eight (overlapping, zero padded when
  // shorter), with the size: the whole name up to 16 bytes. `middle` hashes
  // what lies between in a longer name.
  struct Key {
    uint64_t head = 0;
    uint64_t tail = 0;
    uint64_t middle = 0;
    uint32_t size = 0;
    // One multiply: the lookup waits on it. Slots come from the top bits,
    // which every input bit reaches.
    uint64_t hash() const {
      uint64_t x = head ^ ((tail << 29) | (tail >> 35)) ^ middle ^ (uint64_t{size} << 56);
      return x * 0x9e3779b97f4a7c15ull;
    }
  };
  struct Slot {
    uint64_t head = 0;
    uint64_t tail = 0;
    const char* data = nullptr;
    uint32_t size = 0;
  };
  // The hash of a used slot's name with its low bit set: never 0, the mark
  // of an empty slot.
  static uint64_t tag_of(const Key& k) { return k.hash() | 1; }

  static uint64_t load8(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static uint32_t load4(const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  // The bytes p[0, n), n < 8, zero padded; a function of those bytes alone.
  static uint64_t load_short(const char* p, size_t n) {
    if (n >= 4) return load4(p) | (uint64_t{load4(p + n - 4)} << 32);
    if (n == 0) return 0;
    return static_cast<uint8_t>(p[0]) | (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
           (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  // Eight-byte words covering p[8, n - 8) of a name longer than 16 bytes,
  // the last one overlapping the one before.
  template <typename Fn>
  static void for_middle_words(size_t n, Fn fn) {
    for (size_t i = 8; i < n - 8; i += 8) fn(i < n - 16 ? i : n - 16);
  }
  static Key key_of(std::string_view name) {
    const char* p = name.data();
    size_t n = name.size();
    Key k;
    k.size = static_cast<uint32_t>(n);
    if (n >= 8) {
      k.head = load8(p);
      k.tail = load8(p + n - 8);
      if (n > 16) {
        for_middle_words(n, [&](size_t at) { k.middle = (k.middle ^ load8(p + at)) * 0xff51afd7ed558ccdull; });
      }
    } else {
      k.head = load_short(p, n);
    }
    return k;
  }
  static bool same_middle(const char* a, const char* b, size_t n) {
    bool same = true;
    for_middle_words(n, [&](size_t at) { same = same && load8(a + at) == load8(b + at); });
    return same;
  }

  size_t find_slot(std::string_view name, const Key& k) const {
    size_t mask = tags_.size() - 1;
    uint64_t tag = tag_of(k);
    for (size_t i = static_cast<size_t>(tag >> shift_);; i = (i + 1) & mask) {
      uint64_t t = tags_[i];
      if (t == 0) return i;
      if (t != tag) continue;
      const Slot& s = slots_[i];
      if (s.head == k.head && s.tail == k.tail && s.size == k.size &&
          (k.size <= 16 || same_middle(s.data, name.data(), k.size))) {
        return i;
      }
    }
  }
  void grow();

  std::vector<uint64_t> tags_;
  std::vector<Slot> slots_;
  size_t size_ = 0;
  unsigned shift_ = 64;  // 64 - log2(slots)
  std::string storage_;
};

}  // namespace nd
