#include "src/util/text_store.h"

#include <cstdlib>
#include <string>
#include <unistd.h>

#include <doctest/doctest.h>

namespace nd {

TEST_CASE("a text store keeps the first text of each key and finds every one") {
  TextStore store;
  CHECK(store.add(7, "seven"));
  CHECK_FALSE(store.add(7, "not seven"));
  CHECK(store.add(0, ""));
  CHECK(store.find(7)->text == "seven");
  CHECK(store.find(0)->text == "");
  CHECK_FALSE(store.find(8).has_value());
  // Past several index regrowths and arena blocks, with long texts between
  // short ones, every text reads back whole.
  const std::string long_text(100000, 'x');
  for (uint64_t k = 1; k <= 20000; ++k) {
    uint64_t key = k << 32 | (k * 7919);
    std::string text = k % 1000 == 0 ? long_text : "line " + std::to_string(k) + std::string(k % 97, '.');
    CHECK(store.add(key, text));
  }
  CHECK(store.size() == 20002);
  for (uint64_t k = 1; k <= 20000; ++k) {
    uint64_t key = k << 32 | (k * 7919);
    std::string text = k % 1000 == 0 ? long_text : "line " + std::to_string(k) + std::string(k % 97, '.');
    REQUIRE(store.find(key)->text == text);
  }
  auto keys = store.keys();
  REQUIRE(keys.size() == 20002);
  CHECK(keys[0] == 0);
  CHECK(keys[1] == 7);
  CHECK(keys[2] == (uint64_t{1} << 32 | 7919));
}

TEST_CASE("a text store keeps a place in a file instead of its text, and the file reads it back") {
  char path[] = "/tmp/nd-text-store-XXXXXX";
  int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  const std::string content = "first line\nsecond line\n";
  REQUIRE(::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
  auto file = SourceFile::open_copy(fd);
  ::close(fd);
  ::unlink(path);
  REQUIRE(file);
  TextStore store;
  CHECK(store.add_place(3, 0, 11, "second line"));
  CHECK_FALSE(store.add(3, "other"));
  auto found = store.find(3);
  REQUIRE(found);
  CHECK(found->source == 0);
  CHECK(file->read(found->offset, found->size) == "second line");
  CHECK(found->check == TextStore::fingerprint("second line"));
  CHECK(TextStore::fingerprint("second line") != TextStore::fingerprint("second lime"));
  // A changed byte anywhere, in the eight-byte words or the tail, or a length that differs.
  const std::string line = "gpu01:2771:2771 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
  for (size_t i = 0; i < line.size(); ++i) {
    std::string changed = line;
    changed[i] ^= 1;
    CHECK(TextStore::fingerprint(changed) != TextStore::fingerprint(line));
  }
  CHECK(TextStore::fingerprint(std::string_view("a\0", 2)) != TextStore::fingerprint("a"));
  // Past the end of the file (it shrank): what is there.
  CHECK(file->read(20, 10) == "ne\n");
  CHECK(file->read(100, 10).empty());
}

}  // namespace nd
