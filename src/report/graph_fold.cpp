#include "src/report/graph_fold.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/util/text.h"

namespace nd {
namespace {

// Notes (cross-rail) do not make a host faulty: a job whose rings cross
// rails at every host would otherwise fold nothing.
bool faulty(bool has_problem, Severity s) { return has_problem && s != Severity::Info; }

void merge_problem(bool& has, Severity& sev, std::string& why, bool other_has, Severity other,
                   const std::string& other_why) {
  if (!other_has) return;
  if (!has || other > sev) {
    sev = other;
    why = other_why;
  }
  has = true;
}

}  // namespace

GraphView fold_healthy_hosts(const GraphView& view) {
  size_t n = view.nodes.size();
  std::vector<bool> bad(n, false);
  for (size_t i = 0; i < n; ++i) bad[i] = faulty(view.nodes[i].has_problem, view.nodes[i].problem);
  for (const GraphEdge& e : view.edges) {
    if (faulty(e.has_problem, e.problem)) bad[e.from] = bad[e.to] = true;
  }
  size_t healthy = static_cast<size_t>(std::count(bad.begin(), bad.end(), false));
  if (healthy < 2) return view;

  GraphView out;
  out.comm = view.comm;
  out.level = view.level;
  out.ring_channels = view.ring_channels;
  out.tree_channels = view.tree_channels;
  out.fold = GraphFold{static_cast<uint32_t>(n), static_cast<uint32_t>(healthy), static_cast<uint32_t>(n - healthy)};
  GraphNode folded;
  folded.id = "healthy";
  folded.host_name = fmt::format("{} healthy hosts", healthy);
  folded.hosts = static_cast<uint32_t>(healthy);
  out.nodes.push_back(std::move(folded));
  std::vector<size_t> index(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const GraphNode& node = view.nodes[i];
    if (bad[i]) {
      index[i] = out.nodes.size();
      out.nodes.push_back(node);
      continue;
    }
    GraphNode& f = out.nodes[0];
    f.ranks += node.ranks;
    f.inside.insert(node.inside.begin(), node.inside.end());
    merge_problem(f.has_problem, f.problem, f.problem_why, node.has_problem, node.problem, node.problem_why);
  }
  std::map<std::tuple<size_t, size_t, std::string, std::string>, size_t> edge_of;  // from, to, kind, transport
  for (const GraphEdge& e : view.edges) {
    size_t from = index[e.from], to = index[e.to];
    if (from == 0 && to == 0) {
      GraphNode& f = out.nodes[0];
      f.between[e.transport] += e.links;
      merge_problem(f.has_problem, f.problem, f.problem_why, e.has_problem, e.problem, e.problem_why);
      continue;
    }
    auto [it, inserted] = edge_of.try_emplace({from, to, e.kind, e.transport}, out.edges.size());
    if (inserted) {
      out.edges.push_back(GraphEdge{from, to, e.kind, e.transport, {}, 0, false, Severity::Info, {}});
    }
    GraphEdge& edge = out.edges[it->second];
    edge.channels.insert(e.channels.begin(), e.channels.end());
    edge.links += e.links;
    merge_problem(edge.has_problem, edge.problem, edge.problem_why, e.has_problem, e.problem, e.problem_why);
  }
  return out;
}

std::string fold_caption(const GraphFold& fold) {
  return fmt::format("{} hosts: {} healthy (no warning or error on their links) folded into one node; {} shown with "
                     "their links",
                     fold.hosts, fold.folded, fold.shown);
}

std::string folded_node_label(const GraphNode& node) {
  std::string label = fmt::format("{} healthy hosts\\n{}", node.hosts, plural(node.ranks, "rank"));
  if (!node.inside.empty()) {
    std::vector<std::string> inside(node.inside.begin(), node.inside.end());
    label += "\\ninside: " + dot_text(fmt::format("{}", fmt::join(inside, ", ")));
  }
  if (!node.between.empty()) {
    std::vector<std::string> parts;
    for (const auto& [transport, links] : node.between) {
      parts.push_back(transport == kNoLine ? fmt::format("{} without a connection line", links)
                                           : fmt::format("{} over {}", links, dot_text(transport)));
    }
    label += fmt::format("\\nlinks between them: {}", fmt::join(parts, ", "));
  }
  return label;
}

}  // namespace nd
