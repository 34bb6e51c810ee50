#include "src/util/decompress.h"

#include <fcntl.h>
#include <lzma.h>
#include <pthread.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <csignal>
#include <cstring>
#include <vector>

namespace nd {
namespace {

constexpr size_t kBuffer = 1 << 18;

// Whole writes, or false when the reader has gone (EPIPE) or failed.
bool write_all(int fd, const uint8_t* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Reads up to buf.size() bytes; on a read error -1, and `problem` says so.
ssize_t read_some(int fd, std::vector<uint8_t>& buf, std::string& problem) {
  while (true) {
    ssize_t r = ::read(fd, buf.data(), buf.size());
    if (r >= 0) return r;
    if (errno != EINTR) {
      problem = std::string("read error: ") + std::strerror(errno);
      return r;
    }
  }
}

// Each codec: feed compressed bytes in, write plain bytes out. Returns the
// problem, empty when the stream ended cleanly.
std::string inflate_gzip(int in, int out) {
  z_stream z{};
  // 15 + 32: gzip or zlib header, detected.
  if (inflateInit2(&z, 15 + 32) != Z_OK) return "cannot start zlib";
  std::vector<uint8_t> src(kBuffer), dst(kBuffer);
  std::string problem;
  bool in_member = false;
  bool padding = false;  // zeros after the last member, as tape and dd leave them; gzip accepts them
  while (problem.empty()) {
    ssize_t r = read_some(in, src, problem);
    if (r < 0) break;
    if (r == 0) {
      if (in_member) problem = "truncated gzip data";
      break;
    }
    z.next_in = src.data();
    z.avail_in = static_cast<uInt>(r);
    while (z.avail_in > 0 && problem.empty()) {
      if (!in_member && (padding || z.next_in[0] == 0)) {
        padding = true;
        if (std::any_of(z.next_in, z.next_in + z.avail_in, [](uint8_t b) { return b != 0; })) {
          problem = "corrupt gzip data: bytes after the zero padding at the end";
        }
        break;
      }
      z.next_out = dst.data();
      z.avail_out = static_cast<uInt>(dst.size());
      int rc = inflate(&z, Z_NO_FLUSH);
      in_member = true;
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        problem = std::string("corrupt gzip data: ") + (z.msg != nullptr ? z.msg : "inflate failed");
        break;
      }
      if (!write_all(out, dst.data(), dst.size() - z.avail_out)) {
        inflateEnd(&z);
        return {};
      }
      if (rc == Z_STREAM_END) {
        // `cat a.gz b.gz` is one valid gzip file of two members.
        in_member = false;
        inflateReset(&z);
      }
    }
  }
  inflateEnd(&z);
  return problem;
}

std::string inflate_zstd(int in, int out) {
  ZSTD_DStream* z = ZSTD_createDStream();
  if (z == nullptr) return "cannot start zstd";
  std::vector<uint8_t> src(kBuffer), dst(ZSTD_DStreamOutSize());
  std::string problem;
  size_t pending = 0;  // ZSTD_decompressStream's hint: 0 when a frame is complete
  while (problem.empty()) {
    ssize_t r = read_some(in, src, problem);
    if (r < 0) break;
    if (r == 0) {
      if (pending != 0) problem = "truncated zstd data";
      break;
    }
    ZSTD_inBuffer ib{src.data(), static_cast<size_t>(r), 0};
    while (ib.pos < ib.size) {
      ZSTD_outBuffer ob{dst.data(), dst.size(), 0};
      pending = ZSTD_decompressStream(z, &ob, &ib);
      if (ZSTD_isError(pending)) {
        problem = std::string("corrupt zstd data: ") + ZSTD_getErrorName(pending);
        break;
      }
      if (!write_all(out, dst.data(), ob.pos)) {
        ZSTD_freeDStream(z);
        return {};
      }
    }
  }
  ZSTD_freeDStream(z);
  return problem;
}

std::string inflate_xz(int in, int out) {
  lzma_stream z = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) return "cannot start liblzma";
  std::vector<uint8_t> src(kBuffer), dst(kBuffer);
  std::string problem;
  lzma_action action = LZMA_RUN;
  while (problem.empty()) {
    if (z.avail_in == 0 && action == LZMA_RUN) {
      ssize_t r = read_some(in, src, problem);
      if (r < 0) break;
      if (r == 0) action = LZMA_FINISH;
      z.next_in = src.data();
      z.avail_in = static_cast<size_t>(r);
    }
    z.next_out = dst.data();
    z.avail_out = dst.size();
    lzma_ret rc = lzma_code(&z, action);
    if (!write_all(out, dst.data(), dst.size() - z.avail_out)) break;
    if (rc == LZMA_STREAM_END) break;
    if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH) {
      problem = "truncated xz data";
    } else if (rc != LZMA_OK) {
      problem = rc == LZMA_DATA_ERROR || rc == LZMA_FORMAT_ERROR ? "corrupt xz data" : "xz decoder error";
    }
  }
  lzma_end(&z);
  return problem;
}

}  // namespace

std::optional<Codec> codec_of(std::string_view head) {
  if (head.starts_with("\x1f\x8b")) return Codec::Gzip;
  if (head.starts_with("\x28\xb5\x2f\xfd")) return Codec::Zstd;
  if (head.starts_with(std::string_view("\xfd" "7zXZ\0", 6))) return Codec::Xz;
  return std::nullopt;
}

const char* codec_name(Codec c) {
  switch (c) {
    case Codec::Gzip: return "gzip";
    case Codec::Zstd: return "zstd";
    case Codec::Xz: return "xz";
  }
  return "?";
}

std::unique_ptr<DecompressingPipe> DecompressingPipe::start(int compressed_fd, Codec codec, std::string& error) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("cannot make a pipe: ") + std::strerror(errno);
    ::close(compressed_fd);
    return nullptr;
  }
  std::unique_ptr<DecompressingPipe> p(new DecompressingPipe());
  p->read_fd_ = fds[0];
  try {
    p->thread_ = std::thread([raw = p.get(), compressed_fd, codec, write_fd = fds[1]] {
      raw->run(compressed_fd, codec, write_fd);
    });
  } catch (const std::system_error& e) {
    error = std::string("cannot start a thread: ") + e.what();
    ::close(fds[1]);
    ::close(compressed_fd);
    return nullptr;
  }
  return p;
}

void DecompressingPipe::run(int compressed_fd, Codec codec, int write_fd) {
  // A reader that stops early makes write() fail with EPIPE in this thread,
  // instead of a SIGPIPE for the process.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  try {
    switch (codec) {
      case Codec::Gzip: error_ = inflate_gzip(compressed_fd, write_fd); break;
      case Codec::Zstd: error_ = inflate_zstd(compressed_fd, write_fd); break;
      case Codec::Xz: error_ = inflate_xz(compressed_fd, write_fd); break;
    }
  } catch (const std::bad_alloc&) {
    error_ = "out of memory while decompressing";
  }
  ::close(write_fd);
  ::close(compressed_fd);
}

std::string DecompressingPipe::finish() {
  if (!finished_) {
    finished_ = true;
    ::close(read_fd_);
    read_fd_ = -1;
    if (thread_.joinable()) thread_.join();
  }
  return error_;
}

DecompressingPipe::~DecompressingPipe() { finish(); }

}  // namespace nd
