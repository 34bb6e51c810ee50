#!/bin/sh
# Builds nccl-doctor for aarch64 (Grace, Graviton) on an x86-64 Debian 12
# machine and runs its tests there under qemu-user: the NEON code of the
# byte scans, and everything else compiled for that architecture. Not part of
# CI (the arm64 toolchain and qemu are a few hundred MB to install); run it
# after changing parsers/simd.h, byte_marks.cpp or fast_shapes.cpp.
#   sh scripts/cross-test.sh            # the parser and chunked-reader tests
#   sh scripts/cross-test.sh --all      # every test (about 20 minutes)
# ND_CROSS_DIR names the build folder (build-aarch64), ND_CROSS_BUILDTYPE its
# type when it is set up (debugoptimized; release adds the static runtime
# and code placement). As root it installs the packages and, for --all,
# registers qemu for aarch64 programs (binfmt_misc: the golden scripts start
# the binary themselves); where it cannot, it says why and exits 77.
set -eu
cd "$(dirname "$0")/.."
skip() {
  echo "cross-test: skipped: $*"
  exit 77
}
case $(uname -m) in
  aarch64 | arm64) skip "this machine is aarch64: build and test natively (sh scripts/test.sh)" ;;
esac
dir=${ND_CROSS_DIR:-build-aarch64}
packages="g++-aarch64-linux-gnu qemu-user-static libre2-dev:arm64 libboost-graph-dev:arm64
  libibverbs-dev:arm64 libfmt-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 liblzma-dev:arm64"
missing=
for p in $packages; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || skip "as root, run: dpkg --add-architecture arm64 && apt-get update &&" \
    "apt-get install --no-install-recommends$missing"
  export DEBIAN_FRONTEND=noninteractive
  { dpkg --add-architecture arm64 && apt-get update -qq &&
    apt-get install -y -qq --no-install-recommends $missing >/dev/null; } || skip "could not install$missing"
fi

all=false
[ "${1:-}" = --all ] && all=true
binfmt=/proc/sys/fs/binfmt_misc
if $all && [ ! -e $binfmt/qemu-aarch64 ]; then
  [ "$(id -u)" = 0 ] || skip "aarch64 programs do not start here (no binfmt_misc entry;" \
    "as root: update-binfmts --enable qemu-aarch64)"
  # The ELF header of an aarch64 executable; F: qemu opened now, so that it
  # also starts inside other mount namespaces.
  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
  mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
  { { [ -e $binfmt/register ] || mount binfmt_misc -t binfmt_misc $binfmt; } &&
    printf '%s' ":qemu-aarch64:M::$magic:$mask:/usr/bin/qemu-aarch64-static:F" >$binfmt/register; } ||
    skip "could not register qemu for aarch64 programs (binfmt_misc)"
fi

if [ ! -d "$dir" ]; then
  meson setup "$dir" --cross-file scripts/cross/aarch64-linux-gnu.ini \
    --buildtype="${ND_CROSS_BUILDTYPE:-debugoptimized}" -Dcpp_args=-g1 >/dev/null
fi
if $all; then
  meson compile -C "$dir" -j "${ND_JOBS:-2}" >/dev/null
  # Emulation runs code ten to thirty times slower.
  meson test -C "$dir" --num-processes "${ND_JOBS:-2}" --timeout-multiplier 10 --print-errorlogs
else
  tests="parsers_test parsers_test_portable parsers_test_scalar
    line_feeder_test line_feeder_test_portable line_feeder_test_scalar"
  ninja -C "$dir" -j "${ND_JOBS:-2}" parsers_test line_feeder_test >/dev/null
  meson test -C "$dir" --no-rebuild --timeout-multiplier 10 --print-errorlogs $tests
fi
