// amp-lower-to-llvm's f32 -> bf16 rounding (arith.truncf). By default
// (bf16-dot=false, code for any x86-64 CPU) arith-expand writes it as
// integer ops: round to nearest even, every NaN the canonical 0x7FC0.
// With bf16-dot=true (a CPU with AVX512_BF16, as amp-run picks on such a
// host) LLVM lowers it to `vcvtneps2bf16`, one instruction per 16 lanes
// instead of about ten: the same bits but for denormal inputs (flushed to
// zero) and NaN payloads. Checked on the code for two AVX512_BF16 CPUs
// (AMD Zen 4, Intel Sapphire Rapids), so it holds on any host; the
// values below run here through the integer rounding, and
// lower-to-llvm-bf16-convert-exec.mlir runs the instruction against them
// where the host has it.
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | FileCheck %s --check-prefix=INT
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 bf16-dot=true" | FileCheck %s --check-prefix=NATIVE
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 bf16-dot=true" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 | FileCheck %s --check-prefix=ASM --implicit-check-not=__truncsfbf2
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1 bf16-dot=true" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=sapphirerapids | FileCheck %s --check-prefix=ASM --implicit-check-not=__truncsfbf2
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 | FileCheck %s --check-prefix=ASM-INT
// A whole bf16 training step, too: its roundings (the kernels' stores of
// C, the casts autocast inserts) become the instruction.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16" --amp-lower-to-llvm="threads=1 bf16-dot=true" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=znver4 | FileCheck %s --check-prefix=STEP --implicit-check-not=__truncsfbf2
// RUN: amp-opt %s --amp-lower-to-llvm="threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=VALUES

// INT-LABEL: llvm.func @round
// INT-NOT:   llvm.fptrunc
// INT:       llvm.lshr
// INT-LABEL: llvm.func @main
// NATIVE-LABEL: llvm.func @round
// NATIVE:       llvm.fptrunc %{{.*}} : vector<{{[0-9]+}}xf32> to vector<{{[0-9]+}}xbf16>
// NATIVE-LABEL: llvm.func @main
// ASM-LABEL: round:
// ASM:       vcvtneps2bf16
// ASM-LABEL: main:
// ASM-INT-LABEL: round:
// ASM-INT-NOT:   vcvtneps2bf16
// ASM-INT-LABEL: main:
// STEP-LABEL: train_step:
// STEP:       vcvtneps2bf16
// STEP:       vdpbf16ps

// Round to nearest even (ties: 1 + 2^-8 to 1, 1 + 3 * 2^-8 up), the
// largest f32 to +inf, +-inf and the quiet NaN kept, -0.0 kept.
// VALUES:      16256
// VALUES-NEXT: 16256
// VALUES-NEXT: 16258
// VALUES-NEXT: 16457
// VALUES-NEXT: 47264
// VALUES-NEXT: 32479
// VALUES-NEXT: 32640
// VALUES-NEXT: 32640
// VALUES-NEXT: 65408
// VALUES-NEXT: 32704
// VALUES-NEXT: 130
// VALUES-NEXT: 18304
// VALUES-NEXT: 32768
// VALUES-NEXT: 15821
// VALUES-NEXT: 15335
// VALUES-NEXT: 20501
// VALUES-NEXT: 49088
// VALUES-NEXT: 128
// VALUES-NEXT: 18410

func.func @round(%x: tensor<19xf32>) -> tensor<19xbf16> {
  %e = tensor.empty() : tensor<19xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<19xf32>) outs(%e : tensor<19xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<19xbf16>
  return %r : tensor<19xbf16>
}

// Inputs by their bits: 1, 1 + 2^-8, 1 + 3 * 2^-8, pi, -2.5e-5, 3.0e38,
// the largest f32, +inf, -inf, the quiet NaN 0x7FC00000, 1.2e-38 (a
// normal), 65504, -0.0, 0.1, 7.0e-3, 1.0e10, -1.5, 2^-126 (the smallest
// normal), 123456. No denormal: the two roundings differ there.
func.func @main() {
  %bits = arith.constant dense<[1065353216, 1065385984, 1065451520, 1078530011, -1197505852, 2128543696, 2139095039, 2139095040, -8388608, 2143289344, 8550601, 1199566848, -2147483648, 1036831949, 1004995470, 1343554297, -1077936128, 8388608, 1206542336]> : tensor<19xi32>
  %x = arith.bitcast %bits : tensor<19xi32> to tensor<19xf32>
  %r = func.call @round(%x) : (tensor<19xf32>) -> tensor<19xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c19 = arith.constant 19 : index
  scf.for %i = %c0 to %c19 step %c1 {
    %v = tensor.extract %r[%i] : tensor<19xbf16>
    %b = arith.bitcast %v : bf16 to i16
    %w = arith.extui %b : i16 to i32
    vector.print %w : i32
  }
  return
}
