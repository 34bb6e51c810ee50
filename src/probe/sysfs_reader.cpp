#include "src/probe/sysfs_reader.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "src/util/text.h"

namespace nd {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kErrnoSuffix = ".errno";

}  // namespace

SysfsReader::SysfsReader(fs::path root) : root_(std::move(root)) {
  std::error_code ec;
  canonical_root_ = fs::canonical(root_, ec);
  if (ec) canonical_root_ = root_;
}

fs::path SysfsReader::full(std::string_view rel) const {
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  return root_ / fs::path(rel);
}

void SysfsReader::note(std::string_view rel) const {
  if (recording_) accessed_.emplace(rel);
}

ReadResult SysfsReader::read(std::string_view rel) const {
  note(rel);
  fs::path p = full(rel);
  // A sidecar wins: it stands for a read the kernel refuses.
  std::ifstream sidecar(p.string() + std::string(kErrnoSuffix));
  if (sidecar) {
    std::string name((std::istreambuf_iterator<char>(sidecar)), std::istreambuf_iterator<char>());
    int err = errno_from_name(name);
    return {"", err != 0 ? err : EIO};
  }
  // POSIX reads: sysfs reports refusals (EINVAL for `rate`) from read(),
  // which iostreams would turn into a silent empty string.
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {"", errno};
  std::string data;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return {"", err};
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
    // sysfs attributes are small; stop a hostile tree from feeding us /dev/zero.
    if (data.size() > (1u << 20)) break;
  }
  ::close(fd);
  return {std::move(data), 0};
}

ReadResult SysfsReader::read_attr(std::string_view rel) const {
  ReadResult r = read(rel);
  if (r.ok()) r.value = std::string(trim(r.value));
  return r;
}

std::vector<std::string> SysfsReader::list_dir(std::string_view rel) const {
  note(rel);
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(full(rel), ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.ends_with(kErrnoSuffix)) {
      // Report the failing entry itself, not its sidecar.
      name.resize(name.size() - kErrnoSuffix.size());
    }
    names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool SysfsReader::exists(std::string_view rel) const {
  note(rel);
  std::error_code ec;
  fs::path p = full(rel);
  return fs::exists(p, ec) || fs::exists(p.string() + std::string(kErrnoSuffix), ec);
}

std::optional<std::string> SysfsReader::realpath(std::string_view rel) const {
  note(rel);
  std::error_code ec;
  fs::path c = fs::canonical(full(rel), ec);
  if (ec) return std::nullopt;
  fs::path r = c.lexically_relative(canonical_root_);
  // A link that leaves the root (absolute target in a capture) keeps its
  // absolute form; callers only look at its PCI components.
  if (r.empty() || *r.begin() == "..") return c.string();
  return r.string();
}

}  // namespace nd
