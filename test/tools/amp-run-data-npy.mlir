// --data=npy: and --data=idx: read the user's data. The same Fashion-MNIST
// bytes as .npy (uint8, scaled by 1/255 as the IDX pixels are) or as an
// uncompressed IDX directory train bit for bit as --data=fashion-mnist.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/idx-to-npy.py /usr/share/datasets/fashion-mnist %t
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=200 --progress=false --dump-state=%t/fmnist.state | FileCheck %s --check-prefix=FMNIST
// FMNIST: f32{{ +}}{{[0-9.]+}}{{ +}}[[ACC:0\.[0-9]+]]
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=200 --progress=false --dump-state=%t/npy.state --data=npy:%t/npy/train_x.npy,%t/npy/train_y.npy,%t/npy/test_x.npy,%t/npy/test_y.npy | FileCheck %s --check-prefix=NPY
// NPY: amp-run: loaded {{.*}}train_x.npy, {{.*}}train_y.npy: 60000 training examples
// NPY: amp-run: loaded {{.*}}test_x.npy, {{.*}}test_y.npy: 10000 test examples
// RUN: cmp %t/fmnist.state %t/npy.state
// RUN: amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=200 --progress=false --dump-state=%t/idx.state --data=idx:%t/idx | FileCheck %s --check-prefix=IDX
// IDX: amp-run: loading {{.*}}idx
// RUN: cmp %t/fmnist.state %t/idx.state
