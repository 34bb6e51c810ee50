#pragma once
// A host-level graph at cluster scale: the hosts whose links carry no
// warning or error fold into one node that counts them; the others keep
// their own nodes and their links, to each other and to the folded node.

#include <string>

#include "src/report/graph_renderer.h"

namespace nd {

// The host-level `view` with its healthy hosts folded into one node (id
// "healthy", placed first); links among them become the node's `between`
// counts. Unchanged when fewer than two hosts are healthy.
GraphView fold_healthy_hosts(const GraphView& view);

// "1024 hosts: 1019 healthy (no warning or error on their links) folded into
// one node; 5 shown with their links"
std::string fold_caption(const GraphFold& fold);

// The DOT label of the folded node: hosts, ranks, transports inside and
// between its hosts.
std::string folded_node_label(const GraphNode& node);

}  // namespace nd
