// A batch x K target (loss=mse on a regression head) is fed what the data
// holds: float regression targets of K values per example, or the one-hot
// encoding of integer class labels (checked against K either way).
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/make-regression-npy.py %t
// RUN: amp-opt %S/Inputs/regression-2d.mlir --amp-build-train-step="loss=mse" -o %t/step.mlir
// RUN: FileCheck %s --check-prefix=STEP < %t/step.mlir
// STEP: tensor<16x4xf32> {amp.role = "target"}
// DEFINE: %{run} = amp-run %t/step.mlir --progress=false
//
// Float targets of a linear teacher (y = x W + b, 4 values per example):
// the head learns them, the loss falls to under a tenth of the first
// step's. The eval step's accuracy needs class labels, so it is not run.
// RUN: %{run} --run=f32 --epochs=3 --csv=%t/f32.csv --data=npy:%t/train_x.npy,%t/train_y.npy,%t/test_x.npy,%t/test_y.npy | FileCheck %s --check-prefix=REG
// REG: amp-run: loaded {{.*}}train_x.npy, {{.*}}train_y.npy: 512 training examples
// REG: amp-run: note: {{.*}}train_y.npy holds regression targets: the eval step's accuracy (argmax against class labels) is not computed, the table's test acc is -
// REG: f32{{ +}}{{[0-9.]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}96
// RUN: %numpy_python -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); first=float(r[0]['loss']); last=[float(x['loss']) for x in r if x['epoch']=='3']; final=sum(last)/len(last); print('first', first, 'final', final); sys.exit(0 if first > 1 and final < 0.1*first else 1)" %t/f32.csv
// float64 targets, no test files, and a low precision run train as well.
// RUN: %{run} --run=bf16 --epochs=3 --data=npy:%t/train_x.npy,%t/y64.npy | FileCheck %s --check-prefix=REG64
// REG64: bf16{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}96
// The gradient check feeds the same targets.
// RUN: %{run} --check-gradients --data=npy:%t/train_x.npy,%t/train_y.npy | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
//
// Targets of another width are refused with both counts.
// RUN: not %{run} --run=f32 --data=npy:%t/train_x.npy,%t/y3.npy 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: amp-run: {{.*}}y3.npy: regression targets of shape (512, 3), 3 values per example, but the step's target tensor<16x4xf32> takes 4 per example: give targets of shape (N, 4); or int32, int64 or uint8 class labels of shape (N,), fed one-hot
// RUN: not %{run} --run=f32 --data=npy:%t/train_x.npy,%t/cls-2d.npy 2>&1 | FileCheck %s --check-prefix=INT2D
// INT2D: amp-run: {{.*}}cls-2d.npy: '<i8' of shape (512, 4); class labels are int32, int64 or uint8 of shape (N,); the step's target tensor<16x4xf32> also takes float32 or float64 regression targets of shape (N, 4)
// Both splits hold the same kind of supervision.
// RUN: not %{run} --run=f32 --data=npy:%t/train_x.npy,%t/train_y.npy,%t/test_x.npy,%t/test_cls.npy 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: amp-run: {{.*}}train_y.npy holds float regression targets, {{.*}}test_cls.npy integer class labels: give both splits the same kind
// --eval-only scores class labels only.
// RUN: not %{run} --run=f32 --eval-only --data=npy:%t/train_x.npy,%t/train_y.npy 2>&1 | FileCheck %s --check-prefix=EVAL
// EVAL: amp-run: --eval-only: run f32: the eval step's accuracy needs class labels, but the test set holds regression targets (4 values per example); --eval-only has no regression metric (training reports each epoch's mean loss)
//
// Integer class labels (the teacher's largest output, 4 classes) are fed
// one-hot as before, and the eval step reports an accuracy.
// RUN: %{run} --run=f32 --epochs=3 --data=npy:%t/train_x.npy,%t/train_cls.npy,%t/test_x.npy,%t/test_cls.npy | FileCheck %s --check-prefix=ONEHOT
// ONEHOT-NOT: regression targets
// ONEHOT: f32{{ +}}0.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}96
// So is --data=synthetic (labels of a teacher, one-hot).
// RUN: %{run} --run=f32 --max-steps=4 --data=synthetic | FileCheck %s --check-prefix=SYNTH
// SYNTH: amp-run: synthetic data, 1024 training examples of 8 values, 4 classes, labels from a fixed random teacher
// SYNTH: f32{{ +}}0.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}4
