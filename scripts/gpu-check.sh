#!/usr/bin/env bash
# GPU check (docs/gpu.md): builds amp-mlir from this source tree, runs the GPU
# lit tests (compile tests and, with a device, the execution tests), the GPU
# benchmarks and PyTorch's eager reference, and prints one short table:
#   - ms per training step, fp32 vs f16 + dynamic loss scaling vs bf16, on the
#     Fashion-MNIST MLP (amp-run --device=cuda) and PyTorch eager with
#     torch.autocast + GradScaler on the same step (benchmarks/gpu/torch_mlp.py),
#     with our ratio to it;
#   - the fused unscale+check's bandwidth against a device-to-device copy of
#     the same bytes (amp-bench-gpu-fused-check);
#   - test accuracy after the demo epochs;
#   - the f16 step once more without Tensor Cores (--tensor-cores=false,
#     row f16+dynamic/simt): what mma.sync buys.
#   - the same for the transformer-block step (examples/fashion-mnist/
#     transformer.mlir, TF_STEPS steps of one epoch) against the same block
#     in PyTorch eager (torch_mlp.py, the model of
#     benchmarks/cpu-step/torch_peer.py).
#
# Usage: scripts/gpu-check.sh [--dry-run] [--bundle=DIR] [--part=all|train|bench]
#   --dry-run     no GPU needed: build, run the compile-only GPU tests, compile
#                 the benchmark's fused check for sm_80 and sm_90 and print
#                 the table with the device figures marked "pending".
#   --bundle=DIR  build nothing: take the tools, lit + FileCheck and the data
#                 from DIR/payload.tar.xz, made by scripts/gpu-bundle.sh on a
#                 machine with LLVM 22 (for GPU machines without it).
#   --part=P      train: lit execution tests, the MLP runs and PyTorch's
#                 reference; bench: the fused check; all (default): both.
#                 A bundle holds one part (each fits one transfer); with
#                 --bundle the default is the part the bundle holds.
# Environment: AMP_GPU_BUILD_DIR (default ./build-gpu; --dry-run: ./build),
#   EPOCHS (default 2), MAX_STEPS (steps per epoch, default all), TF_STEPS
#   (transformer steps, default 300), DATA_DIR (default /usr/share/datasets/fashion-mnist),
#   CUDA_HOME (default /usr/local/cuda, else the ptxas on PATH), JOBS (default nproc).
# Whole run: about 1-2 min build on 16 cores (none with --bundle), then
# about 3 min of runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dry=0
bundle=""
part=all
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry=1 ;;
    --bundle=?*) bundle="${arg#--bundle=}" ;;
    --part=all|--part=train|--part=bench) part="${arg#--part=}" ;;
    *) echo "usage: $0 [--dry-run] [--bundle=DIR] [--part=all|train|bench]" >&2; exit 2 ;;
  esac
done
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
epochs="${EPOCHS:-2}"
max_steps="${MAX_STEPS:-0}"
tf_steps="${TF_STEPS:-300}"
data="${DATA_DIR:-/usr/share/datasets/fashion-mnist}"
if [ -z "${CUDA_HOME:-}" ] && [ ! -x /usr/local/cuda/bin/ptxas ] && command -v ptxas >/dev/null; then
  CUDA_HOME="$(dirname "$(dirname "$(command -v ptxas)")")"
fi
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
jobs="${JOBS:-$(nproc)}"
say() { echo "gpu-check: $*"; }
[ -x "$CUDA_HOME/bin/ptxas" ] || { say "no CUDA toolkit at $CUDA_HOME (ptxas)" >&2; exit 1; }
start=$(date +%s)

if [ -n "$bundle" ]; then
  # 1. A prebuilt bundle: unpack it (python3's tarfile: no xz tool needed).
  [ -f "$bundle/payload.tar.xz" ] || { say "no $bundle/payload.tar.xz (scripts/gpu-bundle.sh)" >&2; exit 1; }
  build="${TMPDIR:-/tmp}/amp-gpu-bundle-$part"
  rm -rf "$build"; mkdir -p "$build"
  if ! python3 - "$bundle/payload.tar.xz" "$build" <<'PY'
import sys, tarfile
try:
    with tarfile.open(sys.argv[1]) as t:
        t.extractall(sys.argv[2])
except (tarfile.TarError, EOFError, OSError) as e:
    why = " ".join(str(e).split())  # tarfile's messages span lines
    sys.exit(f"gpu-check: cannot unpack {sys.argv[1]} ({why}); rebuild it with scripts/gpu-bundle.sh")
PY
  then
    rm -rf "$build"
    exit 1
  fi
  # A bundle holds one part: take the part from it, or check --part.
  has_train=0; has_bench=0
  [ -x "$build/bin/amp-run" ] && has_train=1
  [ -x "$build/bin/amp-bench-gpu-fused-check" ] && has_bench=1
  if [ "$part" = all ]; then
    if [ $has_train = 1 ] && [ $has_bench = 0 ]; then part=train; fi
    if [ $has_bench = 1 ] && [ $has_train = 0 ]; then part=bench; fi
  fi
  if { [ "$part" != bench ] && [ $has_train = 0 ]; } ||
     { [ "$part" != train ] && [ $has_bench = 0 ]; }; then
    say "$bundle holds no $part part (train: amp-run; bench: amp-bench-gpu-fused-check)" >&2
    exit 1
  fi
  export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" # FileCheck's libz3
  if [ -d "$build/data" ]; then
    for f in "$build"/data/*-ubyte; do gzip -1 -c "$f" > "$f.gz"; rm "$f"; done
    data="$build/data"
    export AMP_DATA_DIR="$data" # for the lit execution tests (test/lit.cfg.py)
  fi
  lit=(env PYTHONPATH="$build/lit" python3 -c 'from lit.main import main; main()')
  lit_dir="$build/test/GPU/Execution"
  export AMP_SRC_ROOT="$root"
  say "unpacked $bundle in $(( $(date +%s) - start )) s"
else
  if [ $dry = 1 ]; then
    build="${AMP_GPU_BUILD_DIR:-$root/build}"
  else
    build="${AMP_GPU_BUILD_DIR:-$root/build-gpu}"
  fi
  # 0. Prerequisites: we cannot install anything on the device machine.
  for tool in cmake ninja clang++-22 /usr/lib/llvm-22/bin/lit; do
    command -v "$tool" >/dev/null || { say "missing $tool (scripts/install-deps.sh, or use --bundle)" >&2; exit 1; }
  done
  # 1. Build (benchmarks need Google Benchmark; without it only the bandwidth
  #    row is skipped).
  bench=OFF
  if compgen -G '/usr/lib/*/cmake/benchmark/benchmarkConfig.cmake' >/dev/null ||
     compgen -G '/usr/lib/cmake/benchmark/benchmarkConfig.cmake' >/dev/null; then
    bench=ON
  fi
  say "configuring $build (benchmarks: $bench)"
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAMP_BUILD_BENCHMARKS=$bench >/dev/null
  targets="amp-opt amp-run AmpMLIRPlugin amp_cuda_runtime"
  [ $bench = ON ] && targets="$targets amp-bench-gpu-fused-check"
  say "building $targets"
  cmake --build "$build" --target $targets -j "$jobs" >/dev/null
  say "built in $(( $(date +%s) - start )) s"
  lit=(/usr/lib/llvm-22/bin/lit)
  lit_dir="$build/test/GPU"
fi
log="$build/gpu-check"
mkdir -p "$log"

# 2. GPU lit tests (execution tests run only where a device is present).
status=0
: > "$log/lit.txt"
if want train; then
  say "lit $lit_dir"
  "${lit[@]}" -sv "$lit_dir" > "$log/lit.txt" 2>&1 || status=1
  grep -E 'Passed|Unsupported|Failed|FAIL:' "$log/lit.txt" || true
fi

# 3. Compile-only figures (with amp-opt, so not from a bundle): kernels of
#    the MLP step, the fused check's kernel for sm_80 and sm_90.
kernels=""
if [ -x "$build/bin/amp-opt" ]; then
  for chip in sm_80 sm_90; do
    "$build/bin/amp-opt" --amp-mixed-precision --amp-lower-to-nvvm="chip=$chip format=bin" \
      "$root/examples/fashion-mnist/mlp.mlir" -o "$log/mlp-$chip.mlir"
  done
  kernels=$(grep -c 'gpu.binary' "$log/mlp-sm_90.mlir")
  if [ -x "$build/bin/amp-bench-gpu-fused-check" ]; then
    "$build/bin/amp-bench-gpu-fused-check" --dump-mlir > "$log/fused-check.mlir"
    for chip in sm_80 sm_90; do
      "$build/bin/amp-opt" --amp-lower-to-nvvm="chip=$chip format=bin" \
        "$log/fused-check.mlir" -o "$log/fused-check-$chip.mlir"
    done
  fi
fi

pending="pending (no device)"
declare -A ms acc torch tms tacc
fused="$pending"
copy=""
if [ $dry = 0 ] && want train; then
  # 4. MLP training on the GPU: ms/step and test accuracy per precision.
  if [ -f "$data/train-images-idx3-ubyte.gz" ]; then
    say "amp-run --device=cuda, $epochs epochs per run"
    "$build/bin/amp-run" "$root/examples/fashion-mnist/mlp.mlir" --device=cuda \
      --run=f32,f16+dynamic,bf16 --epochs="$epochs" --max-steps="$max_steps" \
      --data-dir="$data" | tee "$log/amp-run.txt"
    while read -r name rest; do
      case "$name" in
        f32|bf16) set -- $rest ;;
        f16) set -- $rest; shift 2 ;; # "f16 + dynamic ..."
        *) continue ;;
      esac
      key=$name; [ "$name" = f16 ] && key=f16+dynamic
      acc[$key]=$2; ms[$key]=$6
    done < <(sed -n '/^run /,$p' "$log/amp-run.txt" | tail -n +2)
    # The same f16 run without Tensor Cores (one thread per output): what
    # mma.sync buys on this step.
    "$build/bin/amp-run" "$root/examples/fashion-mnist/mlp.mlir" --device=cuda \
      --run=f16+dynamic --tensor-cores=false --epochs="$epochs" \
      --max-steps="$max_steps" --data-dir="$data" | tee "$log/amp-run-simt.txt"
    while read -r name rest; do
      [ "$name" = f16 ] || continue
      set -- $rest; shift 2
      acc[f16+dynamic/simt]=$2; ms[f16+dynamic/simt]=$6
    done < <(sed -n '/^run /,$p' "$log/amp-run-simt.txt" | tail -n +2)
    # The transformer-block step (examples/fashion-mnist/transformer.mlir).
    "$build/bin/amp-run" "$root/examples/fashion-mnist/transformer.mlir" --device=cuda \
      --run=f32,f16+dynamic,bf16 --epochs=1 --max-steps="$tf_steps" \
      --data-dir="$data" | tee "$log/amp-run-transformer.txt"
    while read -r name rest; do
      case "$name" in
        f32|bf16) set -- $rest ;;
        f16) set -- $rest; shift 2 ;;
        *) continue ;;
      esac
      key=$name; [ "$name" = f16 ] && key=f16+dynamic
      tacc[$key]=$2; tms[$key]=$6
    done < <(sed -n '/^run /,$p' "$log/amp-run-transformer.txt" | tail -n +2)
  else
    say "no Fashion-MNIST at $data: MLP and transformer rows skipped (set DATA_DIR)"
  fi
  # 5. PyTorch eager reference.
  if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    say "PyTorch eager reference"
    python3 "$root/benchmarks/gpu/torch_mlp.py" | tee "$log/torch.txt"
    while IFS='|' read -r tag name t loss; do
      [ "$tag" = TORCH ] && torch[$name]=$t
    done < "$log/torch.txt"
  else
    say "no PyTorch with CUDA: reference rows skipped"
  fi
fi
if [ $dry = 0 ] && want bench; then
  # 6. Fused check bandwidth vs device copy.
  if [ -x "$build/bin/amp-bench-gpu-fused-check" ]; then
    "$build/bin/amp-bench-gpu-fused-check" | tee "$log/fused-check.txt"
    fused=$(grep '^ROW|GPU fused unscale+check bandwidth' "$log/fused-check.txt" | cut -d'|' -f3)
    copy=$(grep '^ROW|GPU fused unscale+check (' "$log/fused-check.txt" | cut -d'|' -f3,4)
  else
    fused="not built (no Google Benchmark)"
  fi
fi

# 7. One table.
echo
echo "amp-mlir GPU check (part: $part), $(date -u +%Y-%m-%d), $(nvidia-smi -L 2>/dev/null | head -1 || echo 'no GPU'), CUDA at $CUDA_HOME"
want train && printf '%-28s %14s %14s %12s %10s\n' "MLP step (batch 128)" "ms/step" "PyTorch ms" "ours/torch" "test acc"
want train && for run in f32 f16+dynamic f16+dynamic/simt bf16; do
  m=${ms[$run]:-$pending}; t=${torch[${run%/simt}]:--}; a=${acc[$run]:--}
  ratio=-
  if [[ $m =~ ^[0-9.]+$ && $t =~ ^[0-9.]+$ ]]; then
    ratio=$(awk -v a="$m" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')
  fi
  printf '%-28s %14s %14s %12s %10s\n' "$run" "$m" "$t" "$ratio" "$a"
done
want train && printf '%-28s %14s %14s %12s %10s\n' "transformer step (batch 64)" "ms/step" "PyTorch ms" "ours/torch" "test acc"
want train && for run in f32 f16+dynamic bf16; do
  m=${tms[$run]:-$pending}; t=${torch[transformer/$run]:--}
  ratio=-
  if [[ $m =~ ^[0-9.]+$ && $t =~ ^[0-9.]+$ ]]; then
    ratio=$(awk -v a="$m" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')
  fi
  printf '%-28s %14s %14s %12s %10s\n' "$run" "$m" "$t" "$ratio" "${tacc[$run]:--}"
done
want bench && printf '%-28s %s\n' "fused check bandwidth" "$fused${copy:+ ; vs D2D copy: ${copy/|/, }}"
[ -n "$kernels" ] && printf '%-28s %s\n' "MLP kernels (sm_90)" "$kernels gpu.binary, ptxas ok for sm_80 and sm_90"
want train && printf '%-28s %s\n' "lit test/GPU" "$(grep -E 'Passed|Unsupported|Failed' "$log/lit.txt" | tr -s ' ' | paste -sd';' -)"
say "done in $(( $(date +%s) - start )) s; logs in $log"
[ $status = 0 ] || say "some GPU lit tests failed: $log/lit.txt" >&2
exit $status
