#include "checks/topology/topology_rules.h"
#include "checks/registry.h"

namespace nd {

void register_topology_rules(Registry& r) {
  r.add(make_ring_broken());  // ND2001
  r.add(make_ring_incomplete());  // ND2002
  r.add(make_ring_sources_disagree());  // ND2003
  r.add(make_tree_inconsistent());  // ND2004
  r.add(make_edge_sides_disagree());  // ND2005
  r.add(make_duplicate_gpu());  // ND2006
  r.add(make_oversubscribed_host());  // ND2007
  r.add(make_uneven_ranks_per_host());  // ND2008
  r.add(make_cross_socket_traffic());  // ND2009
  r.add(make_few_channels());  // ND2010
  r.add(make_rank_unbound());  // ND2011
  r.add(make_shared_cores());  // ND2012
  r.add(make_bound_away_from_gpu());  // ND2013
}

}  // namespace nd
