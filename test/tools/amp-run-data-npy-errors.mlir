// --data=npy: checks the files against the step before training; every
// error names the file and what does not fit.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/make-npy.py %t
// DEFINE: %{run} = amp-run %amp_src_root/examples/fashion-mnist/mlp.mlir --run=f32 --max-steps=2 --progress=false
//
// Good files train (float64 inputs, int32 labels; no test files: the eval
// step runs on the training set).
// RUN: %{run} --data=npy:%t/x64.npy,%t/y32.npy | FileCheck %s --check-prefix=OK
// OK: amp-run: loaded {{.*}}x64.npy, {{.*}}y32.npy: 512 training examples
// OK: amp-run: note: no test files given; the eval step runs on the training set
// OK: f32{{ +}}{{[0-9.]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}2
//
// RUN: not %{run} --data=npy:%t/x-shape.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: amp-run: {{.*}}x-shape.npy: shape (512, 28, 27) has 756 values per example, the step's input tensor<128x784xf32> takes 784
// RUN: not %{run} --data=npy:%t/x-int16.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: amp-run: {{.*}}x-int16.npy: element type '<i2' is not read; use float32, float64 or uint8 inputs, int32, int64 or uint8 labels (little-endian)
// RUN: not %{run} --data=npy:%t/x.npy,%t/y-short.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: amp-run: {{.*}}y-short.npy: 511 examples, but {{.*}}x.npy has 512
// RUN: not %{run} --data=npy:%t/x-nan.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: amp-run: {{.*}}x-nan.npy: value 3 of example 7 is not finite (nan)
// RUN: not %{run} --data=npy:%t/x-inf.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=INF
// INF: amp-run: {{.*}}x-inf.npy: value 0 of example 9 is not finite (inf)
// RUN: not %{run} --data=npy:%t/x-f64-big.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=F64-BIG
// F64-BIG: amp-run: {{.*}}x-f64-big.npy: value 2 of example 4 (1.000e+300) is beyond float32's range (3.403e+38): the step reads float32
// RUN: not %{run} --data=npy:%t/x-truncated.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: amp-run: {{.*}}x-truncated.npy: truncated: shape (512, 784) of '<f4' needs 1605632 data bytes, the file has 1605532
// RUN: not %{run} --data=npy:%t/x.npy,%t/y-range.npy 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: amp-run: {{.*}}y-range.npy: label 12 of example 5 is out of range: the eval step returns 10 logits per example, labels must be in [0, 10)
// RUN: not %{run} --data=npy:%t/x.npy,%t/y-negative.npy 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: amp-run: {{.*}}y-negative.npy: label -1 of example 3 is out of range: the eval step returns 10 logits per example, labels must be in [0, 10)
// RUN: not %{run} --data=npy:%t/x.npy,%t/y-float.npy 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: amp-run: {{.*}}y-float.npy: '<f4' of shape (512,); class labels are int32, int64 or uint8 of shape (N,)
// RUN: not %{run} --data=npy:%t/x-fortran.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: amp-run: {{.*}}x-fortran.npy: a Fortran-order array; save it in C order
// RUN: not %{run} --data=npy:%t/not-npy.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: amp-run: {{.*}}not-npy.npy: not a .npy file
// RUN: not %{run} --data=npy:%t/missing.npy,%t/y.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amp-run: {{.*}}missing.npy: cannot read it: No such file or directory
// RUN: not %{run} --data=npy:%t/x.npy 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: amp-run: --data=npy:{{.*}}x.npy: give TRAIN_X,TRAIN_Y or TRAIN_X,TRAIN_Y,TEST_X,TEST_Y (.npy files)
