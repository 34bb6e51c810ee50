#pragma once
// ND20xx: graph integrity (rings, trees, the two sides of an edge),
// placement of ranks on GPUs and hosts, CPU binding, and the topology NCCL's
// graph search found.
// Each rule is declared and defined in its own .cpp; its factory is listed
// here, in ID order, for register.cpp.

#include <memory>

#include "checks/rule.h"

namespace nd {

std::unique_ptr<Rule> make_ring_broken();  // ND2001
std::unique_ptr<Rule> make_ring_incomplete();  // ND2002
std::unique_ptr<Rule> make_ring_sources_disagree();  // ND2003
std::unique_ptr<Rule> make_tree_inconsistent();  // ND2004
std::unique_ptr<Rule> make_edge_sides_disagree();  // ND2005
std::unique_ptr<Rule> make_duplicate_gpu();  // ND2006
std::unique_ptr<Rule> make_oversubscribed_host();  // ND2007
std::unique_ptr<Rule> make_uneven_ranks_per_host();  // ND2008
std::unique_ptr<Rule> make_cross_socket_traffic();  // ND2009
std::unique_ptr<Rule> make_few_channels();  // ND2010
std::unique_ptr<Rule> make_rank_unbound();  // ND2011
std::unique_ptr<Rule> make_shared_cores();  // ND2012
std::unique_ptr<Rule> make_bound_away_from_gpu();  // ND2013

}  // namespace nd
