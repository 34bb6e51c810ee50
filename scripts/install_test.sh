#!/bin/sh
# `meson install` as a user would, into a scratch tree (DESTDIR: no root
# needed, nothing outside it written), then the installed tool alone: finds
# its verbs backend relative to itself, judges a bundled capture, has its man
# pages and shell completions.
#   install_test.sh BUILD_DIR SOURCE_ROOT
set -u
build=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/stage" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }
bin=$(find "$tmp/stage" -path '*/bin/nccl-doctor' | head -1)
[ -x "$bin" ] || { echo "FAIL: no bin/nccl-doctor installed"; exit 1; }
prefix=$(dirname "$(dirname "$bin")")
# Moved after install: nothing may depend on the configured prefix.
mv "$prefix" "$tmp/moved"
bin=$tmp/moved/bin/nccl-doctor

"$bin" --version | grep -q '^nccl-doctor ' || fail "--version"
out=$("$bin" preflight --sysfs-root "$root/testdata/sysfs/dgx-h100-ib")
[ $? -eq 0 ] && [ "${out%%
*}" = "NCCL-DOCTOR OK - nccl-doctor: fabric OK" ] || fail "preflight of the bundled healthy capture: $out"
"$bin" probe --sysfs-root "$root/testdata/sysfs/broken" | grep -q '^host gpu-17$' || fail "probe --sysfs-root"
# Only a live probe loads the backend; with rdma-core here, the one next to
# the moved binary must load (an installed copy elsewhere is pointed away).
if [ -n "$(find "$tmp/moved" -name nd-verbs-ibverbs.so)" ]; then
  if ldconfig -p 2>/dev/null | grep -q libibverbs.so.1; then
    verbs=$("$bin" probe | sed -n 's/^libibverbs: //p')
    case $verbs in
      ok*|no-devices*) ;;
      *) fail "the installed tool does not load its verbs backend: $verbs" ;;
    esac
  else
    echo "note: no libibverbs.so.1 here; the backend's loading is not checked"
  fi
elif grep -Eq "verbs backend *: *(YES|True)" "$build/meson-logs/meson-log.txt" 2>/dev/null; then
  fail "the verbs backend was built but not installed"
fi

page=$(find "$tmp/moved" -name nccl-doctor.1 | head -1)
rules_page=$(find "$tmp/moved" -name nccl-doctor-rules.7 | head -1)
[ -n "$page" ] && [ -n "$rules_page" ] || fail "man pages not installed"
if command -v man >/dev/null 2>&1 && MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME'; then
  MANWIDTH=80 man -l "$page" | grep -q 'nccl-doctor - diagnose' || fail "man -l $page"
elif command -v mandoc >/dev/null 2>&1; then
  echo "note: no working man(1) here; the page is read with mandoc instead"
  mandoc -Tutf8 "$page" | grep -q 'nccl-doctor - diagnose' || fail "mandoc $page"
else
  echo "note: neither man(1) nor mandoc here; the installed page is not rendered"
fi
[ -f "$tmp/moved/share/bash-completion/completions/nccl-doctor" ] || fail "bash completion not installed"
[ -f "$tmp/moved/share/zsh/site-functions/_nccl-doctor" ] || fail "zsh completion not installed"
[ $status -eq 0 ] && echo "installed, moved and run: OK"
exit $status
