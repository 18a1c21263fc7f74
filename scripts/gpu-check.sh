#!/usr/bin/env bash
# GPU check (docs/gpu.md): builds amp-mlir from this source tree, runs the GPU
# lit tests (compile tests and, with a device, the execution tests), the GPU
# benchmarks and PyTorch's eager reference, and prints one short table per
# model: the Fashion-MNIST MLP and transformer block steps of
# examples/fashion-mnist, and the CNN (re-batched to 128) and transformer
# block of examples/pytorch built into steps by amp-build-train-step:
#   - ms per training step with amp-run --device=cuda, fp32 vs f16 + dynamic
#     loss scaling vs bf16, and f16 and bf16 once more without Tensor Cores
#     (--tensor-cores=false, rows .../simt: what mma.sync buys);
#   - PyTorch eager on the same model and step (torch.autocast + GradScaler,
#     benchmarks/gpu/torch_mlp.py) and our ratio to it;
#   - test accuracy after the run;
#   - the first five losses of an fp32 run on the CPU and on the GPU (the
#     GPU kernels compute the same step);
#   - the fused unscale+check's bandwidth against a device-to-device copy of
#     the same bytes (amp-bench-gpu-fused-check).
#
# Usage: scripts/gpu-check.sh [--dry-run] [--bundle=DIR] [--part=all|train|bench]
#   --dry-run     no GPU needed: build, run the compile-only GPU tests, compile
#                 the benchmark's fused check for sm_80 and sm_90 and print
#                 the table with the device figures marked "pending".
#   --bundle=DIR  build nothing: take the tools, lit + FileCheck and the data
#                 from DIR/payload.tar.xz, made by scripts/gpu-bundle.sh on a
#                 machine with LLVM 22 (for GPU machines without it).
#   --part=P      train: lit execution tests, the model runs and PyTorch's
#                 reference; bench: the fused check; all (default): both.
#                 A bundle holds one part (each fits one transfer); with
#                 --bundle the default is the part the bundle holds.
# Environment: AMP_GPU_BUILD_DIR (default ./build-gpu; --dry-run: ./build),
#   EPOCHS (default 2), MAX_STEPS (steps per epoch, default all), TF_STEPS
#   (transformer steps, default 300), CNN_STEPS (default 300), PROFILE_STEPS
#   (default 0; N > 0: one more f32 and f16 run of N steps per model with
#   AMP_CUDA_PROFILE=1, the kernels by device time), RUN_LIMIT (seconds per
#   amp-run or PyTorch call, default 240), DATA_DIR (default /usr/share/datasets/fashion-mnist),
#   CUDA_HOME (default /usr/local/cuda, else the ptxas on PATH), JOBS (default nproc).
# Whole run: about 1-2 min build on 16 cores (none with --bundle), then
# about 5.5 min of runs (323 s on an H200 on 2026-12-04, from a bundle).
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
cnn_steps="${CNN_STEPS:-300}"
run_limit="${RUN_LIMIT:-240}" # seconds per amp-run or PyTorch call
profile_steps="${PROFILE_STEPS:-0}" # > 0: per-kernel profiles of that many steps
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
declare -A ms acc torch first
fused="$pending"
copy=""
# The models, in table order: NAME|SOURCE|EPOCHS|MAX_STEPS|BATCH. SOURCE is
# a step file, or "build:MODEL.mlir" for a forward model of examples/pytorch
# that amp-build-train-step turns into a step (in a bundle: built by
# gpu-bundle.sh into steps/NAME.mlir, since a bundle has no amp-opt).
models=(
  "mlp|examples/fashion-mnist/mlp.mlir|$epochs|$max_steps|128"
  "transformer|examples/fashion-mnist/transformer.mlir|1|$tf_steps|64"
  "cnn|build:examples/pytorch/cnn.mlir|1|$cnn_steps|128"
  "pytorch-transformer|build:examples/pytorch/transformer.mlir|1|$tf_steps|64"
)
# The step file of MODEL_SPEC's SOURCE (see models above).
step_file() {
  local name=$1 src=$2 batch=$3
  if [ "${src#build:}" = "$src" ]; then echo "$root/$src"; return; fi
  if [ -f "$build/steps/$name.mlir" ]; then echo "$build/steps/$name.mlir"; return; fi
  "$build/bin/amp-opt" "$root/${src#build:}" \
    --amp-build-train-step="loss=softmax-cross-entropy optimizer=momentum batch=$batch" \
    -o "$log/$name-step.mlir" || return 1
  echo "$log/$name-step.mlir"
}
# Reads amp-run's summary table (after the "run ..." header) into ms/acc
# under MODEL/RUN[SUFFIX].
read_table() {
  local model=$1 suffix=$2 file=$3 name rest key
  while read -r name rest; do
    case "$name" in
      f32|bf16) set -- $rest ;;
      f16) set -- $rest; shift 2 ;; # "f16 + dynamic ..."
      *) continue ;;
    esac
    key=$name; [ "$name" = f16 ] && key=f16+dynamic
    acc[$model/$key$suffix]=$2; ms[$model/$key$suffix]=$6
  done < <(sed -n '/^run /,$p' "$file" | tail -n +2)
}
if [ $dry = 0 ] && want train; then
  # 4. Each model on the GPU: ms/step and test accuracy per precision, then
  #    f16 and bf16 once more without Tensor Cores (one thread per output,
  #    rows .../simt: what mma.sync buys), then the first steps' losses of
  #    an fp32 run on the CPU and on the GPU (the kernels compute the same
  #    step).
  if [ -f "$data/train-images-idx3-ubyte.gz" ]; then
    for spec in "${models[@]}"; do
      IFS='|' read -r name src ep steps batch <<<"$spec"
      step=$(step_file "$name" "$src" "$batch") || { say "$name: no step ($src)"; status=1; continue; }
      say "$name: amp-run --device=cuda ($step, $ep epochs, max $steps steps)"
      common=(--epochs="$ep" --max-steps="$steps" --data-dir="$data")
      timeout "$run_limit" "$build/bin/amp-run" "$step" --device=cuda \
        --run=f32,f16+dynamic,bf16 "${common[@]}" > "$log/$name.txt" 2>&1 || status=1
      cat "$log/$name.txt"
      read_table "$name" "" "$log/$name.txt"
      timeout "$run_limit" "$build/bin/amp-run" "$step" --device=cuda \
        --run=f16+dynamic,bf16 --tensor-cores=false "${common[@]}" > "$log/$name-simt.txt" 2>&1 || status=1
      cat "$log/$name-simt.txt"
      read_table "$name" /simt "$log/$name-simt.txt"
      if [ "$profile_steps" -gt 0 ]; then
        # Where the device time goes (libamp_cuda_runtime's AMP_CUDA_PROFILE:
        # per kernel, printed at exit).
        for run in f32 f16+dynamic; do
          AMP_CUDA_PROFILE=1 timeout "$run_limit" "$build/bin/amp-run" "$step" --device=cuda \
            --run=$run --max-steps="$profile_steps" --epochs=1 --data-dir="$data" \
            > "$log/$name-profile-$run.txt" 2>&1 || status=1
          # (awk reads to the end: `| head` would end the script with
          # SIGPIPE under pipefail)
          awk '/^amp cuda profile/ { on = 1 } on && n++ < 12' "$log/$name-profile-$run.txt"
        done
      fi
      for dev in cpu cuda; do
        timeout "$run_limit" "$build/bin/amp-run" "$step" --device=$dev --run=f32 \
          --max-steps=5 --epochs=1 --data-dir="$data" \
          --csv="$log/$name-first-$dev.csv" > /dev/null 2>&1 || status=1
        first[$name/$dev]=$(awk -F, 'NR > 1 && NR <= 6 { printf "%s%s", s, $4; s = " " }' \
          "$log/$name-first-$dev.csv" 2>/dev/null)
      done
    done
  else
    say "no Fashion-MNIST at $data: model rows skipped (set DATA_DIR)"
  fi
  # 5. PyTorch eager reference.
  if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    say "PyTorch eager reference"
    timeout "$run_limit" python3 "$root/benchmarks/gpu/torch_mlp.py" | tee "$log/torch.txt"
    while IFS='|' read -r tag name t loss; do
      [ "$tag" = TORCH ] || continue
      [ "${name#*/}" = "$name" ] && name=mlp/$name
      torch[$name]=$t
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
if want train; then
  for spec in "${models[@]}"; do
    IFS='|' read -r name src ep steps batch <<<"$spec"
    printf '%-28s %14s %14s %12s %10s\n' "$name (batch $batch)" "ms/step" "PyTorch ms" "ours/torch" "test acc"
    for run in f32 f16+dynamic f16+dynamic/simt bf16 bf16/simt; do
      m=${ms[$name/$run]:-$pending}; t=${torch[$name/${run%/simt}]:--}; a=${acc[$name/$run]:--}
      ratio=-
      if [[ $m =~ ^[0-9.]+$ && $t =~ ^[0-9.]+$ ]]; then
        ratio=$(awk -v a="$m" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')
      fi
      printf '%-28s %14s %14s %12s %10s\n' "  $run" "$m" "$t" "$ratio" "$a"
    done
    printf '%-28s %s\n' "  f32 first losses, CPU" "${first[$name/cpu]:--}"
    printf '%-28s %s\n' "  f32 first losses, GPU" "${first[$name/cuda]:--}"
  done
fi
want bench && printf '%-28s %s\n' "fused check bandwidth" "$fused${copy:+ ; vs D2D copy: ${copy/|/, }}"
[ -n "$kernels" ] && printf '%-28s %s\n' "MLP kernels (sm_90)" "$kernels gpu.binary, ptxas ok for sm_80 and sm_90"
want train && printf '%-28s %s\n' "lit test/GPU" "$(grep -E 'Passed|Unsupported|Failed' "$log/lit.txt" | tr -s ' ' | paste -sd';' -)"
say "done in $(( $(date +%s) - start )) s; logs in $log"
[ $status = 0 ] || say "some GPU lit tests failed: $log/lit.txt" >&2
exit $status
