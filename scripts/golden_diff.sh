#!/bin/sh
# Golden end-to-end run of `nccl-doctor diff` over a good and a bad log of
# one job (DIR/good.log, DIR/bad.log): text and JSON of good -> bad, text of
# good -> good, and the same pair from saved `check --format json` reports,
# from files and from standard input, which must tell the same changes.
# Compares with DIR/good-bad.expected.{txt,json} and good-good.expected.txt;
# the exit status is the last line of each. Regenerate on purpose with
#   ND_GOLDEN_UPDATE=1 meson test -C build --suite golden
set -u
bin=$(realpath "$1")
cd "$2" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
  "$bin" diff "$@"
  echo "exit status: $?"
}
run good.log bad.log >"$tmp/good-bad.txt" 2>"$tmp/stderr"
run --format json good.log bad.log >"$tmp/good-bad.json" 2>>"$tmp/stderr"
run good.log good.log >"$tmp/good-good.txt" 2>>"$tmp/stderr"

if [ "${ND_GOLDEN_UPDATE:-}" = 1 ]; then
  for f in good-bad.txt good-bad.json good-good.txt; do cp "$tmp/$f" "${f%.*}.expected.${f##*.}"; done
  echo "updated $(pwd)/*.expected.*"
  exit 0
fi

status=0
for f in good-bad.txt good-bad.json good-good.txt; do
  if ! diff -u "${f%.*}.expected.${f##*.}" "$tmp/$f"; then
    echo "FAIL: diff $f differs from ${f%.*}.expected.${f##*.}"
    status=1
  fi
done

# Saved reports compare like the logs they came from; only the names differ.
"$bin" check --format json good.log >"$tmp/good.json" 2>>"$tmp/stderr"
"$bin" check --format json bad.log >"$tmp/bad.json" 2>>"$tmp/stderr"
run "$tmp/good.json" "$tmp/bad.json" | sed "s|$tmp/good.json|good.log|; s|$tmp/bad.json|bad.log|" >"$tmp/saved.txt"
if ! diff -u good-bad.expected.txt "$tmp/saved.txt"; then
  echo "FAIL: diff of the saved reports differs from the diff of the logs"
  status=1
fi
# A report and a log mixed, the report on standard input.
run good.log - <"$tmp/bad.json" | sed 's|^bad:  - |bad:  bad.log |' >"$tmp/stdin.txt"
if ! diff -u good-bad.expected.txt "$tmp/stdin.txt"; then
  echo "FAIL: diff of a log and a report on standard input differs from the diff of the logs"
  status=1
fi
# A log on standard input.
run - bad.log <good.log | sed 's|^good: - |good: good.log |' >"$tmp/stdin-log.txt"
if ! diff -u good-bad.expected.txt "$tmp/stdin-log.txt"; then
  echo "FAIL: diff of a log on standard input differs from the diff of the logs"
  status=1
fi
# Bad input: the exit statuses of check, and 3 for usage.
expect_status() {  # expect_status STATUS -- command...
  want=$1
  shift 2
  "$@" </dev/null >/dev/null 2>"$tmp/err"
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $* exited $got, not $want:"
    cat "$tmp/err"
    status=1
  fi
}
expect_status 3 -- "$bin" diff - -
expect_status 3 -- "$bin" diff good.log
expect_status 2 -- "$bin" diff good.log "$tmp/missing.log"
expect_status 4 -- "$bin" diff good.log /dev/null
"$bin" summary --format json good.log >"$tmp/summary.json" 2>>"$tmp/stderr"
expect_status 2 -- "$bin" diff "$tmp/summary.json" bad.log
# A damaged saved report is an input error, not a crash.
printf '{"schema":"nccl-doctor.check/2","summary":5}\n' >"$tmp/damaged.json"
expect_status 2 -- "$bin" diff "$tmp/damaged.json" bad.log
grep -q "not a valid check report" "$tmp/err" || { echo "FAIL: damaged report: $(cat "$tmp/err")"; status=1; }

if [ -s "$tmp/stderr" ]; then
  echo "FAIL: unexpected standard error:"
  cat "$tmp/stderr"
  status=1
fi
exit $status
