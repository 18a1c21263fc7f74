// --data=synthetic trains any step on seeded random inputs of its own shape
// (here the MLP: 784 values per example; the eval step's 10 classes), the
// same data for the same --seed.
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=4 --csv=%t.a.csv | FileCheck %s
// CHECK-NOT: loading
// CHECK: amp-run: synthetic data, 8192 training examples of 784 values, 10 classes
// CHECK: f32{{ +}}2.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}4
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=synthetic --run=f32 --max-steps=4 --csv=%t.b.csv > /dev/null
// RUN: cut -d, -f1-6 %t.a.csv > %t.a.cut
// RUN: cut -d, -f1-6 %t.b.csv > %t.b.cut
// RUN: diff %t.a.cut %t.b.cut
// RUN: not amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --data=imagenet 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-run: --data=imagenet: must be fashion-mnist, synthetic, idx:DIR or npy:TRAIN_X,TRAIN_Y[,TEST_X,TEST_Y]
