#!/bin/sh
# Golden end-to-end run: nccl-doctor check over one test log (or a .ranks
# directory of per-rank files) in text and JSON, from files and from stdin.
# Compares with <log>.expected.txt / .expected.json beside it; the exit status
# is the last line of the text golden. Regenerate on purpose with
#   ND_GOLDEN_UPDATE=1 meson test -C build --suite golden
set -u
bin=$(realpath "$1")
log=$(realpath "$2")
dir=$(dirname "$log")
base=$(basename "$log")
stem=${log%.log}
stem=${stem%.ranks}
cd "$dir" || exit 1

if [ -d "$base" ]; then
  set -- $(cd "$base" && ls | sort | sed "s|^|$base/|")
else
  set -- "$base"
fi

run() {
  "$bin" check --color never "$@"
  echo "exit status: $?"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run "$@" >"$tmp/text" 2>"$tmp/stderr"
run --format json "$@" >"$tmp/json" 2>>"$tmp/stderr"

if [ "${ND_GOLDEN_UPDATE:-}" = 1 ]; then
  cp "$tmp/text" "$stem.expected.txt"
  cp "$tmp/json" "$stem.expected.json"
  # What the tool says on stderr (input problems) is pinned too, when it says anything.
  if [ -s "$tmp/stderr" ]; then cp "$tmp/stderr" "$stem.expected.stderr"; else rm -f "$stem.expected.stderr"; fi
  echo "updated $stem.expected.{txt,json}"
  exit 0
fi

status=0
for kind in txt json; do
  actual=$tmp/text
  [ $kind = json ] && actual=$tmp/json
  if ! diff -u "$stem.expected.$kind" "$actual"; then
    echo "FAIL: $base: $kind output differs from $(basename "$stem").expected.$kind"
    status=1
  fi
done

# A single log must read the same from a pipe (the stream path) as from the file.
if [ $# -eq 1 ] && [ -f "$1" ]; then
  cat "$1" | run - | sed "s|<stdin>|$1|g" >"$tmp/stdin"
  if ! diff -u "$tmp/text" "$tmp/stdin"; then
    echo "FAIL: $base: standard input gives a different report than the file"
    status=1
  fi
fi
if [ -f "$stem.expected.stderr" ]; then
  if ! diff -u "$stem.expected.stderr" "$tmp/stderr"; then
    echo "FAIL: $base: standard error differs from $(basename "$stem").expected.stderr"
    status=1
  fi
elif [ -s "$tmp/stderr" ]; then
  echo "FAIL: unexpected standard error:"
  cat "$tmp/stderr"
  status=1
fi
exit $status
