// --data=npy: files that are well-formed .npy but cannot feed a run are
// refused with the file and why, before anything trains: no examples (in
// the training or the test split), a header whose shape overflows any count,
// a structured dtype (quoted whole), labels out of range either way (with
// the range). A step without an eval step gets no note about the eval step.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt --amp-build-train-step="min-elements=1" %s -o %t/step.mlir
// RUN: amp-opt --amp-build-train-step="min-elements=1 loss=mse eval-step=false" %s -o %t/mse-step.mlir
// RUN: %numpy_python -c "import numpy as np; r = np.random.default_rng(0); np.save('%t/x.npy', r.random((16, 8), dtype=np.float32)); np.save('%t/y.npy', np.arange(16) %% 3); np.save('%t/x0.npy', np.zeros((0, 8), np.float32)); np.save('%t/y0.npy', np.zeros((0,), np.int64)); yn = np.arange(16) %% 3; yn[9] = -1; np.save('%t/yneg.npy', yn); yb = np.arange(16) %% 3; yb[4] = -5000000000; np.save('%t/ybig.npy', yb); np.save('%t/xs.npy', np.zeros(16, dtype=[('a', '<f4', (8,))]))"
// The header of x.npy claiming (4611686018427387904, 8): 2^65 bytes.
// RUN: %numpy_python -c "import struct; h = \"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 8), }\"; h += ' ' * (63 - (10 + len(h)) %% 64) + '\n'; d = open('%t/x.npy', 'rb').read(); open('%t/xovf.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + d[-512:])"
// DEFINE: %{run} = amp-run %t/step.mlir --run=f32 --max-steps=2 --progress=false
//
// RUN: not %{run} --data=npy:%t/x0.npy,%t/y0.npy > %t/empty.out 2>&1
// RUN: FileCheck %s --check-prefix=EMPTY < %t/empty.out
// EMPTY: amp-run: {{.*}}x0.npy: no examples (shape (0, 8)); the first dimension counts the examples
// EMPTY-NOT: PLEASE
// RUN: not %{run} --data=npy:%t/x.npy,%t/y.npy,%t/x0.npy,%t/y0.npy 2>&1 | FileCheck %s --check-prefix=EMPTY-TEST
// EMPTY-TEST: amp-run: {{.*}}x0.npy: no examples (shape (0, 8))
//
// RUN: not %{run} --data=npy:%t/xovf.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: amp-run: {{.*}}xovf.npy: too large: shape (4611686018427387904, 8) of '<f4' needs 147573952589676412928 data bytes, the file has 512
//
// RUN: not %{run} --data=npy:%t/xs.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=STRUCT
// STRUCT: amp-run: {{.*}}xs.npy: element type '[('a', '<f4', (8,))]' is not read
//
// RUN: not %{run} --data=npy:%t/x.npy,%t/yneg.npy 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: amp-run: {{.*}}yneg.npy: label -1 of example 9 is out of range: the eval step returns 3 logits per example, labels must be in [0, 3)
// RUN: not %{run} --data=npy:%t/x.npy,%t/ybig.npy 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: amp-run: {{.*}}ybig.npy: label -5000000000 of example 4 is out of range: the eval step returns 3 logits per example, labels must be in [0, 3)
//
// A step without an eval step: no note that the eval step runs on the
// training set.
// RUN: amp-run %t/mse-step.mlir --run=f32 --max-steps=2 --progress=false --data=npy:%t/x.npy,%t/y.npy | FileCheck %s --check-prefix=NO-EVAL
// NO-EVAL: amp-run: loaded {{.*}}x.npy, {{.*}}y.npy: 16 training examples
// NO-EVAL-NOT: note: no test files given
// NO-EVAL: run{{ +}}train loss

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
    %w = arith.constant dense<0.1> : tensor<8x3xf32>
    %b = arith.constant dense<0.0> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x3xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
    %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x3xf32>, tensor<3xf32>) outs(%e : tensor<4x3xf32>) {
    ^bb0(%a: f32, %bb: f32, %o: f32):
      %s = arith.addf %a, %bb : f32
      linalg.yield %s : f32
    } -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }
}
