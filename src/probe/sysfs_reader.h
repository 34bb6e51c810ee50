#pragma once
// Every file the probe looks at goes through a SysfsReader rooted at
// `--sysfs-root` (default /sys), so a snapshot captured on a node can be
// analysed anywhere. Fixture trees express a failing read as a sidecar file
// `<name>.errno` holding an errno name (`EINVAL`, `EACCES`): sysfs itself
// fails some reads (a port's `rate` with no active width) and plain files
// cannot.

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/util/errno_names.h"

namespace nd {

struct ReadResult {
  std::string value;  // raw bytes for read(), trimmed text for read_attr()
  int error = 0;      // errno; 0 when the read worked
  bool ok() const { return error == 0; }
};

class SysfsReader {
 public:
  explicit SysfsReader(std::filesystem::path root);

  // Whole file, bytes as they are (config space is binary).
  ReadResult read(std::string_view rel) const;
  // A one-line attribute with surrounding whitespace removed.
  ReadResult read_attr(std::string_view rel) const;
  // Entry names, sorted; empty when the directory is missing or unreadable.
  // Error sidecars are not listed.
  std::vector<std::string> list_dir(std::string_view rel) const;
  bool exists(std::string_view rel) const;
  // Canonical path relative to the root ("devices/pci0000:15/…/0000:18:00.0").
  std::optional<std::string> realpath(std::string_view rel) const;

  const std::filesystem::path& root() const { return root_; }

  // Remembers every path looked at, for `probe --capture`.
  void record_accesses(bool on) { recording_ = on; }
  const std::set<std::string>& accessed() const { return accessed_; }

 private:
  std::filesystem::path full(std::string_view rel) const;
  void note(std::string_view rel) const;

  std::filesystem::path root_;
  std::filesystem::path canonical_root_;
  bool recording_ = false;
  mutable std::set<std::string> accessed_;
};

}  // namespace nd
