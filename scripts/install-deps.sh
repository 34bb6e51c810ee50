#!/bin/sh
# Installs the Debian 12 packages that build and test nccl-doctor. Run as root.
set -eu
packages="meson ninja-build pkg-config g++ python3
  libre2-dev libboost-graph-dev libcli11-dev libibverbs-dev doctest-dev
  nlohmann-json3-dev libfmt-dev zlib1g-dev libzstd-dev liblzma-dev mandoc graphviz
  openmpi-bin clang libclang-rt-14-dev"
missing=$(dpkg-query -W -f='${Package} ${Status}\n' $packages 2>/dev/null | awk '$4 != "installed" {print $1}')
# dpkg-query omits packages it has never heard of; compare counts too.
known=$(dpkg-query -W -f='${Package}\n' $packages 2>/dev/null | wc -l)
if [ -n "$missing" ] || [ "$known" -ne "$(echo $packages | wc -w)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi
