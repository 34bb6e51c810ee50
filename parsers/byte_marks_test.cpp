#include "parsers/byte_marks.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "parsers/simd.h"

using namespace nd;

namespace {

// Every query answered byte by byte, the way the marks must answer it.
void check_against_bytes(const ByteMarks& marks, const std::string& s) {
  REQUIRE(marks.size() == s.size());
  for (size_t from = 0; from <= s.size() + 1; ++from) {
    size_t expected = from < s.size() ? static_cast<size_t>(std::count(s.begin() + from, s.end(), '\n')) : 0;
    CHECK(marks.newlines(from) == expected);
  }
  for (size_t from = 0; from <= s.size(); ++from) {
    size_t nl = s.find('\n', from);
    CHECK(marks.next_newline(from) == (nl == std::string::npos ? s.size() : nl));
    for (size_t to = from; to <= s.size() && to <= from + 70; ++to) {
      size_t n = s.find('N', from);
      CHECK(marks.next_capital_n(from, to) == (n < to ? n : ByteMarks::npos));
      bool control = false;
      for (size_t i = from; i < to; ++i) control = control || (static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\n');
      CHECK(marks.has_control(from, to) == control);
    }
  }
}

}  // namespace

TEST_CASE("byte marks find newlines, capital Ns and control bytes like a byte loop") {
  std::string line = "gpu01:2771:2771 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f comm 0x55 [nranks=8]\n";
  std::string text = line + "\tNN\r\n\x1b[0m" + std::string(1, '\0') + "\x7f\xff\x80 N\n" + line;
  for (size_t cut = 0; cut <= text.size(); cut += 7) {
    std::string s = text.substr(0, cut);
    CAPTURE(cut);
    ByteMarks fast, portable;
    fast.scan(s.data(), s.size());
    portable.scan_portable(s.data(), s.size());
    check_against_bytes(fast, s);
    check_against_bytes(portable, s);
  }
}

TEST_CASE("byte marks agree with a byte loop on random bytes at every alignment") {
  std::mt19937 rng(7);
  // Bytes drawn mostly from the interesting ones, so every class is dense.
  const std::string pool = std::string("\n\nNN\r\t\x1b ab:[]") + std::string(1, '\0') + "\x1f\x20\x7f\xe0\xca";
  for (int round = 0; round < 40; ++round) {
    std::string s(static_cast<size_t>(rng() % 300), ' ');
    for (char& c : s) c = pool[rng() % pool.size()];
    ByteMarks fast, portable;
    // A reused object must forget a longer earlier scan.
    std::string longer = s + s + pool;
    fast.scan(longer.data(), longer.size());
    fast.scan(s.data(), s.size());
    portable.scan_portable(s.data(), s.size());
    CAPTURE(round);
    check_against_bytes(fast, s);
    check_against_bytes(portable, s);
  }
  // The _portable and _scalar runs of this test must really run that code.
  std::string forced = std::getenv("ND_SIMD") ? std::getenv("ND_SIMD") : "";
  if (forced == "portable") {
#if defined(ND_HAVE_SSE2)
    CHECK(ByteMarks::implementation() == "sse2");
#elif defined(ND_HAVE_NEON)
    CHECK(ByteMarks::implementation() == "neon");
#else
    CHECK(ByteMarks::implementation() == "scalar");
#endif
  } else if (forced == "scalar") {
    CHECK(ByteMarks::implementation() == "scalar");
  } else {
    CHECK((ByteMarks::implementation() == "avx2" || ByteMarks::implementation() == "sse2" ||
           ByteMarks::implementation() == "neon" || ByteMarks::implementation() == "scalar"));
  }
}

TEST_CASE("byte marks tell control bytes after a block that held none, and none after one that held some") {
  for (bool portable : {false, true}) {
    ByteMarks marks;
    auto scan = [&](const std::string& s) {
      portable ? marks.scan_portable(s.data(), s.size()) : marks.scan(s.data(), s.size());
    };
    scan("gpu01:1:1 [0] NCCL INFO a\n");
    CHECK_FALSE(marks.has_control(0, marks.size()));
    scan("gpu01:1:1 [0] NCCL INFO\tb\n");
    CHECK(marks.has_control(0, marks.size()));
    CHECK_FALSE(marks.has_control(0, 23));
    scan("gpu01:1:1 [0] NCCL INFO c\n");
    CHECK_FALSE(marks.has_control(0, marks.size()));
  }
}
