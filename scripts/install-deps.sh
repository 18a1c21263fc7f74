#!/usr/bin/env bash
# Installs what amp-mlir needs on Debian 12 (as root), and nothing that is
# already there: LLVM/MLIR 22, clang-22, CMake/Ninja, zlib, GoogleTest,
# Debian's Fashion-MNIST IDX files, gnuplot (scripts/plot-runs.sh) and
# clang-format-22 (scripts/check-format.sh), LLVM 22's OpenMP runtime (the
# CPU step's threads, amp-lower-to-llvm threads=), Google Benchmark and
# OpenBLAS (benchmarks/), clang's sanitizer and libFuzzer runtimes
# (scripts/sanitize.sh), lld and the zstd headers (the static-LLVM bundle of
# scripts/gpu-bundle.sh), Open MPI (data-parallel training, mpirun -np N
# amp-run: docs/distributed.md) and Debian's PyTorch (the gradient oracle of
# unittests/TrainStep and the CPU step's peer in benchmarks/cpu-step).
# --bench (scripts/bench.sh) is accepted for compatibility and adds nothing.
set -euo pipefail

packages=(
  cmake ninja-build clang-22 llvm-22-dev llvm-22-tools libmlir-22-dev
  mlir-22-tools zlib1g-dev libgtest-dev python3 dataset-fashion-mnist
  gnuplot-nox clang-format-22 git libomp-22-dev libbenchmark-dev
  libopenblas-dev libclang-rt-22-dev lld libzstd-dev openmpi-bin libopenmpi-dev
  python3-torch
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
