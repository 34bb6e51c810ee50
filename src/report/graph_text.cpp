#include "src/report/graph_renderer.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/model/ring_graph.h"
#include "src/report/job_links.h"

namespace nd {
namespace {

std::string problem_mark(const JobModel& model, const Communicator& comm, const Edge* e, const CheckOptions& options) {
  if (!e) return "";
  LinkProblem p = link_problem(model, comm, *e, options);
  return p.any() ? "  !! " + p.why : "";
}

void ring_text(const JobModel& model, const Communicator& comm, uint16_t ch, const RingGraph& ring,
               const EdgeIndex& index, const CheckOptions& options, std::string& out) {
  uint32_t n = ring.rank_count();
  std::set<uint32_t> hosts;
  for (uint32_t r = 0; r < n; ++r) hosts.insert(comm.host_of(r));
  out += fmt::format("Ring, channel {:02d}: {} ranks on {} host{} (communicator {})\n", ch, n, hosts.size(),
                     hosts.size() == 1 ? "" : "s", display(comm.key, 24));
  uint32_t start = 0;
  while (start < n && ring.successors(start).empty()) ++start;
  if (start == n) {
    out += "  no links\n\n";
    return;
  }
  // Walk the ring once; consecutive ranks on one host share a row.
  std::vector<uint32_t> order{start};
  std::vector<bool> seen(n, false);
  seen[start] = true;
  bool closed = false;
  while (order.size() <= n) {
    auto next = ring.next(order.back());
    if (!next) break;
    if (*next == start) {
      closed = true;
      break;
    }
    if (seen[*next]) break;
    seen[*next] = true;
    order.push_back(*next);
  }
  auto edge_of = [&](uint32_t a, uint32_t b) {
    const Edge* e = index.find(ch, a, b);
    return e ? e : index.find_pair_inside(a, b);
  };
  auto label_of = [&](uint32_t a, uint32_t b) {
    const Edge* e = edge_of(a, b);
    return e ? link_label(model, *e) : std::string(kNoLine);
  };
  size_t i = 0;
  while (i < order.size()) {
    uint32_t host = comm.host_of(order[i]);
    size_t j = i;
    std::set<std::string> inside;
    std::string marks;
    while (j + 1 < order.size() && comm.host_of(order[j + 1]) == host) {
      inside.insert(label_of(order[j], order[j + 1]));
      std::string m = problem_mark(model, comm, edge_of(order[j], order[j + 1]), options);
      if (marks.empty()) marks = m;
      ++j;
    }
    std::string head = fmt::format("  {:<16} ", display(model.host_name(host), 16));
    std::string ranks;
    for (size_t k = i; k <= j; ++k) ranks += fmt::format("{}{}", k == i ? "" : " -> ", order[k]);
    std::string tail = inside.empty() ? "" : fmt::format("  [{}]", fmt::join(inside, ","));
    // Wrap long rank chains under the host column.
    std::string line = head;
    for (size_t p = 0; p < ranks.size();) {
      size_t room = 78 - line.size();
      if (ranks.size() - p <= room) {
        line += ranks.substr(p);
        break;
      }
      size_t cut = ranks.rfind(' ', p + room);
      if (cut == std::string::npos || cut <= p) cut = p + room;
      out += line + ranks.substr(p, cut - p) + "\n";
      line = std::string(head.size(), ' ');
      p = cut + 1;
    }
    if (line.size() + tail.size() > 79) {
      out += line + "\n";
      line = std::string(head.size(), ' ');
    }
    out += line + tail + marks + "\n";
    bool last = j + 1 == order.size();
    if (last && !closed) {
      out += "    (the ring does not close here: no next rank in the log)\n";
    } else {
      uint32_t a = order[j];
      uint32_t b = last ? order[0] : order[j + 1];
      std::string hop = fmt::format("    | {}{}", label_of(a, b), problem_mark(model, comm, index.find(ch, a, b), options));
      if (last) hop += fmt::format("  (back to rank {})", order[0]);
      out += hop + "\n";
    }
    i = j + 1;
  }
  if (order.size() < n) out += fmt::format("  {} rank(s) not on this ring\n", n - order.size());
  out += "\n";
}

void tree_text(const JobModel& model, const Communicator& comm, uint16_t ch, const TreeGraph& tree,
               const EdgeIndex& index, const CheckOptions& options, std::string& out) {
  out += fmt::format("Tree, channel {:02d} (communicator {})\n", ch, display(comm.key, 24));
  std::vector<uint32_t> roots = tree.roots();
  if (roots.empty()) {
    out += "  no root: the parent links form a cycle or are missing\n\n";
    return;
  }
  std::vector<bool> seen(tree.rank_count(), false);
  constexpr size_t kMaxIndent = 12;
  // Iterative depth-first walk; a child is drawn under its parent.
  struct Item {
    uint32_t rank;
    uint32_t parent;
    size_t depth;
    std::string rails;  // the "|  " columns of the ancestors that have siblings below
    bool last_child;
  };
  for (uint32_t root : roots) {
    std::vector<Item> stack{{root, root, 0, {}, true}};
    while (!stack.empty()) {
      Item it = std::move(stack.back());
      stack.pop_back();
      if (seen[it.rank]) continue;
      seen[it.rank] = true;
      std::string lead = it.depth == 0 ? "  " : "  " + it.rails + (it.last_child ? "`- " : "|- ");
      if (it.depth > kMaxIndent) lead += fmt::format("[depth {}] ", it.depth);
      std::string line = fmt::format("{}{} {}", lead, it.rank, display(model.host_name(comm.host_of(it.rank)), 16));
      if (it.depth > 0) {
        const Edge* e = index.find(ch, it.parent, it.rank);
        if (!e) e = index.find(ch, it.rank, it.parent);
        if (!e) e = index.find_pair_inside(it.parent, it.rank);
        line += fmt::format("  {}{}", e ? link_label(model, *e) : kNoLine, problem_mark(model, comm, e, options));
      }
      out += line + "\n";
      std::vector<uint32_t> children = tree.predecessors(it.rank);
      std::sort(children.rbegin(), children.rend());
      std::string rails = it.rails;
      if (it.depth > 0 && it.depth < kMaxIndent) rails += it.last_child ? "   " : "|  ";
      for (size_t k = 0; k < children.size(); ++k) {
        stack.push_back({children[k], it.rank, it.depth + 1, rails, k == 0});
      }
    }
  }
  out += "\n";
}

}  // namespace

std::string render_graph_text(const JobModel& model, const GraphRequest& req) {
  const Communicator& comm = model.comms.at(req.comm);
  EdgeIndex index(comm);
  std::string out;
  if (req.rings) {
    for (const auto& [ch, ring] : build_rings(comm)) {
      if (!req.channel || *req.channel == ch) ring_text(model, comm, ch, ring, index, req.options, out);
    }
  }
  if (req.trees) {
    for (const auto& [ch, tree] : build_trees(comm)) {
      if (!req.channel || *req.channel == ch) tree_text(model, comm, ch, tree, index, req.options, out);
    }
  }
  if (!out.empty() && out.back() == '\n' && out.size() > 1 && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace nd
