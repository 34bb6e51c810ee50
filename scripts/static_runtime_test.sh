#!/bin/sh
# A user's build (-Dstatic_runtime, on by default in release builds) needs no
# shared library at run time beyond glibc's own, so that it runs on a cluster
# without RE2, fmt, a new enough libstdc++ or the decompressors installed.
#   sh scripts/static_runtime_test.sh BINARY static|shared
set -u
bin=$1
mode=$2
if [ "$mode" != static ]; then
  echo "skip: this build links its libraries shared (static_runtime is off in debug, sanitizer and fuzz builds)"
  exit 77
fi
command -v readelf >/dev/null || { echo "skip: no readelf to list the binary's shared libraries"; exit 77; }
needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\].*/\1/p')
echo "$bin needs: $(echo $needed)"
status=0
for lib in $needed; do
  case $lib in
    libc.so.* | libm.so.* | ld-linux*.so.* | libdl.so.* | libpthread.so.* | librt.so.*) ;;
    *) echo "FAIL: $lib is loaded at run time"; status=1 ;;
  esac
done
[ -n "$needed" ] || { echo "FAIL: readelf listed no shared library at all"; status=1; }
exit $status
