# Shared by the benchmarks (sourced): settings, GNU time, and measure().
#
# Environment: ND_BENCH_DIR (default /tmp/nd-bench), ND_BENCH_BIN (default
# build/src/nccl-doctor), ND_BENCH_REPEAT (runs per timing, the fastest
# counts; default 3), ND_BENCH_HOSTS/GPUS/CHANNELS/VERSION.
dir=${ND_BENCH_DIR:-/tmp/nd-bench}
bin=$(realpath "${ND_BENCH_BIN:-build/src/nccl-doctor}")
repeat=${ND_BENCH_REPEAT:-3}
hosts=${ND_BENCH_HOSTS:-1024}
gpus=${ND_BENCH_GPUS:-8}
channels=${ND_BENCH_CHANNELS:-32}
version=${ND_BENCH_VERSION:-2.18}

if [ ! -x /usr/bin/time ]; then
  echo "bench: installing GNU time for CPU time, peak RSS and page faults"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
[ -x "$bin" ] || { echo "bench: no binary at $bin (build first: meson setup build --buildtype=release && ninja -C build)"; exit 1; }
mkdir -p "$dir"

# measure NAME COMMAND...: the fastest of $repeat runs. Sets $secs (wall),
# $cpu (user + system) and $faults (minor page faults) of that run, and $rss
# (KB, the most of any run); prints them on one line.
measure() {
  name=$1
  shift
  cmd=$*
  best=""
  cpu=0
  rss=0
  faults=0
  i=0
  while [ $i -lt "$repeat" ]; do
    /usr/bin/time -f '%e %U %S %M %R' -o "$dir/time.txt" sh -c "$cmd" >"$dir/out.txt" 2>"$dir/err.txt" || true
    # The last line: time puts "Command exited with non-zero status" first.
    set -- $(tail -1 "$dir/time.txt")
    wall=$1
    if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then
      best=$wall
      cpu=$(awk "BEGIN { print $2 + $3 }")
      faults=$5
    fi
    [ "$4" -gt "$rss" ] && rss=$4
    i=$((i + 1))
  done
  secs=$best
  printf '  %-40s wall %6.2f s  CPU %6.2f s  RSS %7.1f MB  faults %8d\n' "$name" "$secs" "$cpu" \
    "$(awk "BEGIN { print $rss / 1024 }")" "$faults"
}
ratio() { awk "BEGIN { printf \"%.2f\", $1 / ($2 > 0 ? $2 : 0.001) }"; }
under() { awk "BEGIN { exit !($1 < $2) }"; }
