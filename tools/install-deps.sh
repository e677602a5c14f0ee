#!/usr/bin/env bash
# Installs every Debian 12 package pimdse builds, tests and post-processes with.
# Idempotent: does nothing when all are present. Run as root (or through sudo).
# usage: tools/install-deps.sh [--check]   (--check: list what is missing, exit 1 if anything)
set -euo pipefail
check_only=0
[[ ${1:-} == --check ]] && check_only=1

packages=(
  build-essential cmake pkg-config git clang-format
  libopenmpi-dev openmpi-bin
  libboost-mpi-dev libboost-serialization-dev
  libhdf5-openmpi-dev hdf5-tools
  libeigen3-dev libxgboost-dev
  coinor-libcbc-dev
  libyaml-cpp-dev
  libcli11-dev
  libonnx-dev libprotobuf-dev python3-onnx
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-h5py python3-numpy python3-matplotlib python3-pandas python3-yaml
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((check_only)); then
  if ((${#missing[@]})); then
    echo "install-deps: missing ${missing[*]}"
    exit 1
  fi
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#packages[@]} packages present"
fi
