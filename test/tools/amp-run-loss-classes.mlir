// A hand-written step without amp.classes and without an eval step: amp-run
// reads the classes its loss indexes from the step (the one-hot's 3
// columns) and refuses labels past them before training (Fashion-MNIST has
// labels up to 9); synthetic data gets 3 classes by default and trains.
// RUN: not amp-run %S/Inputs/one-hot-three.mlir --run=f32 --max-steps=2 --progress=false 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: amp-run: run f32: the training set has labels up to 9 but the step's loss reads its label as an index into 3 classes (the logits the label selects from); the loss would read past them
// REFUSED-NOT: epoch
// RUN: amp-run %S/Inputs/one-hot-three.mlir --run=f32 --max-steps=2 --progress=false --data=synthetic | FileCheck %s --check-prefix=OK
// OK: amp-run: synthetic data, 1024 training examples of 784 values, 3 classes
// OK: f32{{ +}}{{-?[0-9.]+}}{{ +}}-{{ +}}-{{ +}}0{{ +}}2
