#!/bin/sh
# Benchmark: nccl-doctor check against grep -c and wc -l in the same run, each
# with wall time, CPU time (user + system), peak RSS and minor page faults,
# the commands of a case taking turns (see measure_together in common.sh):
#   1. one large generated log (in the page cache), from the file and from a
#      pipe, and its scaling at a quarter, a half and all of it;
#   2. the same job behind Open MPI's --tag-output prefix;
#   3. 1024 per-rank files (NCCL_DEBUG_FILE) of a 128-host job;
#   4. start-up: a short log, the median of many runs;
# then one summary line of the ratios against the issue's targets, a
# never-ending slow pipe (RSS sampled over time), a stream through
# `check --tee` (checksums) and the live finding latency. Not part of CI.
#
#   sh bench/run.sh                       # 2 GB, 8192 ranks on 1024 hosts, 32 channels
#   ND_BENCH_SIZE=256M sh bench/run.sh    # quicker
#
# Environment: as bench/common.sh, and ND_BENCH_SIZE (default 2G),
# ND_BENCH_TAG_SIZE (the --tag-output log, default 1G; 0 skips),
# ND_BENCH_RANK_FILES_SIZE (all per-rank files together, default 256M; 0
# skips), ND_BENCH_SLOW_SECONDS (slow-pipe duration, default 60; 0 skips),
# ND_BENCH_TEE_GB (bytes through --tee, default 10; 0 skips).
set -eu
cd "$(dirname "$0")/.."
. bench/common.sh
size=${ND_BENCH_SIZE:-2G}
tag_size=${ND_BENCH_TAG_SIZE:-1G}
rank_files_size=${ND_BENCH_RANK_FILES_SIZE:-256M}
slow_seconds=${ND_BENCH_SLOW_SECONDS:-60}
tee_gb=${ND_BENCH_TEE_GB:-10}

bytes() { python3 -c "import sys; sys.path.insert(0, 'bench'); import gen_biglog; print(gen_biglog.parse_size(sys.argv[1]))" "$1"; }
full=$(bytes "$size")
job="--hosts $hosts --gpus-per-host $gpus --channels $channels --version $version --socket-pair 3,4 --shm-host 7"

# One job with COLL lines up to the full size (4x), cut at line boundaries
# for 2x and 1x (a half and a quarter), so the three logs share their init and
# connection lines.
big=$dir/log-4x.log
if [ ! -s "$big" ] || [ "$(stat -L -c %s "$big")" -lt "$full" ]; then
  echo "bench: generating $size ($hosts hosts x $gpus GPUs, $channels channels, NCCL $version, COLL lines)"
  python3 bench/gen_biglog.py $job --size "$full" -o "$big"
  rm -f "$dir/log-1x.log" "$dir/log-2x.log"
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

# run_case NAME FILES...: wc -l, grep -c and check on the same files; adds
# the ratios to $summary and keeps the largest RSS and page faults of check
# in $worst_rss and $worst_faults.
summary=""
worst_rss=0
worst_faults=0
run_case() {
  case_name=$1
  shift
  files=$*
  sh -c "cat $files >/dev/null"
  # grep writes its count to a file: with stdout on /dev/null GNU grep stops at the first match.
  measure_together "wc -l" "wc -l $files" \
    "grep -c 'via NET/Socket'" "grep -c 'via NET/Socket' $files" \
    "nccl-doctor check" "'$bin' check --color never $files"
  verdict=$(grep '^verdict:' "$dir/out-3.txt" || true)
  echo "  report: $verdict"
  echo "  check / grep -c: wall $(ratio "$secs_3" "$secs_2") (target <= 1.00), CPU $(ratio "$cpu_3" "$cpu_2") (target <= 1.50);" \
       "check / wc -l: wall $(ratio "$secs_3" "$secs_1")"
  summary="$summary; $case_name wall $(ratio "$secs_3" "$secs_2") CPU $(ratio "$cpu_3" "$cpu_2")"
  [ "$rss_3" -gt "$worst_rss" ] && worst_rss=$rss_3
  [ "$faults_3" -gt "$worst_faults" ] && worst_faults=$faults_3
  return 0
}

echo
echo "bench: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -r); $(date -u +%Y-%m-%dT%H:%MZ)"
echo
log=$big
echo "bench: 1. $(stat -L -c %s "$big") bytes, $(wc -l <"$big") lines: $hosts hosts x $gpus GPUs, $channels channels, NCCL $version"
run_case "log" "'$big'"
# The floor of any pipe: cat and a reader that only counts lines.
measure_together "cat FILE | nccl-doctor check -" "cat '$big' | '$bin' check --color never -" \
  "cat FILE | wc -l" "cat '$big' | wc -l"
echo "  pipe / cat | wc -l: wall $(ratio "$secs_1" "$secs_2")"

echo
echo "bench: scaling (same job, more COLL lines: a quarter, a half, all of it)"
for k in 1 2 4; do
  f=$dir/log-${k}x.log
  cat "$f" >/dev/null
  measure_together "${k}x: $(($(stat -L -c %s "$f") / 1048576)) MB  grep -c" "grep -c 'via NET/Socket' '$f'" \
    "${k}x: check FILE" "'$bin' check --color never '$f'"
  echo "      check / grep $(ratio "$secs_2" "$secs_1"), $(awk "BEGIN { printf \"%.0f\", $(stat -L -c %s "$f") / 1048576 / $secs_2 }") MB/s"
done

if [ "$(bytes "$tag_size")" -gt 0 ]; then
  tagged=$dir/tag-output-$tag_size-${hosts}x${gpus}-${channels}ch-$version.log
  if [ ! -s "$tagged" ]; then
    echo "bench: generating $tag_size behind mpirun --tag-output"
    python3 bench/gen_biglog.py $job --launcher openmpi4-tag --size "$(bytes "$tag_size")" -o "$tagged"
  fi
  echo
  echo "bench: 2. $(stat -L -c %s "$tagged") bytes behind mpirun --tag-output ([1,rank]<stdout>:)"
  run_case "tag-output" "'$tagged'"
fi

if [ "$(bytes "$rank_files_size")" -gt 0 ]; then
  ranks_dir=$dir/per-rank-$rank_files_size-${channels}ch-$version
  # .complete: a run cut short leaves no half-written set to be timed.
  if [ ! -e "$ranks_dir/.complete" ]; then
    echo "bench: generating 1024 per-rank files, $rank_files_size in all"
    rm -rf "$ranks_dir"
    python3 bench/gen_biglog.py --hosts 128 --gpus-per-host 8 --channels "$channels" --version "$version" \
      --socket-pair 3,4 --shm-host 7 --size "$(bytes "$rank_files_size")" --per-rank "$ranks_dir"
    touch "$ranks_dir/.complete"
  fi
  echo
  echo "bench: 3. 1024 per-rank files, $(cat "$ranks_dir"/*.log | wc -c) bytes"
  run_case "per-rank" "'$ranks_dir'/*.log"
fi

echo
small=testdata/logs/2.28.3/plugin-init-fails-then-ib.log
echo "bench: 4. start-up: $(stat -L -c %s "$small") bytes ($small), median of 100 runs each, in turn"
startup=$(python3 - "$bin" "$small" <<'PY'
import subprocess, sys, time
bin, log = sys.argv[1], sys.argv[2]
# In turn, as measure_together does: a slow spell slows all four alike.
commands = [[bin, "check", "--color", "never", log], [bin, "--version"], ["grep", "-c", "via NET/Socket", log], ["true"]]
times = [[] for _ in commands]
for _ in range(100):
    for cmd, runs in zip(commands, times):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        runs.append(time.perf_counter() - t)
print(" ".join(f"{sorted(runs)[len(runs) // 2] * 1000:.1f}" for runs in times))
PY
)
set -- $startup
echo "  check $1 ms (target <= 5), --version $2 ms, grep -c $3 ms, true $4 ms (the cost of starting any process here)"
summary="$summary; start-up $1 ms (grep $3 ms)"

echo
echo "summary: check / grep -c${summary}; peak RSS $((worst_rss / 1024)) MB (target <= 64), faults $worst_faults (target <= 20000)"

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
