// A step's arguments start from their amp.initial_value when they have one
// (a model's weights: dense or dense_resource; an elided blob is drawn at
// random), on every device (BoundStep::resetState).
// RUN: amp-run %S/Inputs/initial-dense.mlir --run=f32 --max-steps=2 --csv=%t.dense.csv > /dev/null
// RUN: FileCheck %s --check-prefix=DENSE < %t.dense.csv
// DENSE: f32,1,1,0.5,1,0,
// DENSE-NEXT: f32,2,1,-0.5,1,0,
// RUN: amp-run %S/Inputs/initial-resource.mlir --run=f32 --max-steps=2 --csv=%t.resource.csv > /dev/null
// RUN: FileCheck %s --check-prefix=RESOURCE < %t.resource.csv
// RESOURCE: f32,1,1,0.25,1,0,
// RESOURCE-NEXT: f32,2,1,-0.75,1,0,
// The elided blob: drawn from U(+-1/sqrt(2)) (fan-in 2), not 0.
// RUN: amp-run %S/Inputs/initial-elided.mlir --run=f32 --max-steps=1 --csv=%t.elided.csv > /dev/null
// RUN: FileCheck %s --check-prefix=ELIDED < %t.elided.csv
// ELIDED: f32,1,1,{{-?0\.[0-9]*[1-9][0-9]*}},1,0,
// RUN: not amp-run %S/Inputs/initial-mismatch.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH-NOT: loading
// MISMATCH: amp-run: run f32: @train_step argument #0 (amp.role = "param") of type tensor<2x3xf32>: its amp.initial_value does not match the argument's type
