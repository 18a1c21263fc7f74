#!/usr/bin/env bash
# README command 1, the main job: install what is missing, build, then train
# the Fashion-MNIST MLP (examples/fashion-mnist/mlp.mlir) four ways, each
# with three seeds, and print one table of means: fp32, f16 + dynamic loss
# scaling, f16 without loss scaling, bf16 without loss scaling. Extra
# arguments go to amp-run (e.g. --epochs=3, --seeds=5).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
log="$build/demo.log"
"$build/bin/amp-run" "$root/examples/fashion-mnist/mlp.mlir" \
  --run=f32,f16+dynamic,f16,bf16 --epochs=5 --seeds=3 --csv="$build/demo" \
  "$@" | tee "$log"

# The goals of the main job, on the means over the seeds: fp32 >= 0.85 test
# accuracy; f16 + dynamic loss scaling not worse than fp32 by more than 0.5
# percentage points (better is fine, and said). The spread (sample standard
# deviation over the seeds) says how much of a difference is noise.
awk '
  # Rows: name, train loss, test acc, [acc sd,] loss scale, skipped, steps,
  # ms/step; "f16 + dynamic" spans three fields.
  /^run / { sd = ($0 ~ / acc sd /) }
  $1 == "f32" && NF >= 7 { f32 = $3; f32sd = sd ? $4 : "" }
  $1 == "f16" && $2 == "+" && $3 == "dynamic" { f16 = $5; f16sd = sd ? $6 : "" }
  END {
    if (f32 == "" || f16 == "") { print "demo: table not found"; exit 1 }
    gap = (f16 - f32) * 100
    spread = (f32sd != "" ? sprintf(" (sd over seeds: fp32 %.2f, f16 + dynamic %.2f points)", f32sd * 100, f16sd * 100) : "")
    printf "\nfp32 test accuracy %.4f (goal >= 0.85): %s\n", f32, (f32 >= 0.85 ? "met" : "MISSED")
    if (gap >= 0)
      printf "f16 + dynamic loss scaling vs fp32: %.2f points better%s (goal: not worse by more than 0.5): met\n", gap, spread
    else
      printf "f16 + dynamic loss scaling vs fp32: %.2f points worse%s (goal: not worse by more than 0.5): %s\n", -gap, spread, (-gap <= 0.5 ? "met" : "MISSED")
  }' "$log"
