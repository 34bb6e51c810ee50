#include "src/probe/probe_capture.h"

#include <fstream>
#include <set>

#include <fmt/format.h>

#include "src/probe/captured_verbs.h"

namespace nd {
namespace {

namespace fs = std::filesystem;

class Mirror {
 public:
  Mirror(const SysfsReader& src, fs::path dest, CaptureStats& stats)
      : src_(src.root()), dest_(std::move(dest)), stats_(stats) {
    std::error_code ec;
    canon_root_ = fs::canonical(src_.root(), ec);
  }

  // Recreates `rel` in dest: directories, symlinks with their own targets,
  // the final file's bytes. Returns the path the component chain resolves to.
  void ensure(const std::string& rel, bool list_entries) {
    if (++depth_ > 32) return;  // symlink loops in a hostile tree
    std::string cur;
    for (const auto& comp : fs::path(rel)) {
      if (comp.empty() || comp == "/") continue;
      std::string next = cur.empty() ? comp.string() : cur + "/" + comp.string();
      fs::path s = fs::path(src_.root()) / next;
      std::error_code ec;
      auto st = fs::symlink_status(s, ec);
      if (ec || !fs::exists(st)) {
        copy_sidecar(next);
        --depth_;
        return;
      }
      if (fs::is_symlink(st)) {
        make_link(next, fs::read_symlink(s, ec));
        fs::path c = fs::canonical(s, ec);
        if (ec) break;
        fs::path r = c.lexically_relative(canon_root_);
        if (r.empty() || *r.begin() == "..") break;
        cur = r.string();
        if (visited_.insert(cur).second) ensure(cur, false);
        continue;
      }
      if (fs::is_directory(st)) {
        fs::create_directories(dest_ / next, ec);
      } else {
        copy_file(next);
      }
      cur = next;
    }
    if (list_entries) list(cur);
    --depth_;
  }

 private:
  void make_link(const std::string& rel, const fs::path& target) {
    std::error_code ec;
    fs::path d = dest_ / rel;
    fs::create_directories(d.parent_path(), ec);
    if (fs::symlink_status(d, ec).type() != fs::file_type::not_found) return;
    fs::create_symlink(target, d, ec);
    if (!ec) ++stats_.links;
  }

  void write(const fs::path& p, const std::string& data) {
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << data;
  }

  void copy_file(const std::string& rel) {
    if (!copied_.insert(rel).second) return;
    ReadResult r = src_.read(rel);
    if (r.ok()) {
      write(dest_ / rel, r.value);
      ++stats_.files;
    } else {
      write(dest_ / (rel + ".errno"), errno_name(r.error) + "\n");
      ++stats_.errors;
    }
  }

  void copy_sidecar(const std::string& rel) {
    ReadResult r = src_.read(rel);
    if (!r.ok() && r.error != ENOENT) copy_file(rel);
  }

  // A listed directory keeps its entries' names: symlinks as links (their
  // targets are copied only if read), subdirectories as empty directories.
  void list(const std::string& rel) {
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(src_.root()) / rel, ec), end; !ec && it != end; it.increment(ec)) {
      std::string child = rel.empty() ? it->path().filename().string() : rel + "/" + it->path().filename().string();
      std::error_code ec2;
      if (it->is_symlink(ec2)) {
        make_link(child, fs::read_symlink(it->path(), ec2));
      } else if (it->is_directory(ec2)) {
        fs::create_directories(dest_ / child, ec2);
      }
    }
  }

  SysfsReader src_;
  fs::path dest_;
  fs::path canon_root_;
  CaptureStats& stats_;
  std::set<std::string> visited_, copied_;
  int depth_ = 0;
};

}  // namespace

namespace {

bool write_file(const fs::path& path, const std::string& text, std::string& error) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out.flush()) {
    error = fmt::format("cannot write {}", path.string());
    return false;
  }
  return true;
}

}  // namespace

bool capture_tree(const SysfsReader& recorded, const HostFacts& facts, const std::string& verbs_record,
                  const fs::path& dest, CaptureStats& stats, std::string& error) {
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec || !fs::is_directory(dest)) {
    error = fmt::format("cannot create {}: {}", dest.string(), ec ? ec.message() : "not a directory");
    return false;
  }
  Mirror m(recorded, dest, stats);
  for (const auto& rel : recorded.accessed()) {
    if (rel == kHostFactsFile || rel == kVerbsCaptureFile) continue;
    std::error_code ec2;
    bool is_dir = fs::is_directory(recorded.root() / rel, ec2);
    m.ensure(rel, is_dir);
  }
  if (!write_file(dest / kHostFactsFile, host_facts_json(facts.host, facts.peer_memory_api), error)) return false;
  if (verbs_record.empty()) {
    // No verbs answers this time: an older capture's must not stand in.
    fs::remove(dest / kVerbsCaptureFile, ec);
    return true;
  }
  return write_file(dest / kVerbsCaptureFile, verbs_record, error);
}

}  // namespace nd
