#include "src/model/job_model.h"

#include "src/util/text.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "parsers/envelope.h"

namespace nd {

size_t ListingRecord::readable(uint32_t nranks) const {
  // ` %3d` is exact up to rank 999: only larger jobs lose digits.
  if (!four_byte_slots || nranks <= 1000) return ranks.size();
  for (size_t i = 0; i + 1 < ranks.size(); ++i) {
    if (ranks[i] >= 100) return i;
  }
  return ranks.size();
}

bool ListingRecord::whole(uint32_t nranks) const {
  if (ranks.size() != nranks || readable(nranks) != ranks.size()) return false;
  std::vector<bool> seen(nranks, false);
  for (uint32_t r : ranks) {
    if (r >= nranks || seen[r]) return false;
    seen[r] = true;
  }
  return true;
}

RankInfo& Communicator::rank(uint32_t r) {
  if (r >= ranks.size()) ranks.resize(static_cast<size_t>(r) + 1);
  return ranks[r];
}

uint64_t synthetic_pid(const SyntheticProcess& p) {
  auto value = static_cast<uint32_t>(p.value + 1);  // -1, no device, is 0
  return kSyntheticPid | (uint64_t{static_cast<uint8_t>(p.source)} << 56) | (uint64_t{p.launcher} << 48) |
         (uint64_t{p.file & 0xffff} << 32) | value;
}

SyntheticProcess synthetic_process(uint64_t pid) {
  SyntheticProcess p;
  p.source = static_cast<SyntheticSource>((pid >> 56) & 0x3f);
  p.launcher = static_cast<uint8_t>(pid >> 48);
  p.file = static_cast<uint32_t>((pid >> 32) & 0xffff);
  p.value = static_cast<int64_t>(pid & 0xffffffff) - 1;
  return p;
}

std::optional<std::string> JobModel::text_of(LineRef ref) const {
  auto found = line_text.find(key_of(ref));
  if (!found) return std::nullopt;
  if (found->source == TextStore::kInline) return std::string(found->text);
  if (found->source >= sources.size() || !sources[found->source]) return std::string();
  std::string text = sources[found->source]->read(found->offset, found->size);
  // The file was cut or rewritten after it was read (a restarted job that
  // truncates its log): say so rather than cite other text.
  if (TextStore::fingerprint(text) != found->check) return std::string(kChangedLine);
  return valid_utf8(text);
}

std::string JobModel::where(LineRef ref) const {
  const std::string& file = ref.file < files.size() ? files[ref.file] : std::string("?");
  return fmt::format("{}:{}", file, ref.line);
}

std::string JobModel::process_name(uint32_t host, uint64_t pid) const {
  if (!is_synthetic_pid(pid)) return fmt::format("{} pid {}", host_name(host), pid);
  SyntheticProcess p = synthetic_process(pid);
  if (p.source == SyntheticSource::Device) {
    return p.value < 0 ? fmt::format("{}, no pid", host_name(host)) : fmt::format("{}, device {}", host_name(host), p.value);
  }
  const char* what = "launcher rank";
  switch (static_cast<Launcher>(p.launcher)) {
    case Launcher::OpenMpi: what = "Open MPI rank"; break;
    case Launcher::Slurm: what = "srun task"; break;
    case Launcher::Hydra: what = "Hydra rank"; break;
    case Launcher::Torchrun: what = "torchrun rank"; break;
    default: break;
  }
  return fmt::format("{}, {} {}", host_name(host), what, p.value);
}

bool same_host_name(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  // A short name and a full one; two full names (or two addresses,
  // 10.0.0.5 and 10.0.0.6) that differ are different hosts.
  bool a_full = a.find('.') != std::string_view::npos, b_full = b.find('.') != std::string_view::npos;
  return a_full != b_full && a.substr(0, a.find('.')) == b.substr(0, b.find('.'));
}

const HostNets* JobModel::nets_of(uint32_t host, std::string_view net) const {
  auto it = std::lower_bound(host_nets.begin(), host_nets.end(), host,
                             [](const HostNets& n, uint32_t h) { return n.host < h; });
  for (; it != host_nets.end() && it->host == host; ++it) {
    if (it->net == net) return &*it;
  }
  return nullptr;
}

}  // namespace nd
