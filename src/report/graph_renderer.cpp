// GCC 12 -O2 reports a false maybe-uninitialized inside Boost's edge
// iterator (boost::optional) when writing a subgraph; the warning is in the
// header's code, so it is silenced for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "src/report/graph_renderer.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/subgraph.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/model/ring_graph.h"
#include "src/report/graph_fold.h"
#include "src/report/job_links.h"
#include "src/report/job_summary.h"
#include "src/util/ranges.h"
#include "src/util/text.h"

namespace nd {
namespace {

using Attrs = std::map<std::string, std::string>;
using DotGraph = boost::subgraph<boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::property<boost::vertex_attribute_t, Attrs>,
    boost::property<boost::edge_index_t, int, boost::property<boost::edge_attribute_t, Attrs>>,
    boost::property<boost::graph_name_t, std::string,
                    boost::property<boost::graph_graph_attribute_t, Attrs,
                                    boost::property<boost::graph_vertex_attribute_t, Attrs,
                                                    boost::property<boost::graph_edge_attribute_t, Attrs>>>>>>;

int gpu_of(const RankInfo& r) { return r.nvml_dev >= 0 ? r.nvml_dev : r.cuda_dev; }

std::string channel_text(const std::vector<uint16_t>& chs) {
  std::vector<uint32_t> v(chs.begin(), chs.end());
  return v.empty() ? std::string("none") : format_ranges(v);
}

const char* colour_of(const std::string& label) {
  if (label == "P2P") return "#2e7d32";
  if (label == "NVLS") return "#00838f";
  if (label == "SHM") return "#ef6c00";
  if (label.starts_with("NET/Socket")) return "#c62828";
  if (label.starts_with("NET/") && label.ends_with("+GDR")) return "#1565c0";
  if (label.starts_with("NET/")) return "#6a1b9a";
  if (label.starts_with("CollNet")) return "#4e342e";
  return "#616161";
}

// Errors red, warnings orange, notes amber.
const char* problem_colour(Severity s) {
  return s == Severity::Error ? "#d50000" : s == Severity::Warning ? "#ff6d00" : "#f9a825";
}

void note_problem(bool& has, Severity& sev, std::string& why, const LinkProblem& p) {
  if (!p.any()) return;
  if (!has || p.severity > sev) {
    sev = p.severity;
    why = p.why;
  }
  has = true;
}

}  // namespace

EdgeIndex::EdgeIndex(const Communicator& comm) : comm_(comm) {
  for (const Edge& e : comm.edges) {
    auto [it, inserted] = edges_.try_emplace({e.channel, e.sender, e.receiver}, &e);
    if (!inserted && e.conn_index <= 0) it->second = &e;
    uint32_t host = comm.host_of(e.sender);
    if (host == kNoHost || host != comm.host_of(e.receiver)) continue;
    auto [p, added] = inside_.try_emplace(std::minmax(e.sender, e.receiver), &e);
    if (!added && e.conn_index <= 0 && p->second->conn_index > 0) p->second = &e;
  }
}

const Edge* EdgeIndex::find_pair_inside(uint32_t a, uint32_t b) const {
  uint32_t host = comm_.host_of(a);
  if (host == kNoHost || host != comm_.host_of(b)) return nullptr;
  auto it = inside_.find(std::minmax(a, b));
  return it == inside_.end() ? nullptr : it->second;
}

const Edge* EdgeIndex::find(uint16_t ch, uint32_t a, uint32_t b) const {
  auto it = edges_.find({ch, a, b});
  return it == edges_.end() ? nullptr : it->second;
}

std::optional<size_t> find_comm(const JobModel& model, const std::string& id) {
  if (id.empty()) return primary_comm(model);
  std::optional<size_t> found;
  for (size_t i = 0; i < model.comms.size(); ++i) {
    if (model.comms[i].key == id) return i;
    if (model.comms[i].key.starts_with(id)) {
      if (found) return std::nullopt;  // ambiguous prefix
      found = i;
    }
  }
  return found;
}

GraphView build_graph(const JobModel& model, const GraphRequest& req) {
  const Communicator& comm = model.comms.at(req.comm);
  GraphView view;
  view.comm = comm.key;
  uint32_t n = comm.size();
  GraphLevel level = req.level;
  if (level == GraphLevel::Auto) level = n <= req.rank_level_max_ranks ? GraphLevel::Rank : GraphLevel::Host;
  view.level = level;
  EdgeIndex index(comm);
  std::map<uint32_t, size_t> host_node;
  auto node_of_host = [&](uint32_t host) {
    auto [it, inserted] = host_node.try_emplace(host, view.nodes.size());
    if (inserted) {
      GraphNode node;
      node.id = fmt::format("h{}", view.nodes.size());
      node.host = host;
      node.host_name = model.host_name(host);
      view.nodes.push_back(std::move(node));
    }
    return it->second;
  };
  if (level == GraphLevel::Rank) {
    for (uint32_t r = 0; r < n; ++r) {
      GraphNode node;
      node.id = fmt::format("r{}", r);
      node.rank = r;
      node.host = comm.host_of(r);
      node.host_name = model.host_name(node.host);
      if (r < comm.ranks.size()) node.gpu = gpu_of(comm.ranks[r]);
      view.nodes.push_back(std::move(node));
    }
  } else {
    for (uint32_t r = 0; r < n; ++r) ++view.nodes[node_of_host(comm.host_of(r))].ranks;
  }
  std::map<std::tuple<size_t, size_t, std::string, std::string>, size_t> edge_of;  // from, to, kind, label
  std::set<size_t> unlined;  // host nodes with a link inside that has no line
  auto add_link = [&](const char* kind, uint16_t ch, uint32_t a, uint32_t b, const Edge* e) {
    if (!e) e = index.find_pair_inside(a, b);  // a link inside a host reads P2P or SHM
    std::string label = e ? link_label(model, *e) : kNoLine;
    LinkProblem problem = e ? link_problem(model, comm, *e, req.options) : LinkProblem{};
    size_t from = a, to = b;
    std::string k = kind;
    if (level == GraphLevel::Host) {
      from = node_of_host(comm.host_of(a));
      to = node_of_host(comm.host_of(b));
      if (from == to) {
        GraphNode& node = view.nodes[from];
        // A missing line is no transport: listed only where nothing else is known.
        if (label == kNoLine) {
          unlined.insert(from);
        } else {
          node.inside.insert(label);
        }
        note_problem(node.has_problem, node.problem, node.problem_why, problem);
        return;
      }
      k = "link";  // rings and trees share the wires between two hosts
    }
    auto [it, inserted] = edge_of.try_emplace({from, to, k, label}, view.edges.size());
    if (inserted) view.edges.push_back(GraphEdge{from, to, k, label, {}, 0, false, Severity::Info, {}});
    GraphEdge& edge = view.edges[it->second];
    edge.channels.insert(ch);
    ++edge.links;
    note_problem(edge.has_problem, edge.problem, edge.problem_why, problem);
  };
  if (req.rings) {
    for (const auto& [ch, ring] : build_rings(comm)) {
      if (req.channel && *req.channel != ch) continue;
      view.ring_channels.push_back(ch);
      for (uint32_t v = 0; v < ring.rank_count(); ++v) {
        for (uint32_t next : ring.successors(v)) add_link("ring", ch, v, next, index.find(ch, v, next));
      }
    }
  }
  if (req.trees) {
    for (const auto& [ch, tree] : build_trees(comm)) {
      if (req.channel && *req.channel != ch) continue;
      view.tree_channels.push_back(ch);
      for (uint32_t v = 0; v < tree.rank_count(); ++v) {
        for (uint32_t up : tree.successors(v)) {
          const Edge* e = index.find(ch, up, v);
          if (!e) e = index.find(ch, v, up);
          add_link("tree", ch, up, v, e);
        }
      }
    }
  }
  for (size_t i : unlined) {
    if (view.nodes[i].inside.empty()) view.nodes[i].inside.insert(kNoLine);
  }
  if (level == GraphLevel::Host && req.fold_above_hosts > 0 && view.nodes.size() > req.fold_above_hosts) {
    return fold_healthy_hosts(view);
  }
  return view;
}

std::string dot_text(std::string_view text) {
  // Boost's writer quotes the value and escapes `"`; a backslash must be
  // doubled here, or `name\` would escape the closing quote. Control bytes
  // become visible `\xNN` (doubled too, so Graphviz prints them as such).
  std::string safe = printable(valid_utf8(text));
  std::string out;
  for (char c : safe) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string render_graph_dot(const GraphView& view) {
  DotGraph g(view.nodes.size());
  boost::get_property(g, boost::graph_name) = "nccl";
  Attrs& graph_attrs = boost::get_property(g, boost::graph_graph_attribute);
  std::string what;
  if (!view.ring_channels.empty()) what += fmt::format("rings on channel(s) {}", channel_text(view.ring_channels));
  if (!view.tree_channels.empty()) {
    what += fmt::format("{}trees on channel(s) {}", what.empty() ? "" : ", ", channel_text(view.tree_channels));
  }
  graph_attrs["label"] = dot_text(fmt::format("communicator {}: {} ({} level)", view.comm, what.empty() ? "no links" : what,
                                              view.level == GraphLevel::Rank ? "rank" : "host"));
  if (view.fold) graph_attrs["label"] += "\\n" + fold_caption(*view.fold);
  graph_attrs["labelloc"] = "t";
  graph_attrs["fontname"] = "Helvetica";
  graph_attrs["rankdir"] = "LR";
  if (view.level == GraphLevel::Host) graph_attrs["splines"] = "true";
  Attrs& node_defaults = boost::get_property(g, boost::graph_vertex_attribute);
  node_defaults["shape"] = "box";
  node_defaults["style"] = "rounded";
  node_defaults["fontname"] = "Helvetica";
  Attrs& edge_defaults = boost::get_property(g, boost::graph_edge_attribute);
  edge_defaults["fontname"] = "Helvetica";
  edge_defaults["fontsize"] = "10";

  std::map<uint32_t, DotGraph*> clusters;
  for (size_t i = 0; i < view.nodes.size(); ++i) {
    const GraphNode& node = view.nodes[i];
    Attrs& a = boost::get(boost::vertex_attribute, g)[i];
    if (view.level == GraphLevel::Rank) {
      a["label"] = node.gpu >= 0 ? fmt::format("rank {}\\nGPU {}", node.rank, node.gpu) : fmt::format("rank {}", node.rank);
      auto [it, inserted] = clusters.try_emplace(node.host, nullptr);
      if (inserted) {
        it->second = &g.create_subgraph();
        boost::get_property(*it->second, boost::graph_name) = fmt::format("cluster_{}", clusters.size() - 1);
        Attrs& c = boost::get_property(*it->second, boost::graph_graph_attribute);
        c["label"] = dot_text(node.host_name);
        c["style"] = "rounded";
        c["color"] = "#9e9e9e";
      }
      boost::add_vertex(i, *it->second);
    } else if (node.hosts > 0) {
      a["label"] = folded_node_label(node);
      a["style"] = "rounded,filled";
      a["fillcolor"] = "#eeeeee";
    } else {
      std::vector<std::string> inside(node.inside.begin(), node.inside.end());
      a["label"] = dot_text(node.host_name) +
                   fmt::format("\\n{} rank{}", node.ranks, node.ranks == 1 ? "" : "s") +
                   (inside.empty() ? "" : "\\ninside: " + dot_text(fmt::format("{}", fmt::join(inside, ", "))));
    }
    if (node.has_problem) {
      a["color"] = problem_colour(node.problem);
      a["penwidth"] = "2.5";
      a["tooltip"] = dot_text(node.problem_why);
    }
  }
  for (const GraphEdge& e : view.edges) {
    auto [ed, ok] = boost::add_edge(e.from, e.to, g);
    Attrs& a = boost::get(boost::edge_attribute, g)[ed];
    std::vector<uint16_t> chs(e.channels.begin(), e.channels.end());
    std::string label = dot_text(e.transport);
    if (view.level == GraphLevel::Host) {
      label += fmt::format("\\n{} link{}, ch {}", e.links, e.links == 1 ? "" : "s", channel_text(chs));
    } else {
      label += fmt::format(" ch {}", channel_text(chs));
    }
    if (e.has_problem) label += "\\n! " + dot_text(e.problem_why);
    a["label"] = label;
    a["color"] = colour_of(e.transport);
    a["fontcolor"] = colour_of(e.transport);
    if (e.kind == "tree") a["style"] = "dashed";
    if (e.transport == kNoLine) a["style"] = "dotted";
    if (e.has_problem) {
      a["color"] = problem_colour(e.problem);
      a["fontcolor"] = a["color"];
      a["penwidth"] = "3";
      a["tooltip"] = dot_text(e.problem_why);
    }
    if (view.level == GraphLevel::Host) a["penwidth"] = a.count("penwidth") ? a["penwidth"] : "1.5";
  }
  std::ostringstream os;
  boost::write_graphviz(os, g);
  return os.str();
}

std::string render_graph_json(const GraphView& view) {
  using nlohmann::json;
  json j;
  j["schema"] = kGraphSchema;
  j["comm"] = valid_utf8(view.comm);
  j["level"] = view.level == GraphLevel::Rank ? "rank" : "host";
  j["ring_channels"] = view.ring_channels;
  j["tree_channels"] = view.tree_channels;
  if (view.fold) {
    j["fold"] = {{"hosts", view.fold->hosts}, {"folded", view.fold->folded}, {"shown", view.fold->shown}};
  }
  j["nodes"] = json::array();
  for (const GraphNode& n : view.nodes) {
    json node = {{"id", n.id}, {"host", n.host == kNoHost ? json() : json(valid_utf8(n.host_name))}};
    if (view.level == GraphLevel::Rank) {
      node["rank"] = n.rank;
      node["gpu"] = n.gpu >= 0 ? json(n.gpu) : json();
    } else {
      node["ranks"] = n.ranks;
      node["inside"] = std::vector<std::string>(n.inside.begin(), n.inside.end());
      if (n.hosts > 0) {
        node["hosts"] = n.hosts;
        node["between"] = json::array();
        for (const auto& [transport, links] : n.between) {
          node["between"].push_back({{"transport", valid_utf8(transport)}, {"links", links}});
        }
      }
    }
    node["problem"] = n.has_problem ? json({{"severity", severity_name(n.problem)}, {"why", n.problem_why}}) : json();
    j["nodes"].push_back(std::move(node));
  }
  j["edges"] = json::array();
  for (const GraphEdge& e : view.edges) {
    j["edges"].push_back({{"from", view.nodes[e.from].id},
                          {"to", view.nodes[e.to].id},
                          {"kind", e.kind},
                          {"transport", valid_utf8(e.transport)},
                          {"channels", std::vector<uint16_t>(e.channels.begin(), e.channels.end())},
                          {"links", e.links},
                          {"problem", e.has_problem ? json({{"severity", severity_name(e.problem)}, {"why", e.problem_why}})
                                                    : json()}});
  }
  return j.dump(2) + "\n";
}

}  // namespace nd
