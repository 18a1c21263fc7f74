#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh needs on a GPU machine that has CUDA and
# PyTorch but no LLVM 22 (docs/gpu.md, "Running on a GPU machine"): the tools
# linked against Debian's static MLIR/LLVM archives (AMP_LINK_LLVM_STATIC=ON,
# so nothing but libc/libstdc++/zlib/zstd is needed there), the CUDA runtime
# library, lit with FileCheck/not/count for the GPU execution tests, and the
# Fashion-MNIST IDX files. Nothing is built on the GPU machine.
#
# Usage: scripts/gpu-bundle.sh [OUT]   (default OUT: ./.gpu-bundle)
# Writes two parts, each one xz tarball small enough to travel alone:
#   OUT/train/payload.tar.xz  amp-run, the runtime, lit + FileCheck, the data,
#                             the steps amp-build-train-step makes of the
#                             examples/pytorch models (steps/NAME.mlir)
#                             (gpu-check.sh --bundle ... --part=train)
#   OUT/bench/payload.tar.xz  amp-bench-gpu-fused-check and the runtime
#                             (gpu-check.sh --bundle ... --part=bench)
# Environment: AMP_BUNDLE_BUILD_DIR (default ./build-bundle), DATA_DIR
# (default /usr/share/datasets/fashion-mnist), JOBS (default nproc),
# TRAIN_EXAMPLES (default all 60000: keep only the first N training examples,
# for a transfer that must also carry the source tree: the train part is
# about 64 MiB with all of them; 36000 saves about 9 MB).
# Needs scripts/install-deps.sh (lld, libzstd-dev, Google Benchmark, CUDA).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.gpu-bundle}"
build="${AMP_BUNDLE_BUILD_DIR:-$root/build-bundle}"
data="${DATA_DIR:-/usr/share/datasets/fashion-mnist}"
jobs="${JOBS:-$(nproc)}"
llvm=/usr/lib/llvm-22
say() { echo "gpu-bundle: $*"; }

for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz \
         t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  [ -f "$data/$f" ] || { say "missing $data/$f (set DATA_DIR)" >&2; exit 1; }
done
command -v ld.lld >/dev/null || { say "missing ld.lld (scripts/install-deps.sh)" >&2; exit 1; }

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
say "configuring $build (static MLIR/LLVM)"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "${launcher[@]}" \
  -DAMP_LINK_LLVM_STATIC=ON \
  -DAMP_BUILD_TESTS=OFF -DAMP_BUILD_BENCHMARKS=ON >/dev/null
say "building amp-opt amp-run amp-bench-gpu-fused-check amp_cuda_runtime"
cmake --build "$build" -j "$jobs" \
  --target amp-opt amp-run amp-bench-gpu-fused-check amp_cuda_runtime >/dev/null
for tool in amp-run amp-bench-gpu-fused-check; do
  if ldd "$build/bin/$tool" | grep -q 'libLLVM\|libMLIR'; then
    say "$tool still links libLLVM.so/libMLIR.so" >&2
    exit 1
  fi
done

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# train: amp-run, the runtime, lit + FileCheck (Debian's; it needs libz3),
# a lit site config that finds everything relative to itself, the data.
t="$stage/train"
mkdir -p "$t/bin" "$t/lib" "$t/data" "$t/test/GPU/Execution"
strip -o "$t/bin/amp-run" "$build/bin/amp-run"
cp "$build/lib/libamp_cuda_runtime.so" "$t/lib/"
# The OpenMP runtime of the CPU runs that the GPU tests compare with
# (JitModule::findOpenMPRuntime looks in ../lib beside amp-run).
cp -L "$llvm/lib/libomp.so.5" "$t/lib/"
cp "$llvm/bin/FileCheck" "$llvm/bin/not" "$llvm/bin/count" "$t/bin/"
cp -L "$(ldd "$llvm/bin/FileCheck" | awk '/libz3/ { print $3 }')" "$t/lib/"
cp -r "$llvm/utils/lit" "$t/lit"
find "$t/lit" -name __pycache__ -prune -exec rm -rf {} +
cat > "$t/test/lit.site.cfg.py" <<'EOF'
# lit site config of a gpu-bundle.sh bundle: paths relative to this file;
# AMP_SRC_ROOT (set by scripts/gpu-check.sh) is the source tree.
import os
bundle = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
config.amp_src_root = os.environ["AMP_SRC_ROOT"]
config.amp_obj_root = bundle
config.amp_tools_dir = os.path.join(bundle, "bin")
config.llvm_tools_dir = os.path.join(bundle, "bin")
config.mlir_lib_dir = os.path.join(bundle, "lib")
config.amp_cuda_runtime = os.path.join(bundle, "lib", "libamp_cuda_runtime.so")
config.amp_libomp = os.path.join(bundle, "lib", "libomp.so.5")
config.amp_sanitize = "OFF"
import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, os.path.join(config.amp_src_root, "test", "lit.cfg.py"))
EOF
# The steps of the models that gpu-check.sh builds from forward models (its
# "models" list: name, source, batch), made here since amp-opt stays here.
mkdir -p "$t/steps"
for spec in cnn:examples/pytorch/cnn.mlir:128 \
            pytorch-transformer:examples/pytorch/transformer.mlir:64; do
  IFS=: read -r name src batch <<<"$spec"
  "$build/bin/amp-opt" "$root/$src" \
    --amp-build-train-step="loss=softmax-cross-entropy optimizer=momentum batch=$batch" \
    -o "$t/steps/$name.mlir"
done
# Raw IDX (xz packs it tighter than gzip); gpu-check.sh gzips it again.
for f in "$data"/*-ubyte.gz; do
  gzip -dc "$f" > "$t/data/$(basename "$f" .gz)"
done
if [ -n "${TRAIN_EXAMPLES:-}" ]; then
  # The first N examples: the count in the IDX header (big-endian, bytes
  # 4-7) and the file cut after N records.
  python3 - "$t/data" "$TRAIN_EXAMPLES" <<'PY'
import os, struct, sys
folder, n = sys.argv[1], int(sys.argv[2])
for name, header, record in (("train-images-idx3-ubyte", 16, 784),
                             ("train-labels-idx1-ubyte", 8, 1)):
    path = os.path.join(folder, name)
    with open(path, "r+b") as f:
        f.seek(4)
        (count,) = struct.unpack(">I", f.read(4))
        if not 0 < n <= count:
            sys.exit(f"gpu-bundle: TRAIN_EXAMPLES={n}: {name} holds {count}")
        f.seek(4)
        f.write(struct.pack(">I", n))
        f.truncate(header + n * record)
PY
  say "kept the first $TRAIN_EXAMPLES training examples"
fi
# bench: the fused-check benchmark and the runtime beside it.
b="$stage/bench"
mkdir -p "$b/bin" "$b/lib"
strip -o "$b/bin/amp-bench-gpu-fused-check" "$build/bin/amp-bench-gpu-fused-check"
cp "$build/lib/libamp_cuda_runtime.so" "$b/lib/"

# Each payload is written beside its final name and renamed into place, so a
# reader never sees a half-written one.
mkdir -p "$out/train" "$out/bench"
for part in train bench; do
  say "packing $part"
  tar -C "$stage/$part" -cf - . | xz -T"$jobs" -6 > "$out/$part/payload.tar.xz.tmp"
  mv -f "$out/$part/payload.tar.xz.tmp" "$out/$part/payload.tar.xz"
done
du -h "$out"/*/payload.tar.xz
say "done: carry $(basename "$out")/train or $(basename "$out")/bench to the GPU machine" \
  "and run scripts/gpu-check.sh --bundle=$(basename "$out")/<part> --part=<part>"
