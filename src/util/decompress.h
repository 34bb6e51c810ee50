#pragma once
// Compressed logs (.gz, .zst, .xz) read as if they were plain: a thread
// inflates the file into a pipe, and the line feeder reads the pipe as it
// reads any stream. Memory stays at two buffers whatever the sizes; the
// codecs are zlib, libzstd and liblzma, in this process.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace nd {

enum class Codec : uint8_t { Gzip, Zstd, Xz };

// The codec whose magic bytes start `head`; nullopt for anything else.
std::optional<Codec> codec_of(std::string_view head);
const char* codec_name(Codec c);  // "gzip", "zstd", "xz"

class DecompressingPipe {
 public:
  // Takes `compressed_fd` (closed when done). nullptr with `error` set when
  // no pipe or thread can be made.
  static std::unique_ptr<DecompressingPipe> start(int compressed_fd, Codec codec, std::string& error);
  ~DecompressingPipe();
  DecompressingPipe(const DecompressingPipe&) = delete;
  DecompressingPipe& operator=(const DecompressingPipe&) = delete;

  // The plain bytes, to read to end of file.
  int read_fd() const { return read_fd_; }
  // Stops reading, waits for the thread; what went wrong, empty when the
  // data was complete and intact ("corrupt gzip data", "truncated xz data").
  std::string finish();

 private:
  DecompressingPipe() = default;
  void run(int compressed_fd, Codec codec, int write_fd);

  int read_fd_ = -1;
  std::thread thread_;
  std::string error_;
  bool finished_ = false;
};

}  // namespace nd
