// --polynomial-tanh=false (amp-lower-to-llvm polynomial-tanh=false) computes
// f32 tanh with libm's tanhf instead of amp-cpu-polynomial-tanh's rational
// approximation (within 6 ulp: unittests Conversion/TanhAccuracyTest.cpp).
// A GPT-2-style feed-forward block (a tanh-form GELU on its hidden layer,
// so the backward reads the tanh too) trains the same to the printed
// fourth decimal over 5 steps either way, in f32, bf16 and f16 + dynamic,
// and its gradients pass the finite-difference check with the
// approximation; the option is refused for the GPU. The lowering: LLVM's
// tanh intrinsic with the option off (which LLVM's x86 backend calls
// libm's tanhf for, lane by lane), none with it on.
// RUN: amp-opt %S/Inputs/gelu-tanh-mlp.mlir --amp-build-train-step -o %t.step.mlir
// RUN: amp-run %t.step.mlir --run=f32,bf16,f16+dynamic --max-steps=5 --epochs=1 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.poly
// RUN: amp-run %t.step.mlir --run=f32,bf16,f16+dynamic --max-steps=5 --epochs=1 --threads=1 --data=synthetic --synthetic-examples=64 --csv=%t.libm --polynomial-tanh=false
// RUN: awk -F, 'FNR > 1 { printf "%%s %%.4f\n", $2, $4 }' %t.poly.f32.csv %t.poly.bf16.csv %t.poly.f16+dynamic.csv > %t.a
// RUN: awk -F, 'FNR > 1 { printf "%%s %%.4f\n", $2, $4 }' %t.libm.f32.csv %t.libm.bf16.csv %t.libm.f16+dynamic.csv > %t.b
// RUN: diff %t.a %t.b
// RUN: FileCheck %s --check-prefix=STEPS --input-file=%t.a
// STEPS-COUNT-15: {{^[1-5] [0-9]+\.[0-9]{4}$}}
// STEPS-NOT: {{.}}
// RUN: amp-run %t.step.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: not amp-run %t.step.mlir --run=f32 --max-steps=1 --device=cuda --polynomial-tanh=false 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: amp-run: --polynomial-tanh is for --device=cpu
// RUN: amp-opt %s --amp-lower-to-llvm="polynomial-tanh=false" | FileCheck %s --check-prefix=LIBM
// LIBM: llvm.func @tanh_act
// LIBM: llvm.intr.tanh
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s --check-prefix=POLY
// POLY: llvm.func @tanh_act
// POLY-NOT: llvm.intr.tanh
// POLY: llvm.fdiv
// POLY-NOT: llvm.intr.tanh
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tanh_act(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
