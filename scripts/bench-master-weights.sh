#!/usr/bin/env bash
# The bf16-parameter comparison of docs/master-weights.md: the Fashion-MNIST
# MLP (examples/fashion-mnist/gen_mlp.py) or the CNN of examples/pytorch
# (built by amp-build-train-step, optimizer momentum) at a small learning
# rate, trained
# with bf16 autocast and each parameter storage (--master-weights=f32, bf16,
# bf16-kahan, bf16-stochastic), several seeds, with --update-stats. Prints
# amp-run's table per storage (mean test accuracy over the seeds and its
# spread) and the update-statistics summary lines; CSVs go to OUTDIR.
# Not a CI test (minutes on a few cores).
#
# usage: scripts/bench-master-weights.sh [OUTDIR]
#   MODEL (mlp or cnn; default mlp), LR (default 0.002), EPOCHS (1), SEEDS
#   (3), MODES ("f32 bf16 bf16-kahan bf16-stochastic"), PRECISION (bf16:
#   autocast precision of the run), AMP_BUILD_DIR (build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
out="${1:-$build/master-weights}"
lr="${LR:-0.002}" epochs="${EPOCHS:-1}" seeds="${SEEDS:-3}"
modes="${MODES:-f32 bf16 bf16-kahan bf16-stochastic}"
precision="${PRECISION:-bf16}"
model="${MODEL:-mlp}"
mkdir -p "$out"
step="$out/$model-lr$lr.mlir"
case "$model" in
  mlp) python3 "$root/examples/fashion-mnist/gen_mlp.py" --batch=128 --lr="$lr" -o "$step" ;;
  cnn) "$build/bin/amp-opt" "$root/examples/pytorch/cnn.mlir" \
         --amp-build-train-step="loss=softmax-cross-entropy optimizer=momentum lr=$lr" -o "$step" ;;
  *) echo "bench-master-weights.sh: MODEL must be mlp or cnn, got '$model'" >&2; exit 2 ;;
esac
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "# model=$model lr=$lr epochs=$epochs seeds=$seeds run=$precision"
for mode in $modes; do
  echo "## master-weights=$mode"
  "$build/bin/amp-run" "$step" --run="$precision" --master-weights="$mode" \
    --rounding-seed=1 --epochs="$epochs" --seeds="$seeds" --update-stats \
    --csv="$out/$model-$mode" 2>&1 | grep -v '^$' || exit 1
done
