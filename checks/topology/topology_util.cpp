#include "checks/topology/topology_util.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "checks/config/nccl_releases.h"
#include "src/util/ranges.h"

namespace nd {

std::vector<Evidence> evidence_of(const JobModel& model, std::vector<LineRef> lines, size_t max) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::vector<Evidence> out;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& ref : lines) {
      if (out.size() >= max) break;
      auto text = model.text_of(ref);
      if ((pass == 0) != text.has_value()) continue;
      out.push_back({ref.file < model.files.size() ? model.files[ref.file] : "?", ref.line, text ? std::string(*text) : std::string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Evidence& a, const Evidence& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); });
  return out;
}

bool connects_at_runtime(const JobModel& model) {
  for (const auto& [v, who] : model.versions) {
    auto version = parse_nccl_version(v);
    if (version && *version >= NcclVersion{2, 22, 0}) return true;
  }
  return false;
}

std::string ranks_text(std::vector<uint32_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return fmt::format("{} {}", ranks.size() == 1 ? "rank" : "ranks", format_ranges(ranks));
}

std::string channels_text(const char* what, std::vector<uint32_t> channels) {
  std::sort(channels.begin(), channels.end());
  channels.erase(std::unique(channels.begin(), channels.end()), channels.end());
  return fmt::format("{}{} {}", what, channels.size() == 1 ? "" : "s", format_ranges(channels, 2));
}

void ChannelProblems::add(const std::string& problem, uint32_t channel, std::vector<uint32_t> ranks,
                          std::vector<LineRef> lines) {
  auto [it, inserted] = problems_.try_emplace(problem);
  Entry& e = it->second;
  if (inserted) e.order = problems_.size();
  e.channels.push_back(channel);
  e.ranks.insert(e.ranks.end(), ranks.begin(), ranks.end());
  if (e.lines.size() < 16) e.lines.insert(e.lines.end(), lines.begin(), lines.end());
}

void ChannelProblems::emit(const RuleInfo& info, const CheckContext& ctx, const Communicator& comm, const char* what,
                           FindingSink& out) const {
  std::vector<const std::pair<const std::string, Entry>*> sorted;
  for (const auto& p : problems_) sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->second.order < b->second.order; });
  for (const auto* p : sorted) {
    const Entry& e = p->second;
    Finding f = make_finding(info, fmt::format("{}: {}", channels_text(what, e.channels), p->first));
    f.comm = comm.key;
    std::set<uint32_t> ranks(e.ranks.begin(), e.ranks.end());
    f.ranks.assign(ranks.begin(), ranks.end());
    std::set<uint32_t> hosts;
    for (uint32_t r : ranks) {
      if (comm.host_of(r) != kNoHost) hosts.insert(comm.host_of(r));
    }
    std::set<std::string> names;
    for (uint32_t h : hosts) names.insert(ctx.model.host_name(h));
    f.hosts.assign(names.begin(), names.end());
    std::set<uint32_t> chs(e.channels.begin(), e.channels.end());
    f.channels.assign(chs.begin(), chs.end());
    f.evidence = evidence_of(ctx.model, e.lines, ctx.options.max_evidence);
    out.add(std::move(f));
  }
}

}  // namespace nd
