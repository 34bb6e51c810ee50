#include <algorithm>
#include <span>
#include <vector>
#include <fmt/format.h>

#include "checks/topology/topology_rules.h"
#include "checks/topology/topology_util.h"

namespace nd {
namespace {

class TreeInconsistent final : public Rule {
 public:
  static constexpr RuleInfo kInfo{"ND2004", "tree-inconsistent", Severity::Error, Needs::Log,
                                  "tree parent/child links disagree across ranks, or a tree has several roots or a cycle"};
  const RuleInfo& info() const override { return kInfo; }
  void check(const CheckContext& ctx, FindingSink& out) const override;
};

std::string children_text(const TreeEntry& e) {
  std::vector<uint32_t> kids;
  for (int64_t d : e.down) {
    if (d >= 0) kids.push_back(static_cast<uint32_t>(d));
  }
  return kids.empty() ? "no children" : "children " + ranks_text(kids).substr(kids.size() == 1 ? 5 : 6);
}

bool lists_child(const TreeEntry& e, uint32_t child) {
  return std::any_of(std::begin(e.down), std::end(e.down), [&](int64_t d) { return d == child; });
}

void check_tree(const Communicator& comm, uint32_t channel, bool nvls, std::span<const TreeRecord* const> recs,
                ChannelProblems& problems) {
  uint32_t n = comm.size();
  // By rank; null for the ranks whose line is absent. The first line of a rank counts.
  std::vector<const TreeRecord*> own(n, nullptr);
  for (const auto* t : recs) {
    int64_t me = t->entry.me;
    if (me >= 0 && me < n && !own[me]) own[me] = t;
  }
  auto line_of = [&](int64_t r) -> const TreeRecord* { return r < 0 || r >= n ? nullptr : own[r]; };
  const char* tree = nvls ? "NVLS tree" : "tree";
  std::vector<uint32_t> roots;
  std::vector<LineRef> root_lines;
  for (uint32_t r = 0; r < n; ++r) {
    const TreeRecord* rec = own[r];
    if (!rec) continue;
    const TreeEntry& e = rec->entry;
    if (e.up < 0) {
      roots.push_back(r);
      root_lines.push_back(rec->line);
    } else if (int64_t{e.up} >= n) {
      problems.add(fmt::format("rank {}'s {} parent is rank {}, past nranks {}", r, tree, e.up, n), channel, {r},
                   {rec->line});
    } else if (const TreeRecord* p = line_of(e.up); p && !lists_child(p->entry, r)) {
      problems.add(fmt::format("rank {} says its {} parent is rank {}, but rank {} lists {}", r, tree, e.up, e.up,
                               children_text(p->entry)),
                   channel, {r, static_cast<uint32_t>(e.up)}, {rec->line, p->line});
    }
    for (int64_t d : e.down) {
      if (d < 0 || d >= n) continue;
      const TreeRecord* c = line_of(d);
      if (c && int64_t{c->entry.up} != r) {
        problems.add(fmt::format("rank {} lists rank {} as a {} child, but rank {}'s parent is {}", r, d, tree, d,
                                 c->entry.up < 0 ? std::string("none (-1)") : fmt::format("rank {}", c->entry.up)),
                     channel, {r, static_cast<uint32_t>(d)}, {rec->line, c->line});
      }
    }
  }
  if (roots.size() > 1) {
    problems.add(fmt::format("the {} has {} roots ({}), not one", tree, roots.size(), ranks_text(roots)), channel, roots,
                 root_lines);
  }
  // Parent links that return to a rank: walk each chain once (0 unseen,
  // 1 on the current walk, 2 finished), linear in the ranks present.
  std::vector<uint8_t> state(n, 0);
  std::vector<uint32_t> walk;  // one buffer for all walks: a fresh one each cost 40 % of a large job's mallocs
  for (uint32_t start = 0; start < n; ++start) {
    const TreeRecord* rec = own[start];
    if (!rec || state[start] != 0) continue;
    walk.clear();
    uint32_t at = start;
    bool cycle = false;
    while (true) {
      uint8_t& st = state[at];
      if (st == 1) {
        cycle = true;
        break;
      }
      if (st == 2) break;
      st = 1;
      walk.push_back(at);
      const TreeRecord* t = line_of(at);
      if (!t || t->entry.up < 0 || int64_t{t->entry.up} >= n) break;
      at = static_cast<uint32_t>(t->entry.up);
    }
    for (uint32_t w : walk) state[w] = 2;
    if (cycle) {
      problems.add(fmt::format("the {}'s parent links from rank {} run in a cycle", tree, start), channel, {start},
                   {rec->line});
      break;
    }
  }
}

// Calls `visit(nvls, channel, records)` for each tree of `comm`, plain trees
// first, by channel, with its records in the log's order. One pass to count
// and one to place: a map lookup per entry cost a sixth of this rule at 8192
// ranks x 32 channels.
template <typename Visit>
void for_each_tree(const Communicator& comm, Visit visit) {
  size_t channels = 0;
  for (const auto& t : comm.trees) channels = std::max<size_t>(channels, size_t{t.entry.channel} + 1);
  auto key = [&](const TreeEntry& e) { return (e.nvls ? channels : 0) + e.channel; };
  std::vector<size_t> start(2 * channels + 1, 0);
  for (const auto& t : comm.trees) ++start[key(t.entry) + 1];
  for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  std::vector<const TreeRecord*> grouped(comm.trees.size());
  std::vector<size_t> next(start.begin(), start.end() - 1);
  for (const auto& t : comm.trees) grouped[next[key(t.entry)]++] = &t;
  for (size_t k = 0; k + 1 < start.size(); ++k) {
    if (start[k] == start[k + 1]) continue;
    visit(k >= channels, static_cast<uint16_t>(k % channels),
          std::span<const TreeRecord* const>(grouped).subspan(start[k], start[k + 1] - start[k]));
  }
}

}  // namespace

// Only what the ranks present say is compared: a rank whose Trees line is
// missing (lost output, per-rank file absent) is neither a parent nor a child
// mismatch. 2.22+ runtime connection does not matter here: `Trees` lines are
// printed at init whether or not the tree algorithm runs.
void TreeInconsistent::check(const CheckContext& ctx, FindingSink& out) const {
  for (const auto& comm : ctx.model.comms) {
    if (comm.synthetic || comm.nranks < 2 || comm.trees.empty()) continue;
    ChannelProblems problems;
    for_each_tree(comm, [&](bool nvls, uint16_t channel, std::span<const TreeRecord* const> recs) {
      check_tree(comm, channel, nvls, recs, problems);
    });
    problems.emit(kInfo, ctx, comm, "tree", out);
  }
}

std::unique_ptr<Rule> make_tree_inconsistent() { return std::make_unique<TreeInconsistent>(); }

}  // namespace nd
