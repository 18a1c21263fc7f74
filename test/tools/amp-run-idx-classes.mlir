// A user's IDX data whose test split lacks the top class (issue 30): the
// dataset's classes come from both splits, so it trains (it was refused:
// "the dataset has 9 classes", counted from the test labels only).
// RUN: rm -rf %t.idx && python3 %S/Inputs/make-idx.py %t.idx 256 10 20 9
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data-dir=%t.idx --progress=false | FileCheck %s
// CHECK: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}2
// A test split with a label the logits do not have is refused.
// RUN: rm -rf %t.idx11 && python3 %S/Inputs/make-idx.py %t.idx11 256 10 20 11
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data-dir=%t.idx11 2>&1 | FileCheck %s --check-prefix=MORE
// MORE: amp-run: run f32: the eval step returns 10 logits per example but the dataset has 11 classes (the largest label of either split + 1)
// Both X and X.gz in the directory: the .gz file is read, and a note says
// so (the choice was silent).
// RUN: gunzip -c %t.idx/train-labels-idx1-ubyte.gz > %t.idx/train-labels-idx1-ubyte
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data-dir=%t.idx --progress=false --max-steps=1 | FileCheck %s --check-prefix=BOTH
// BOTH: amp-run: note: both {{.*}}train-labels-idx1-ubyte.gz and {{.*}}train-labels-idx1-ubyte exist; reading {{.*}}train-labels-idx1-ubyte.gz
// Fewer classes than logits (a fine-tuning set that uses 7 of the head's
// 10 classes) train, as PyTorch's cross-entropy allows (they were refused).
// RUN: rm -rf %t.idx7 && python3 %S/Inputs/make-idx.py %t.idx7 256 7 20 7
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --data-dir=%t.idx7 --progress=false | FileCheck %s --check-prefix=FEWER
// FEWER: f32{{ +}}{{[0-9.]+}}{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}0{{ +}}2
