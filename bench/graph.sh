#!/bin/sh
# Benchmark: `nccl-doctor graph` on a cluster-scale job (default 1024 hosts x
# 8 GPUs = 8192 ranks, 32 channels, one socket host pair and one SHM host):
# DOT and JSON generation, and `graph --render` through Graphviz, each against
# `check` on the same log, with CPU time and peak RSS. Fails when `graph` or
# `graph --render` takes ND_BENCH_GRAPH_LIMIT seconds or more; without
# Graphviz it says so, skips the render timing and exits 77. Not part of CI.
#
#   sh bench/graph.sh
#   ND_BENCH_HOSTS=256 sh bench/graph.sh
#
# Environment: as bench/common.sh, and ND_BENCH_GRAPH_LIMIT (seconds,
# default 10).
set -eu
cd "$(dirname "$0")/.."
. bench/common.sh
limit=${ND_BENCH_GRAPH_LIMIT:-10}

# Init and connection lines only: the graph's cost is the job's size, not
# the COLL lines after it.
log=$dir/graph-${hosts}x${gpus}-${channels}ch-${version}.log
if [ ! -s "$log" ]; then
  echo "bench: generating $hosts hosts x $gpus GPUs, $channels channels, NCCL $version (no COLL lines)"
  python3 bench/gen_biglog.py --hosts "$hosts" --gpus-per-host "$gpus" --channels "$channels" \
    --version "$version" --socket-pair 3,4 --shm-host 7 --ops 0 -o "$log"
fi

echo
echo "bench: $(stat -L -c %s "$log") bytes, $(wc -l <"$log") lines, $hosts hosts x $gpus GPUs; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
cat "$log" >/dev/null
measure "nccl-doctor check FILE" "'$bin' check --color never '$log'"
t_check=$secs
measure "nccl-doctor graph FILE (DOT)" "'$bin' graph '$log'"
t_dot=$secs
cp "$dir/out.txt" "$dir/graph.dot"
caption=$(grep -o '[0-9]* hosts: [^"]*' "$dir/graph.dot" | head -1 || true)
nodes=$(grep -c '^[0-9a-z]*\[' "$dir/graph.dot" || true)
edges=$(grep -c ' -> ' "$dir/graph.dot" || true)
measure "nccl-doctor graph --format json FILE" "'$bin' graph --format json '$log'"
t_json=$secs
measure "nccl-doctor graph --level rank FILE (DOT)" "'$bin' graph --level rank '$log'"
rank_nodes=$(grep -c '^[0-9]*\[' "$dir/out.txt" || true)
status=0
render=""
if command -v dot >/dev/null 2>&1; then
  measure "nccl-doctor graph --render FILE.svg" "'$bin' graph --render '$dir/graph.svg' '$log'"
  t_render=$secs
  render=yes
  [ -s "$dir/graph.svg" ] || { echo "  graph --render wrote no SVG: $(cat "$dir/err.txt")"; status=1; }
else
  echo "  SKIPPED: graph --render: Graphviz 'dot' is not installed (Debian: apt-get install graphviz);"
  echo "           only DOT generation is timed"
fi
echo "  picture: $nodes nodes, $edges edges; $caption"
echo "  (--level rank: $rank_nodes nodes; Graphviz takes minutes on it)"
echo
echo "  graph DOT / check          $(ratio "$t_dot" "$t_check")"
echo "  graph JSON / check         $(ratio "$t_json" "$t_check")"
if under "$t_dot" "$limit"; then
  echo "  graph DOT                  $t_dot s   (target < $limit s)"
else
  echo "  graph DOT                  $t_dot s   FAIL: target < $limit s"
  status=1
fi
if [ -n "$render" ]; then
  echo "  render / DOT               $(ratio "$t_render" "$t_dot")"
  if under "$t_render" "$limit"; then
    echo "  graph --render             $t_render s   (target < $limit s)"
  else
    echo "  graph --render             $t_render s   FAIL: target < $limit s"
    status=1
  fi
fi
if [ $status -ne 0 ]; then
  echo "bench: FAIL"
  exit 1
fi
if [ -z "$render" ]; then
  echo "bench: PASS for DOT; render SKIPPED (no Graphviz)"
  exit 77
fi
echo "bench: PASS"
