// amp-run rejects bad options and missing data with a message and exit 1.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f64 2>&1 | FileCheck %s --check-prefix=BADSPEC
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+sometimes 2>&1 | FileCheck %s --check-prefix=BADSPEC
// BADSPEC: amp-run: bad --run
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16+dynamic 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: amp-run: --run 'bf16+dynamic': loss scaling is for fp16
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-dir=%t.nonexistent 2>&1 | FileCheck %s --check-prefix=DATA
// DATA: amp-run: {{.*}}nonexistent/train-images-idx3-ubyte.gz: cannot open
// RUN: not amp-run %s 2>&1 | FileCheck %s --check-prefix=NOSTEP
// NOSTEP: no func.func with the amp.train_step attribute
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --epochs=0 2>&1 | FileCheck %s --check-prefix=EPOCHS
// EPOCHS: amp-run: --epochs must be >= 1
func.func @not_a_step(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
