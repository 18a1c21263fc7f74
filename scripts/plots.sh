#!/usr/bin/env bash
# README command: draws the plots in docs/images/ from fresh training runs.
# Builds nothing; needs build/bin/amp-run (./scripts/demo.sh or
# ./scripts/build.sh) and gnuplot (./scripts/install-deps.sh). Runs
#   1. the four-way comparison f32, f16 + dynamic, f16, bf16 for 1 epoch;
#   2. f16 + dynamic loss scaling with --growth-interval=20, so that the
#      scale visibly grows, overflows and skips steps within the epoch;
# then scripts/plot-runs.sh writes docs/images/loss.png, loss-scale.png and
# step-time.png. The CSVs stay in build/plots/. Extra arguments go to both
# amp-run calls (e.g. --data-dir=DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
amp="$build/bin/amp-run"
die() { echo "plots.sh: error: $*" >&2; exit 1; }

[ -x "$amp" ] || die "$amp not found; run ./scripts/demo.sh or ./scripts/build.sh first"
command -v gnuplot >/dev/null 2>&1 ||
  die "gnuplot not found; run ./scripts/install-deps.sh (or: sudo apt-get install gnuplot-nox)"

csv="$build/plots"
mkdir -p "$csv"
rm -f "$csv"/compare.*.csv "$csv"/dynamic-gi20 "$csv"/dynamic-gi20.*.csv "$csv"/growth-interval-20.csv
model="$root/examples/fashion-mnist/mlp.mlir"

# Runs are named after their growth interval in the plots: the comparison's
# f16 + dynamic run (interval 2000, amp-run's default, so its scale stays at
# 2^15 for this one epoch) and the demonstration run (interval 20).
relabel() {  # $1: CSV file, $2: new run name
  awk -v name="$2" 'NR == 1 { print; next } { sub(/^[^,]*/, name); print }' "$1" > "$1.tmp"
  touch -r "$1" "$1.tmp"   # plot-runs.sh orders a prefix's files by time
  mv -f "$1.tmp" "$1"
}

echo "plots.sh: four-way comparison, 1 epoch"
"$amp" "$model" --run=f32,f16+dynamic,f16,bf16 --epochs=1 --growth-interval=2000 \
  --csv="$csv/compare" "$@"
[ -f "$csv/compare.f16+dynamic.csv" ] || die "amp-run wrote no $csv/compare.f16+dynamic.csv"
relabel "$csv/compare.f16+dynamic.csv" "f16 + dynamic (growth interval 2000)"

echo
echo "plots.sh: f16 + dynamic loss scaling, growth interval 20, 1 epoch"
"$amp" "$model" --run=f16+dynamic --epochs=1 --growth-interval=20 --csv="$csv/dynamic-gi20" "$@"
# One run writes its CSV to the --csv path itself.
src="$csv/dynamic-gi20"
[ -f "$src" ] || src="$(ls "$csv"/dynamic-gi20.*.csv 2>/dev/null | head -n 1 || true)"
if [ -z "$src" ] || [ ! -f "$src" ]; then
  die "amp-run wrote no CSV for the growth-interval-20 run"
fi
cp "$src" "$csv/growth-interval-20.csv"
relabel "$csv/growth-interval-20.csv" "f16 + dynamic (growth interval 20)"

echo
"$root/scripts/plot-runs.sh" --png-only "$csv/compare" "$csv/growth-interval-20.csv" "$root/docs/images"
