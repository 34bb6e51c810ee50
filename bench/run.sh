#!/bin/sh
# Benchmark: nccl-doctor check against wc -l and grep -c on one large generated
# log (in the page cache), from the file and from a pipe, with peak RSS, the
# scaling at 1x, 2x and 4x log size (a quarter, a half and all of it), a never-ending slow pipe (RSS sampled
# over time), a stream through `check --tee` (checksums) and the live finding
# latency. Not part of CI.
#
#   sh bench/run.sh                       # 2 GB, 8192 ranks on 1024 hosts, 32 channels
#   ND_BENCH_SIZE=256M sh bench/run.sh    # quicker
#
# Environment: ND_BENCH_SIZE (default 2G), ND_BENCH_DIR (default /tmp/nd-bench),
# ND_BENCH_BIN (default build/src/nccl-doctor), ND_BENCH_REPEAT (runs per
# timing, the fastest counts; default 3), ND_BENCH_HOSTS/GPUS/CHANNELS/VERSION,
# ND_BENCH_SLOW_SECONDS (slow-pipe duration, default 60; 0 skips),
# ND_BENCH_TEE_GB (bytes through --tee, default 10; 0 skips).
set -eu
cd "$(dirname "$0")/.."
size=${ND_BENCH_SIZE:-2G}
dir=${ND_BENCH_DIR:-/tmp/nd-bench}
bin=$(realpath "${ND_BENCH_BIN:-build/src/nccl-doctor}")
repeat=${ND_BENCH_REPEAT:-3}
hosts=${ND_BENCH_HOSTS:-1024}
gpus=${ND_BENCH_GPUS:-8}
channels=${ND_BENCH_CHANNELS:-32}
version=${ND_BENCH_VERSION:-2.18}
slow_seconds=${ND_BENCH_SLOW_SECONDS:-60}
tee_gb=${ND_BENCH_TEE_GB:-10}

if [ ! -x /usr/bin/time ]; then
  echo "bench: installing GNU time for peak RSS"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
[ -x "$bin" ] || { echo "bench: no binary at $bin (build first: meson setup build --buildtype=release && ninja -C build)"; exit 1; }
mkdir -p "$dir"

bytes() { python3 -c "import sys; sys.path.insert(0, 'bench'); import gen_biglog; print(gen_biglog.parse_size(sys.argv[1]))" "$1"; }
full=$(bytes "$size")

# One job with COLL lines up to the full size (4x), cut at line boundaries
# for 2x and 1x (a half and a quarter), so the three logs share their init and
# connection lines.
big=$dir/log-4x.log
if [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt "$full" ]; then
  echo "bench: generating $size ($hosts hosts x $gpus GPUs, $channels channels, NCCL $version, COLL lines)"
  python3 bench/gen_biglog.py --hosts "$hosts" --gpus-per-host "$gpus" --channels "$channels" \
    --version "$version" --socket-pair 3,4 --shm-host 7 --size "$full" -o "$big"
fi
cut_log() {  # source, bytes, destination: the lines of the first `bytes` bytes
  python3 - "$@" <<'PY'
import sys
src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(src, "rb") as f, open(dst, "wb") as out:
    left = n
    while left > 0:
        block = f.read(min(left, 1 << 24))
        if not block:
            break
        out.write(block)
        left -= len(block)
    out.write(f.readline())
PY
}
[ -s "$dir/log-1x.log" ] || cut_log "$big" "$((full / 4))" "$dir/log-1x.log"
[ -s "$dir/log-2x.log" ] || cut_log "$big" "$((full / 2))" "$dir/log-2x.log"

# measure NAME COMMAND...: the fastest of $repeat runs; sets $secs and $rss (KB).
measure() {
  name=$1
  shift
  best=""
  rss=0
  i=0
  while [ $i -lt "$repeat" ]; do
    /usr/bin/time -v -o "$dir/time.txt" sh -c "$*" >"$dir/out.txt" 2>"$dir/err.txt" || true
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt" |
           awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
    r=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.txt")
    if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then best=$wall; fi
    [ "$r" -gt "$rss" ] && rss=$r
    i=$((i + 1))
  done
  secs=$best
  printf '  %-38s %8.2f s   peak RSS %7.1f MB\n' "$name" "$secs" "$(awk "BEGIN { print $rss / 1024 }")"
}
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

log=$big
echo
echo "bench: $(stat -c %s "$log") bytes, $(wc -l <"$log") lines; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
echo "bench: warming the page cache"
cat "$log" >/dev/null
# grep writes its count to a file: with stdout on /dev/null GNU grep stops at the first match.
measure "wc -l FILE" "wc -l '$log'"
t_wc=$secs
measure "grep -c 'via NET/Socket' FILE" "grep -c 'via NET/Socket' '$log'"
t_grep=$secs
measure "nccl-doctor check FILE" "'$bin' check --color never '$log'"
t_file=$secs
rss_file=$rss
verdict=$(grep '^verdict:' "$dir/out.txt" || true)
findings=$(grep -o '\[ND[0-9]* [a-z-]*\]' "$dir/out.txt" | sort -u | tr '\n' ' ' || true)
measure "cat FILE | nccl-doctor check -" "cat '$log' | '$bin' check --color never -"
t_pipe=$secs
rss_pipe=$rss
# The floor of any pipe: cat and a reader that only counts lines.
measure "cat FILE | wc -l" "cat '$log' | wc -l"
t_cat=$secs
if "$bin" check --help 2>&1 | grep -q -- '--tee'; then
  measure "cat FILE | nccl-doctor check --tee -" "cat '$log' | '$bin' check --color never --tee - >/dev/null"
  t_tee=$secs
fi
echo "  report: $verdict; $findings"
echo
echo "  check FILE / grep -c       $(ratio "$t_file" "$t_grep")   (target <= 1.00)"
echo "  check FILE / wc -l         $(ratio "$t_file" "$t_wc")"
echo "  pipe speed / grep speed    $(ratio "$t_grep" "$t_pipe")   (target >= 0.70)"
echo "  pipe speed / file speed    $(ratio "$t_file" "$t_pipe")   (cat shares the cores: see README)"
echo "  pipe speed / cat | wc -l   $(ratio "$t_cat" "$t_pipe")"
if [ -n "${t_tee:-}" ]; then
  echo "  --tee speed / grep speed   $(ratio "$t_grep" "$t_tee")   (target >= 0.70)"
fi
echo "  peak RSS file, pipe        $((rss_file / 1024)) MB, $((rss_pipe / 1024)) MB   (target <= 256 MB)"

echo
echo "bench: scaling (same job, more COLL lines: a quarter, a half, all of it)"
for k in 1 2 4; do
  f=$dir/log-${k}x.log
  cat "$f" >/dev/null
  measure "${k}x: $(($(stat -c %s "$f") / 1048576)) MB  grep -c" "grep -c 'via NET/Socket' '$f'"
  g=$secs
  measure "${k}x: check FILE" "'$bin' check --color never '$f'"
  echo "      check / grep $(ratio "$secs" "$g"), $(awk "BEGIN { printf \"%.0f\", $(stat -c %s "$f") / 1048576 / $secs }") MB/s"
done

if [ "$slow_seconds" -gt 0 ]; then
  echo
  echo "bench: a never-ending slow pipe for ${slow_seconds}s (RSS of check, sampled every second)"
  python3 - "$big" "$dir/slow.pid" 2>/dev/null <<'PY' | "$bin" check --color never - >"$dir/slow.txt" 2>&1 &
import os, sys, time
open(sys.argv[2], "w").write(str(os.getpid()))
# The job's init and connection lines, then its COLL lines again and again, 4 MB/s.
with open(sys.argv[1], "rb") as f:
    lines = [f.readline() for _ in range(400000)]
coll = [l for l in lines if b": opCount " in l][:20000]
out = sys.stdout.buffer
out.writelines(l for l in lines if b": opCount " not in l)
while True:
    for i in range(0, len(coll), 2000):
        out.writelines(coll[i:i + 2000])
        out.flush()
        time.sleep(0.05)
PY
  pid=$!
  sleep 2
  samples=""
  s=0
  while [ $s -lt "$slow_seconds" ] && [ -n "$pid" ] && [ -e "/proc/$pid" ]; do
    samples="$samples $(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status")"
    sleep 1
    s=$((s + 1))
  done
  kill "$(cat "$dir/slow.pid")" 2>/dev/null || true
  wait || true
  echo "  report after the writer stopped: $(grep '^input:' "$dir/slow.txt" || true)"
  echo "  RSS MB over time:$samples"
  echo "  first $(echo $samples | cut -d' ' -f1) MB, last $(echo $samples | awk '{print $NF}') MB, max $(echo $samples | tr ' ' '\n' | sort -n | tail -1) MB"
fi

if [ "$tee_gb" -gt 0 ]; then
  echo
  if "$bin" check --help 2>&1 | grep -q -- '--tee'; then
    echo "bench: ${tee_gb} GB through check --tee (sha256 of input and output)"
    n=$(( (tee_gb * 1073741824 + full - 1) / full ))
    in_sum=$( (i=0; while [ $i -lt $n ]; do cat "$log"; i=$((i + 1)); done) | head -c $((tee_gb * 1073741824)) |
      sha256sum | cut -d' ' -f1) || true
    out_sum=$( (i=0; while [ $i -lt $n ]; do cat "$log"; i=$((i + 1)); done) | head -c $((tee_gb * 1073741824)) |
      "$bin" check --color never --tee - 2>"$dir/tee-report.txt" | sha256sum | cut -d' ' -f1) || true
    echo "  input  $in_sum"
    echo "  output $out_sum"
    [ "$in_sum" = "$out_sum" ] && echo "  intact" || echo "  DIFFERENT"
  else
    echo "bench: skipping the --tee stream: this nccl-doctor has no 'check --tee' yet"
  fi
fi

# Live latency: how long after the deciding line the finding reaches stderr,
# with a producer that pauses and with one that never does (the suite's live
# tests assert only the order of events).
echo
echo "bench: live finding latency (check --tee -)"
for t in latency trickle; do
  python3 src/pipeline/live_test.py "$bin" "$t" --measure | sed -n 's/^/  /p' | grep -v '  ok$' || true
done
