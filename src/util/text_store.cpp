#include "src/util/text_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace nd {
namespace {

constexpr size_t kBlockBytes = size_t{256} << 10;

}  // namespace

std::shared_ptr<const SourceFile> SourceFile::open_copy(int fd) {
  int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return nullptr;
  return std::shared_ptr<const SourceFile>(new SourceFile(own));
}

SourceFile::~SourceFile() { ::close(fd_); }

std::string SourceFile::read(uint64_t offset, size_t size) const {
  std::string out(size, '\0');
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd_, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

size_t TextStore::slot_of(uint64_t key) const {
  // Fibonacci hashing: the top bits of key * 2^64/phi pick the slot.
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
}

void TextStore::grow() {
  size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
  slots_.assign(capacity, 0);
  const size_t mask = capacity - 1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    size_t s = slot_of(entries_[i].key);
    while (slots_[s] != 0) s = (s + 1) & mask;
    slots_[s] = static_cast<uint32_t>(i + 1);
  }
}

const char* TextStore::store(std::string_view text) {
  if (text.empty()) return "";
  if (text.size() > block_left_) {
    // A text longer than a quarter block gets a block of its own; the current one
    // stays open for the short texts after it.
    if (text.size() > kBlockBytes / 4) {
      blocks_.push_back(std::make_unique<char[]>(text.size()));
      std::memcpy(blocks_.back().get(), text.data(), text.size());
      return blocks_.back().get();
    }
    blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
    block_at_ = blocks_.back().get();
    block_left_ = kBlockBytes;
  }
  char* at = block_at_;
  std::memcpy(at, text.data(), text.size());
  block_at_ += text.size();
  block_left_ -= text.size();
  return at;
}

bool TextStore::insert(const Entry& entry) {
  // At most half full, so that probes stay short.
  if ((entries_.size() + 1) * 2 > slots_.size()) grow();
  const size_t mask = slots_.size() - 1;
  size_t s = slot_of(entry.key);
  for (; slots_[s] != 0; s = (s + 1) & mask) {
    if (entries_[slots_[s] - 1].key == entry.key) return false;
  }
  entries_.push_back(entry);
  slots_[s] = static_cast<uint32_t>(entries_.size());
  return true;
}

// One probe: the entry goes in first, what it points at after, only when new.
bool TextStore::add(uint64_t key, std::string_view text) {
  text = text.substr(0, UINT32_MAX);
  if (!insert({key, 0, static_cast<uint32_t>(text.size()), kInline, 0})) return false;
  entries_.back().at = reinterpret_cast<uintptr_t>(store(text));
  return true;
}

bool TextStore::add_place(uint64_t key, uint32_t source, uint64_t offset, std::string_view text) {
  text = text.substr(0, UINT32_MAX);
  if (!insert({key, offset, static_cast<uint32_t>(text.size()), source, 0})) return false;
  entries_.back().check = fingerprint(text);
  return true;
}

uint32_t TextStore::fingerprint(std::string_view text) {
  // Eight bytes a step: every line a finding may cite is hashed as it is read.
  constexpr uint64_t kPrime = 0x100000001b3ull;
  auto mix = [](uint64_t h, uint64_t word) {
    h = (h ^ word) * kPrime;
    return h ^ (h >> 29);
  };
  uint64_t h = 0xcbf29ce484222325ull ^ text.size();
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = mix(h, word);
  }
  uint64_t tail = 0;
  if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
  h = mix(h, tail);
  return static_cast<uint32_t>(h ^ (h >> 32));
}

std::optional<TextStore::Found> TextStore::find(uint64_t key) const {
  if (slots_.empty()) return std::nullopt;
  const size_t mask = slots_.size() - 1;
  for (size_t s = slot_of(key); slots_[s] != 0; s = (s + 1) & mask) {
    const Entry& e = entries_[slots_[s] - 1];
    if (e.key != key) continue;
    if (e.source == kInline) return Found{std::string_view(reinterpret_cast<const char*>(e.at), e.size)};
    return Found{{}, e.source, e.at, e.size, e.check};
  }
  return std::nullopt;
}

std::vector<uint64_t> TextStore::keys() const {
  std::vector<uint64_t> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.push_back(e.key);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace nd
