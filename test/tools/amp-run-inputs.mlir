// amp-run feeds every input and target of a step its own shape and element
// type: with --data=synthetic a step with two inputs, one with a rank-3
// mse target and one with integer token ids train in every precision, pass
// --check-gradients and (with an eval step) evaluate; Fashion-MNIST refuses
// them, naming the input or target that does not fit.
//
// (a) Two float inputs (forward(q, kv)), softmax cross-entropy, an eval
// step with both inputs.
// RUN: amp-opt %S/Inputs/two-inputs.mlir --amp-build-train-step -o %t.two.mlir
// RUN: amp-run %t.two.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=20 --progress=false | FileCheck %s --check-prefix=TWO
// TWO: amp-run: synthetic data, 256 training examples, 2 classes:
// TWO-NEXT: argument #4 (tensor<4x3xf32>): 3 f32 values from U[0, 1)
// TWO-NEXT: argument #5 (tensor<4x5xf32>): 5 f32 values from U[0, 1)
// TWO: run{{ +}}train loss{{ +}}test acc
// TWO-NEXT: f32{{ +}}0.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}20
// TWO-NEXT: f16 + dynamic{{ +}}0.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}20
// TWO-NEXT: bf16{{ +}}0.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}20
// RUN: amp-run %t.two.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=PASS
// PASS: (tolerance 1e-05): passed
// RUN: not amp-run %t.two.mlir --run=f32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=TWO-FMNIST
// TWO-FMNIST: amp-run: run f32: the step has 2 inputs (arguments #4 and #5), but the dataset feeds one: an image per example, with a label; --data=synthetic feeds every input and target its own shape and element type
//
// (b) A rank-3 output trained with loss=mse: regression targets of the
// target's shape, a finite loss that falls over epochs, no accuracy ("-").
// RUN: amp-opt %S/Inputs/regression-3d.mlir --amp-build-train-step="loss=mse" -o %t.mse.mlir
// RUN: amp-run %t.mse.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=20 --progress=false | FileCheck %s --check-prefix=MSE
// MSE: amp-run: synthetic data, 128 training examples:
// MSE-NEXT: argument #4 (tensor<2x3x4xf32>): 12 f32 values from U[0, 1)
// MSE-NEXT: target (tensor<2x3x4xf32>): 12 values tanh(a fixed random function of the inputs)
// MSE: f32{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}20
// MSE-NEXT: f16 + dynamic{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}32768{{ +}}0{{ +}}20
// MSE-NEXT: bf16{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}20
// RUN: amp-run %t.mse.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=PASS
// RUN: not amp-run %t.mse.mlir --run=f32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=MSE-FMNIST
// MSE-FMNIST: amp-run: run f32: the target tensor<2x3x4xf32> cannot be fed from this dataset: it holds class labels, which amp-run feeds to a batch x classes f32 target one-hot encoded; give regression targets of 12 values per example with --data=npy:X,Y (Y float32 or float64); --data=synthetic feeds every input and target its own shape and element type
// The same data for the same seed, and a model that learns the targets:
// the last epoch's loss is below the first's.
// RUN: amp-run %t.mse.mlir --data=synthetic --run=f32 --epochs=4 --progress=false --csv=%t.mse.a.csv > /dev/null
// RUN: amp-run %t.mse.mlir --data=synthetic --run=f32 --epochs=4 --progress=false --csv=%t.mse.b.csv > /dev/null
// RUN: cut -d, -f1-6 %t.mse.a.csv > %t.mse.a.cut
// RUN: cut -d, -f1-6 %t.mse.b.csv > %t.mse.b.cut
// RUN: diff %t.mse.a.cut %t.mse.b.cut
// RUN: python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); m=lambda e: sum(float(x['loss']) for x in r if x['epoch']==e)/sum(1 for x in r if x['epoch']==e); sys.exit(0 if m('4') < m('1') else 1)" %t.mse.a.csv
//
// (c) Token ids (i64) beside a float input: the ids index a table of 3
// rows, so they are drawn from [0, 3); --synthetic-int-range narrows that,
// and may not exceed it.
// RUN: amp-opt %S/Inputs/int-input.mlir --amp-build-train-step -o %t.ids.mlir
// RUN: amp-run %t.ids.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=20 --progress=false 2>/dev/null | FileCheck %s --check-prefix=IDS
// IDS: amp-run: synthetic data, 256 training examples, 2 classes:
// IDS-NEXT: argument #2 (tensor<4x3xi64>): 3 integers from [0, 3) (the rows of the table it indexes)
// IDS-NEXT: argument #3 (tensor<4x2xf32>): 2 f32 values from U[0, 1)
// IDS: f32{{ +}}{{[0-9]}}.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}20
// IDS-NEXT: f16 + dynamic{{ +}}{{[0-9]}}.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}32768{{ +}}0{{ +}}20
// IDS-NEXT: bf16{{ +}}{{[0-9]}}.{{[0-9]+}}{{ +}}0.{{[0-9]+}}{{ +}}-{{ +}}0{{ +}}20
// RUN: amp-run %t.ids.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=PASS
// RUN: amp-run %t.ids.mlir --data=synthetic --synthetic-int-range=2 --run=f32 --max-steps=2 2>/dev/null | FileCheck %s --check-prefix=RANGE
// RANGE: argument #2 (tensor<4x3xi64>): 3 integers from [0, 2) (--synthetic-int-range)
// RUN: not amp-run %t.ids.mlir --data=synthetic --synthetic-int-range=4 --run=f32 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: amp-run: --synthetic-int-range=4: the integer input argument #2 (tensor<4x3xi64>) indexes a table of 3 rows; values from [0, 4) would read past it
// RUN: not amp-run %t.ids.mlir --run=f32 --max-steps=2 2>&1 | FileCheck %s --check-prefix=IDS-FMNIST
// IDS-FMNIST: amp-run: run f32: the step has 2 inputs (arguments #2 and #3), but the dataset feeds one
// An integer input that indexes nothing amp-run sees: [0, 2), with a note.
// RUN: sed -e 's/%%v = tensor.extract %%table\[%%row, %%k\] : tensor<3x2xi32>/%%v = arith.constant 1 : i32/' %S/Inputs/int-input.mlir | amp-opt --amp-build-train-step -o %t.free.mlir
// RUN: amp-run %t.free.mlir --data=synthetic --run=f32 --max-steps=2 2>/dev/null | FileCheck %s --check-prefix=FREE
// FREE: amp-run: note: the integer input argument #2 (tensor<4x3xi64>) indexes no table amp-run can see; its synthetic values are drawn from [0, 2) (--synthetic-int-range=N: [0, N))
// FREE: argument #2 (tensor<4x3xi64>): 3 integers from [0, 2)
// FREE: f32{{ +}}{{[0-9]+\.[0-9]+}}
