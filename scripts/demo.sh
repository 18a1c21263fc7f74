#!/usr/bin/env bash
# README command 1, the main job: install what is missing, build, then train
# the Fashion-MNIST MLP (examples/fashion-mnist/mlp.mlir) four ways and print
# one table: fp32, f16 + dynamic loss scaling, f16 without loss scaling,
# bf16 without loss scaling. Extra arguments go to amp-run (e.g. --epochs=3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
log="$build/demo.log"
"$build/bin/amp-run" "$root/examples/fashion-mnist/mlp.mlir" \
  --run=f32,f16+dynamic,f16,bf16 --epochs=5 --csv="$build/demo" "$@" | tee "$log"

# The goals of the main job: fp32 >= 0.85 test accuracy, f16 + dynamic loss
# scaling within 0.5 percentage points of fp32.
awk '
  $1 == "f32" && NF >= 7 { f32 = $3 }
  $1 == "f16" && $2 == "+" && $3 == "dynamic" { f16 = $5 }
  END {
    if (f32 == "" || f16 == "") { print "demo: table not found"; exit 1 }
    gap = (f16 - f32) * 100; if (gap < 0) gap = -gap
    printf "\nfp32 test accuracy %.4f (goal >= 0.85): %s\n", f32, (f32 >= 0.85 ? "met" : "MISSED")
    printf "f16 + dynamic loss scaling vs fp32: %.2f points (goal <= 0.5): %s\n", gap, (gap <= 0.5 ? "met" : "MISSED")
  }' "$log"
