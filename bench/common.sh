# Shared by the benchmarks (sourced): settings and measure().
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

[ -x "$bin" ] || { echo "bench: no binary at $bin (build first: meson setup build --buildtype=release && ninja -C build)"; exit 1; }
mkdir -p "$dir"
# GNU time's figures, to the microsecond (bench/measure.c).
measure_bin=$dir/measure
if [ ! -x "$measure_bin" ] || [ bench/measure.c -nt "$measure_bin" ]; then
  cc -O2 -o "$measure_bin" bench/measure.c || { echo "bench: cannot build bench/measure.c (a C compiler is needed)"; exit 1; }
fi

# measure_together NAME1 COMMAND1 NAME2 COMMAND2 ...: the commands run in
# turn, $repeat rounds, so that a machine that slows down for a while (a busy
# neighbour, its host reclaiming memory or page cache) slows them all alike;
# each command's fastest run counts. Prints a line for each; sets, for the
# K-th command, secs_K (wall), cpu_K (user + system) and faults_K (minor page
# faults) of its fastest run, rss_K (KB, the most of any run) and leaves its
# last output in $dir/out-K.txt. A run that read its input from disk (not
# all of it was in the page cache) says so on its line.
measure_together() {
  count=0
  while [ $# -ge 2 ]; do
    count=$((count + 1))
    eval "name_$count=\$1; cmd_$count=\$2; secs_$count=; cpu_$count=0; rss_$count=0; faults_$count=0; io_$count=0"
    shift 2
  done
  round=0
  while [ $round -lt "$repeat" ]; do
    k=1
    while [ $k -le $count ]; do
      eval "cmd=\$cmd_$k; best=\$secs_$k; most=\$rss_$k"
      "$measure_bin" "$dir/out-$k.txt" "$dir/err.txt" sh -c "$cmd" >"$dir/time.txt" ||
        { echo "bench: no timing for: $cmd"; tail -5 "$dir/err.txt"; exit 1; }
      set -- $(cat "$dir/time.txt")
      if [ -z "$best" ] || awk "BEGIN { exit !($1 < $best) }"; then
        eval "secs_$k=$1; cpu_$k=$(awk "BEGIN { print $2 + $3 }"); faults_$k=$5; io_$k=$6"
      fi
      [ "$4" -gt "$most" ] && eval "rss_$k=$4"
      k=$((k + 1))
    done
    round=$((round + 1))
  done
  k=1
  while [ $k -le $count ]; do
    eval "name=\$name_$k; secs=\$secs_$k; cpu=\$cpu_$k; rss=\$rss_$k; faults=\$faults_$k; io=\$io_$k"
    note=""
    [ "$io" -gt 0 ] && note="  (read $((io / 2)) KB from disk)"
    printf '  %-40s wall %6.3f s  CPU %6.3f s  RSS %7.1f MB  faults %8d%s\n' "$name" "$secs" "$cpu" \
      "$(awk "BEGIN { print $rss / 1024 }")" "$faults" "$note"
    k=$((k + 1))
  done
}

# measure NAME COMMAND: measure_together with one command; sets $secs, $cpu,
# $faults and $rss, and leaves its output in $dir/out.txt.
measure() {
  measure_together "$1" "$2"
  cp "$dir/out-1.txt" "$dir/out.txt"
}
ratio() { awk "BEGIN { printf \"%.2f\", $1 / ($2 > 0 ? $2 : 0.001) }"; }
under() { awk "BEGIN { exit !($1 < $2) }"; }
