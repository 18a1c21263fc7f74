// amp-run rejects bad options and missing data with a message and exit 1.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f64 2>&1 | FileCheck %s --check-prefix=BADSPEC
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+sometimes 2>&1 | FileCheck %s --check-prefix=BADSPEC
// BADSPEC: amp-run: bad --run '{{f64|f16\+sometimes}}': '{{f64|sometimes}}' is not a {{precision \(f16, bf16 or f32\)|loss-scale mode \(auto, dynamic, static or none\)}}
// A '+' without a loss-scale mode is not the run without one.
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f16+ 2>&1 | FileCheck %s --check-prefix=EMPTY-SCALE
// EMPTY-SCALE: amp-run: bad --run 'f16+': no loss-scale mode after '+' (dynamic, static or none; 'f16' alone has none)
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=bf16+dynamic 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: amp-run: --run 'bf16+dynamic': loss-scale=dynamic: no loss scaling with precision=bf16: bf16 has fp32's exponent range
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --tensor-cores=false 2>&1 | FileCheck %s --check-prefix=TC
// TC: amp-run: --tensor-cores is for --device=cuda
// TC-NOT: loading
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-dir=%t.nonexistent 2>&1 | FileCheck %s --check-prefix=DATA
// DATA: amp-run: {{.*}}nonexistent/train-images-idx3-ubyte.gz: cannot open: no such file (install Debian's dataset-fashion-mnist, or pass --data-dir or set AMP_DATA_DIR)
// A user's IDX directory without the files says which it reads:
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=idx:%t.noidx 2>&1 | FileCheck %s --check-prefix=IDXDATA
// IDXDATA: amp-run: {{.*}}noidx/train-images-idx3-ubyte.gz: cannot open: no such file (--data=idx:DIR reads train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte there, each gzip-compressed (.gz) or not)
// IDXDATA-NOT: dataset-fashion-mnist
// Without --data-dir, $AMP_DATA_DIR is the default; --data-dir wins over it.
// RUN: env AMP_DATA_DIR=%t.fromenv not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir 2>&1 | FileCheck %s --check-prefix=ENVDATA
// ENVDATA: amp-run: {{.*}}fromenv/train-images-idx3-ubyte.gz: cannot open
// RUN: env AMP_DATA_DIR=%t.fromenv not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data-dir=%t.flag 2>&1 | FileCheck %s --check-prefix=FLAGDATA
// FLAGDATA: amp-run: {{.*}}flag/train-images-idx3-ubyte.gz: cannot open
// RUN: not amp-run %s 2>&1 | FileCheck %s --check-prefix=NOSTEP
// NOSTEP: no func.func with the amp.train_step attribute
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --epochs=0 2>&1 | FileCheck %s --check-prefix=EPOCHS
// EPOCHS: amp-run: --epochs=0: must be >= 1
func.func @not_a_step(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --batch-size=-3 2>&1 | FileCheck %s --check-prefix=NEGBATCH
// NEGBATCH: amp-run: --batch-size=-3: must be >= 1
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32,f32 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: amp-run: --run 'f32' is given twice
// RUN: not amp-run %S/Inputs/two-steps.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=TWOSTEPS
// TWOSTEPS: the module has 2 amp.train_step and 0 amp.eval_step functions; amp-run trains one step
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --max-steps=-1 2>&1 | FileCheck %s --check-prefix=MAXSTEPS
// MAXSTEPS: amp-run: --max-steps=-1: must be >= 0 (0: every batch)
