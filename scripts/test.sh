#!/bin/sh
# Quick start 2: install, build and run every test once, in a debug build
# with AddressSanitizer and UndefinedBehaviorSanitizer (an optimised sanitizer
# build takes twice as long to compile; the optimised plain build is the one
# demo.sh and developers use), then a short libFuzzer run. Ends with
# "N passed, N failed" counted from meson's own test logs.
# These builds carry line tables only (-g1): a sanitizer report still names
# file and line, and compiling takes a quarter less time than with full -g.
#   ND_SKIP_SANITIZERS=1  a plain build instead (build-plain)
#   ND_FUZZ=0             no fuzz run
#   ND_SCALAR=0           no build without vector code
set -u
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh || exit 1
jobs=${ND_JOBS:-2}

run_suite() {  # build dir, meson setup options...
  dir=$1
  rm -f "$dir/meson-logs/testlog.json"
  shift
  if [ ! -d "$dir" ]; then
    meson setup "$dir" "$@" >/dev/null || return 1
  fi
  meson compile -C "$dir" -j "$jobs" >/dev/null || { meson compile -C "$dir" -j 1; build_failed "$dir"; return 1; }
  meson test -C "$dir" --num-processes "$jobs" --print-errorlogs
}

status=0
# A build that fails runs no tests; each one counts as a failure in the tally,
# so "N passed, 0 failed" never hides a target that did not compile.
broken=$(mktemp)
trap 'rm -f "$broken"' EXIT
build_failed() { echo "$1" >>"$broken"; status=1; }
build_quietly() {  # build dir, targets...: on failure the errors show, once
  dir=$1
  shift
  ninja -C "$dir" -j "$jobs" "$@" >/dev/null || { ninja -C "$dir" -j 1 "$@" | tail -40; build_failed "$dir"; return 1; }
}

if [ "${ND_SKIP_SANITIZERS:-0}" = 1 ]; then
  suite_dir=build-plain
  run_suite build-plain || status=1
else
  suite_dir=build-test
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite build-test -Db_sanitize=address,undefined -Db_lundef=false --buildtype=debug -Dcpp_args=-g1 || status=1
fi

# The parser and chunked-reader tests again in a build with no vector code at
# all (-Dsimd=scalar), as a CPU without AVX2, SSE2 or NEON runs them;
# unoptimised, as the point is which code is compiled, and that compiles in
# half the time.
if [ "${ND_SCALAR:-1}" = 1 ]; then
  rm -f build-scalar/meson-logs/testlog.json
  if [ ! -d build-scalar ]; then
    meson setup build-scalar -Dsimd=scalar --buildtype=debug -Dcpp_args=-g1 >/dev/null || status=1
  fi
  build_quietly build-scalar parsers_test line_feeder_test &&
    meson test -C build-scalar --no-rebuild --print-errorlogs parsers_test line_feeder_test || status=1
fi

# libFuzzer (clang) over the line parsers, the chunked reader and the
# --aggregate record reader; only the fuzz suite, so the unit tests run once.
if [ "${ND_FUZZ:-1}" = 1 ]; then
  rm -f build-fuzz/meson-logs/testlog.json
  if [ ! -d build-fuzz ]; then
    CXX=clang++ meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
      --buildtype=debugoptimized -Dcpp_args='-O1 -gline-tables-only' >/dev/null || status=1
  fi
  build_quietly build-fuzz fuzz/line_fuzzer fuzz/aggregate_fuzzer &&
    meson test -C build-fuzz --suite fuzz --no-rebuild --print-errorlogs || status=1
fi

python3 - "$broken" "$suite_dir" build-scalar build-fuzz <<'PY' || status=1
import json, os, sys
passed = failed = skipped = 0
for build in open(sys.argv[1]).read().split():
    print(f"{build}: the build failed, its tests did not run")
    failed += 1
for d in sys.argv[2:]:
    path = os.path.join(d, "meson-logs", "testlog.json")
    if not os.path.exists(path):
        continue
    for line in open(path):
        result = json.loads(line)["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
if passed + failed == 0:
    print("no test ran")
    sys.exit(1)
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
PY
exit $status
