#pragma once
// Texts by 64-bit key, packed into large blocks with a flat index: tens of
// thousands of cited lines cost their bytes and a few more per line, not a
// node and a heap string each. A text that can be read again from its file
// is kept as its place there instead (SourceFile), which costs no bytes of
// text at all.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nd {

// A regular file kept open to read cited lines back from.
class SourceFile {
 public:
  // Takes its own descriptor for `fd` (dup); null when that fails.
  static std::shared_ptr<const SourceFile> open_copy(int fd);
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;
  // The bytes at [offset, offset + size); fewer if the file has shrunk.
  std::string read(uint64_t offset, size_t size) const;

 private:
  explicit SourceFile(int fd) : fd_(fd) {}
  int fd_;
};

class TextStore {
 public:
  // What a key holds: a text, or `size` bytes at `offset` of source `source`
  // whose fingerprint() was `check` when they were read.
  struct Found {
    std::string_view text;
    uint32_t source = kInline;
    uint64_t offset = 0;
    size_t size = 0;
    uint32_t check = 0;
  };
  static constexpr uint32_t kInline = UINT32_MAX;

  // Keeps `text` under `key`; false, keeping the first, when `key` has one.
  bool add(uint64_t key, std::string_view text);
  // The same for `text`, which lies at `offset` of source `source`: only its
  // place and fingerprint are kept.
  bool add_place(uint64_t key, uint32_t source, uint64_t offset, std::string_view text);
  // A 32-bit hash (FNV-1a): whether a text read back is the one placed.
  static uint32_t fingerprint(std::string_view text);
  std::optional<Found> find(uint64_t key) const;
  size_t size() const { return entries_.size(); }
  // Every key, in order.
  std::vector<uint64_t> keys() const;

 private:
  struct Entry {
    uint64_t key;
    uint64_t at;  // the text's address, or its offset in `source`
    uint32_t size;
    uint32_t source;
    uint32_t check;  // places only
  };
  bool insert(const Entry& entry);
  size_t slot_of(uint64_t key) const;
  void grow();
  const char* store(std::string_view text);

  std::vector<Entry> entries_;
  std::vector<uint32_t> slots_;  // index into entries_ plus one; 0: empty
  unsigned shift_ = 64;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_left_ = 0;
  char* block_at_ = nullptr;
};

}  // namespace nd
