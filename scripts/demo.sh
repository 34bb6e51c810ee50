#!/bin/sh
# Quick start 1: install, build, and check a bundled two-node log that fell
# back to TCP sockets.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -d build ] || meson setup build --buildtype=release >/dev/null
meson compile -C build >/dev/null
set +e
./build/src/nccl-doctor check testdata/logs/2.18.3/two-node-socket.log
status=$?
set -e
echo "(nccl-doctor exit status $status: 1 means errors were found, as this sample intends)"
[ "$status" -eq 1 ]
