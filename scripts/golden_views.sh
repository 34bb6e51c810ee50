#!/bin/sh
# Golden end-to-end run of `nccl-doctor summary` and `nccl-doctor graph` over
# one test log: summary as text and JSON, graph as DOT (rank and host level),
# JSON and text, and host level with healthy hosts folded above two hosts
# (what a cluster-scale job gets by default). Compares with <stem>.<view> files; every DOT must be accepted
# by Graphviz (`dot -Tsvg`) when dot is installed. Regenerate on purpose with
#   ND_GOLDEN_UPDATE=1 meson test -C build --suite golden
set -u
bin=$(realpath "$1")
log=$(realpath "$2")
stem=$3
cd "$(dirname "$log")" || exit 1
base=$(basename "$log")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
  out=$1
  shift
  "$bin" "$@" "$base" >"$tmp/$out" 2>>"$tmp/stderr"
  echo "exit status: $?" >>"$tmp/$out"
}
run summary.txt summary
run summary.json summary --format json
run graph.dot graph
run graph-host.dot graph --level host
run graph.json graph --format json
run graph.txt graph --format text
run graph-fold.dot graph --level host --fold-above 2
run graph-fold.json graph --level host --fold-above 2 --format json

status=0
for view in summary.txt summary.json graph.dot graph-host.dot graph.json graph.txt graph-fold.dot graph-fold.json; do
  if [ "${ND_GOLDEN_UPDATE:-}" = 1 ]; then
    cp "$tmp/$view" "$stem.$view"
    continue
  fi
  if ! diff -u "$stem.$view" "$tmp/$view"; then
    echo "FAIL: $base: $view differs from $(basename "$stem").$view"
    status=1
  fi
done
[ "${ND_GOLDEN_UPDATE:-}" = 1 ] && echo "updated $stem.*"

# Graphviz must accept every DOT we write (the last line is our exit status).
if command -v dot >/dev/null 2>&1; then
  for view in graph.dot graph-host.dot graph-fold.dot; do
    sed '$d' "$tmp/$view" >"$tmp/in.dot"
    if [ -s "$tmp/in.dot" ] && ! dot -Tsvg "$tmp/in.dot" >/dev/null 2>"$tmp/dot.err"; then
      echo "FAIL: $base: dot -Tsvg rejects $view:"
      cat "$tmp/dot.err"
      status=1
    elif [ -s "$tmp/dot.err" ]; then
      echo "FAIL: $base: dot -Tsvg warns on $view:"
      cat "$tmp/dot.err"
      status=1
    fi
  done
else
  echo "note: Graphviz dot not installed; DOT output not validated"
fi
if [ -s "$tmp/stderr" ] && [ "${ND_GOLDEN_EXPECT_STDERR:-}" != 1 ]; then
  echo "FAIL: unexpected standard error:"
  cat "$tmp/stderr"
  status=1
fi
exit $status
