#include "src/util/decompress.h"

#include <fcntl.h>
#include <lzma.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

using namespace nd;

namespace {

std::string gzip(const std::string& plain) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, plain.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  z.avail_in = static_cast<uInt>(plain.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string xz(const std::string& plain) {
  std::string out(lzma_stream_buffer_bound(plain.size()), '\0');
  size_t pos = 0;
  REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(plain.data()),
                                  plain.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) == LZMA_OK);
  out.resize(pos);
  return out;
}

// A file holding `bytes`, opened for reading.
int file_of(const std::string& bytes) {
  char name[] = "/tmp/nd-decompress-XXXXXX";
  int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  ::unlink(name);
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

struct Inflated {
  std::string text, error;
};

Inflated inflate(const std::string& compressed) {
  std::optional<Codec> codec = codec_of(compressed);
  REQUIRE(codec);
  std::string error;
  auto pipe = DecompressingPipe::start(file_of(compressed), *codec, error);
  REQUIRE(pipe);
  Inflated out;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe->read_fd(), buf, sizeof buf)) > 0;) out.text.append(buf, static_cast<size_t>(n));
  out.error = pipe->finish();
  return out;
}

std::string log_text() {
  std::string s;
  for (int i = 0; i < 20000; ++i) {
    s += "gpu009:2771:2771 [0] NCCL INFO Channel " + std::to_string(i % 32) + "/0 : 0[0] -> 1[1] via P2P/IPC\n";
  }
  return s;
}

}  // namespace

TEST_CASE("gzip, zstd and xz logs read back byte for byte") {
  std::string plain = log_text();
  for (auto [name, compressed] : {std::pair{"gzip", gzip(plain)}, {"zstd", zstd(plain)}, {"xz", xz(plain)}}) {
    CAPTURE(name);
    CHECK(codec_name(*codec_of(compressed)) == std::string(name));
    Inflated got = inflate(compressed);
    CHECK(got.error.empty());
    CHECK(got.text == plain);
  }
  // `cat a.gz b.gz` is one gzip stream of two members; zstd and xz concatenate too.
  CHECK(inflate(gzip("first\n") + gzip("second\n")).text == "first\nsecond\n");
  CHECK(inflate(zstd("first\n") + zstd("second\n")).text == "first\nsecond\n");
  CHECK(inflate(xz("first\n") + xz("second\n")).text == "first\nsecond\n");
  // Zero padding after the last member (tape, dd) is accepted, as gzip does; anything else is not.
  Inflated padded = inflate(gzip("first\n") + std::string(512, '\0'));
  CHECK(padded.text == "first\n");
  CHECK(padded.error.empty());
  CHECK(inflate(gzip("first\n") + std::string(8, '\0') + "junk").error ==
        "corrupt gzip data: bytes after the zero padding at the end");
}

TEST_CASE("a cut or damaged file is reported, with what it held before") {
  std::string plain = log_text();
  for (auto [name, compressed] : {std::pair{"gzip", gzip(plain)}, {"zstd", zstd(plain)}, {"xz", xz(plain)}}) {
    CAPTURE(name);
    Inflated cut = inflate(compressed.substr(0, compressed.size() / 2));
    CHECK(cut.error == std::string("truncated ") + name + " data");
    CHECK(plain.starts_with(cut.text));
    std::string damaged = compressed;
    for (size_t i = damaged.size() / 3; i < damaged.size() / 3 + 64; ++i) damaged[i] = static_cast<char>(~damaged[i]);
    Inflated bad = inflate(damaged);
    CHECK(bad.error.starts_with("corrupt "));
  }
  CHECK_FALSE(codec_of("plain text"));
  CHECK_FALSE(codec_of(""));
}

TEST_CASE("a reader that stops early does not hang the decompressing thread") {
  std::string plain = log_text() + log_text() + log_text();
  std::string error;
  auto pipe = DecompressingPipe::start(file_of(zstd(plain)), Codec::Zstd, error);
  REQUIRE(pipe);
  char buf[100];
  CHECK(::read(pipe->read_fd(), buf, sizeof buf) > 0);
  CHECK(pipe->finish().empty());
}
