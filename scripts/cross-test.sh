#!/bin/sh
# Builds nccl-doctor for aarch64 (Grace, Graviton) on an x86-64 Debian 12
# machine and runs its tests there under qemu-user: the NEON code of the
# byte scans, and everything else compiled for that architecture. Not part of
# CI (the arm64 toolchain and qemu are a few hundred MB to install); run it
# after changing parsers/simd.h, byte_marks.cpp or fast_shapes.cpp.
#   sh scripts/cross-test.sh            # the parser and chunked-reader tests
#   sh scripts/cross-test.sh --all      # every test (about 20 minutes)
# As root it installs the packages and registers qemu for aarch64 programs
# (binfmt_misc, which the golden scripts need to start the binary); otherwise
# it says what is missing and exits 77.
set -eu
cd "$(dirname "$0")/.."
dir=${ND_CROSS_DIR:-build-aarch64}
packages="g++-aarch64-linux-gnu qemu-user-static libre2-dev:arm64 libboost-graph-dev:arm64
  libibverbs-dev:arm64 libfmt-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 liblzma-dev:arm64"
missing=$(dpkg-query -W -f='${Package}:${Architecture} ${Status}\n' $packages 2>/dev/null |
  awk '$4 != "installed"' | wc -l)
known=$(dpkg-query -W -f='${Package}\n' $packages 2>/dev/null | wc -l)
if [ "$missing" -ne 0 ] || [ "$known" -ne "$(echo $packages | wc -w)" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "cross-test: skipped: as root, run: dpkg --add-architecture arm64 && apt-get update &&" \
      "apt-get install --no-install-recommends" $packages
    exit 77
  fi
  export DEBIAN_FRONTEND=noninteractive
  dpkg --add-architecture arm64
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi

binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e $binfmt/qemu-aarch64 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "cross-test: skipped: aarch64 programs do not start here (no binfmt_misc entry;" \
      "as root: update-binfmts --enable qemu-aarch64)"
    exit 77
  fi
  [ -e $binfmt/register ] || mount binfmt_misc -t binfmt_misc $binfmt
  # The ELF header of an aarch64 executable; F: qemu opened now, so that it
  # also starts inside other mount namespaces.
  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
  mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
  printf '%s' ":qemu-aarch64:M::$magic:$mask:/usr/bin/qemu-aarch64-static:F" >$binfmt/register
fi

if [ ! -d "$dir" ]; then
  meson setup "$dir" --cross-file scripts/cross/aarch64-linux-gnu.ini --buildtype=debugoptimized \
    -Dcpp_args=-g1 >/dev/null
fi
if [ "${1:-}" = --all ]; then
  meson compile -C "$dir" -j "${ND_JOBS:-2}" >/dev/null
  # Emulation runs code ten to thirty times slower.
  meson test -C "$dir" --num-processes "${ND_JOBS:-2}" --timeout-multiplier 10 --print-errorlogs
else
  tests="parsers_test parsers_test_portable parsers_test_scalar
    line_feeder_test line_feeder_test_portable line_feeder_test_scalar"
  ninja -C "$dir" -j "${ND_JOBS:-2}" parsers_test line_feeder_test >/dev/null
  meson test -C "$dir" --no-rebuild --timeout-multiplier 10 --print-errorlogs $tests
fi
