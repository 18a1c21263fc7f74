#!/usr/bin/env bash
# Configures and builds amp-mlir into ./build (or $AMP_BUILD_DIR) with
# Debian's LLVM/MLIR 22 and clang-22.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
# ccache, where installed, makes rebuilds of other checkouts cheap.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -G Ninja -S "$root" -B "$build" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
cmake --build "$build"
