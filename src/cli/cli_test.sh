#!/bin/sh
# End-to-end checks of the catalogue options of the real binary: exit
# statuses, error texts, and that rule lists do not swallow input names.
#   cli_test.sh NCCL_DOCTOR SOURCE_ROOT
set -u
bin=$1
log=$2/testdata/logs/2.18.3/four-node-one-socket-pair.log
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() {  # expect STATUS EXPECTED_FILE_CONTENT -- command...
  want=$1 text=$2
  shift 3
  "$@" >"$tmp/out" 2>&1
  got=$?
  printf '%s\n' "$text" >"$tmp/want"
  if [ "$got" -ne "$want" ] || ! diff -u "$tmp/want" "$tmp/out"; then
    echo "FAIL ($got, expected $want): $*"
    status=1
  fi
}

expect 3 "--disable: unknown rule 'inter-node-sockets'; did you mean ND3001 (inter-node-socket)?
Run with --help for more information." -- "$bin" check --disable inter-node-sockets "$log"
expect 3 "--enable: bad rule range 'ND3999-ND3000': ND3999 comes after ND3000
Run with --help for more information." -- "$bin" check --enable ND3999-ND3000 "$log"
expect 3 "unknown rule 'inter-node-sokcet'; did you mean ND3001 (inter-node-socket)?
Run with --help for more information." -- "$bin" explain inter-node-sokcet
# No input named: standard input when it is a pipe or a file, else a usage error
# (/dev/null: cron, ssh -n).
expect 3 "no input: name log files, or pipe one in (job 2>&1 | nccl-doctor check)
Run with --help for more information." -- sh -c '"$1" check --color never --enable ND3001 </dev/null' sh "$bin"
"$bin" check --color never <"$log" >"$tmp/piped"
[ $? -eq 1 ] && "$bin" check --color never "$log" | sed "s|$log:|<stdin>:|" | cmp -s - "$tmp/piped" ||
  { echo "FAIL: check with the log on standard input differs from check FILE"; status=1; }
expect 3 "nccl-doctor: unknown command 'chek'; did you mean 'check'?
Run with --help for more information." -- "$bin" chek "$log"
expect 3 "nccl-doctor: unknown option '--fromat' for check; did you mean '--format'?
Run with --help for more information." -- "$bin" check --fromat json "$log"
# A command named first is built alone: its help opens with the line the
# full list gives it, and is its own.
"$bin" --help | sed -n '/^Subcommands:/,$p' | tail -n +2 | grep . >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" -eq 8 ] || { echo "FAIL: --help lists $(wc -l <"$tmp/commands") commands, not 8"; status=1; }
while read -r name description; do
  "$bin" "$name" --help >"$tmp/help" 2>&1
  if [ $? -ne 0 ] || [ "$(sed -n 1p "$tmp/help")" != "$description" ] ||
     [ "$(sed -n 2p "$tmp/help" | cut -d' ' -f1-3)" != "Usage: nccl-doctor $name" ]; then
    echo "FAIL: $name --help"; cat "$tmp/help"; status=1
  fi
done <"$tmp/commands"
# --timings: each stage's wall and CPU time on standard error, the report unchanged.
"$bin" check --color never --timings "$log" >"$tmp/timed" 2>"$tmp/timings"
"$bin" check --color never "$log" | cmp -s - "$tmp/timed" ||
  { echo "FAIL: --timings changed the report"; status=1; }
if [ "$(sed -E 's/^nccl-doctor: timing: ([a-z]+) +[0-9]+\.[0-9] ms, CPU +[0-9]+\.[0-9] ms$/\1/' "$tmp/timings" | tr '\n' ' ')" != "read model checks " ]; then
  echo "FAIL: --timings printed:"; cat "$tmp/timings"; status=1
fi
"$bin" explain socket >"$tmp/page" 2>"$tmp/err"
if [ $? -ne 0 ] || [ "$(head -1 "$tmp/page")" != "# ND3001 inter-node-socket" ]; then
  echo "FAIL: explain socket should show ND3001 first"; cat "$tmp/page" "$tmp/err"; status=1
fi
"$bin" check --enable ND3001,inter-node-unknown-net --list-rules >"$tmp/list"
if [ "$(cut -c1-6 "$tmp/list" | tr '\n' ' ')" != "ID     ND3001 ND3005 " ]; then
  echo "FAIL: --list-rules after --enable lists:"; cat "$tmp/list"; status=1
fi
# A rule list followed by an input: the input is not taken for a rule.
"$bin" check --color never --enable ND3001 "$log" >"$tmp/out"
[ $? -eq 1 ] || { echo "FAIL: --enable ND3001 FILE should find the socket link (status 1)"; status=1; }
"$bin" check --color never --disable ND3001 --disable ND3004,ND3005 "$log" >"$tmp/out"
[ $? -eq 0 ] || { echo "FAIL: with ND3001 disabled the log passes"; cat "$tmp/out"; status=1; }
grep -q '^verdict: PASS (0 errors, 0 warnings, ' "$tmp/out" || { echo "FAIL: verdict"; status=1; }
# JUnit from the binary: well-formed, and the failing case is there.
"$bin" check --format junit "$log" >"$tmp/junit.xml"
[ $? -eq 1 ] || { echo "FAIL: junit exit status"; status=1; }
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/junit.xml" ||
  { echo "FAIL: junit output is not well-formed XML"; status=1; }
grep -q '<failure message="rank 3 on gpu002 -&gt; rank 4 on gpu003' "$tmp/junit.xml" ||
  { echo "FAIL: junit lacks the socket failure"; status=1; }
# Per-rank files under a low descriptor limit are opened a few at a time (an
# eighth of the limit: 3) and fewer are kept to read cited lines back from
# (a quarter: 6 of the 9; the others' cited lines are copied): the report is
# the one that all of them at once give.
mkdir "$tmp/ranks"
awk -v dir="$tmp/ranks" '{ split($1, f, ":"); name = f[2] ~ /^[0-9]+$/ ? f[1] "-" f[2] : "other"
                           print > (dir "/" name ".log") }' "$log"
[ "$(ls "$tmp/ranks" | wc -l)" -eq 9 ] || { echo "FAIL: the log should split into 9 per-rank files"; status=1; }
"$bin" check --color never "$tmp"/ranks/*.log >"$tmp/all"
(ulimit -n 24 && "$bin" check --color never "$tmp"/ranks/*.log) >"$tmp/few"
cmp -s "$tmp/all" "$tmp/few" && grep -q '^job: 4 hosts, 8 ranks' "$tmp/all" ||
  { echo "FAIL: per-rank files under ulimit -n 24:"; diff "$tmp/all" "$tmp/few"; status=1; }
[ $status -eq 0 ] && echo ok
exit $status
