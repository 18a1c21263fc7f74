// --polynomial-exp=false (amp-lower-to-llvm polynomial-exp=false) computes
// f32 exponentials with libm's expf instead of amp-cpu-polynomial-exp's
// polynomial (within 1 ulp: unittests Conversion/ExpAccuracyTest.cpp). The
// transformer block (a softmax per head and the loss's) trains the same to
// the printed fourth decimal over 3 steps either way; the option is
// refused for the GPU. The lowering: libm calls with the option off, the
// polynomial's fma chain and no exp with it on.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=f32 --max-steps=3 --epochs=1 --threads=1 --data=synthetic --synthetic-examples=256 --csv=%t.poly.csv
// RUN: amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=f32 --max-steps=3 --epochs=1 --threads=1 --data=synthetic --synthetic-examples=256 --csv=%t.libm.csv --polynomial-exp=false
// RUN: awk -F, 'NR > 1 { printf "%%s %%.4f\n", $2, $4 }' %t.poly.csv > %t.a
// RUN: awk -F, 'NR > 1 { printf "%%s %%.4f\n", $2, $4 }' %t.libm.csv > %t.b
// RUN: diff %t.a %t.b
// RUN: FileCheck %s --check-prefix=STEPS --input-file=%t.a
// STEPS: 1 2.36
// STEPS: 3 2.33
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/transformer.mlir --run=f32 --max-steps=1 --device=cuda --polynomial-exp=false 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: amp-run: --polynomial-exp is for --device=cpu
// RUN: amp-opt %s --amp-lower-to-llvm="polynomial-exp=false" | FileCheck %s --check-prefix=LIBM
// LIBM: llvm.func @softmax_row
// LIBM-NOT: llvm.intr.fma
// LIBM: llvm.intr.exp
// RUN: amp-opt %s --amp-lower-to-llvm | FileCheck %s --check-prefix=POLY
// POLY: llvm.func @softmax_row
// POLY-NOT: llvm.intr.exp
// POLY: llvm.intr.fma
// POLY-NOT: llvm.intr.exp
func.func @softmax_row(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
