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
//
// A resource the file does not define is an error when the file defines
// others (a typo); in a file without any blob (printed without them, as
// some exporters keep the keys and drop the section) it starts random, as
// the key __elided__ does, with a note.
// RUN: sed '/{-#/,$d' %S/Inputs/initial-resource.mlir > %t.noblobs.mlir
// RUN: amp-run %t.noblobs.mlir --run=f32 --max-steps=1 | FileCheck %s --check-prefix=NOBLOBS
// NOBLOBS: amp-run: note: @train_step: 1 argument (#0) starts from the random initialisation
// RUN: sed 's/dense_resource<w1>/dense_resource<w9>/' %S/Inputs/initial-resource-two.mlir > %t.missing.mlir
// RUN: not amp-run %t.missing.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING-NOT: loading
// MISSING: amp-run: run f32: @train_step argument #1 (amp.role = "param") of type tensor<3xf32>: its amp.initial_value names the resource 'w9', which the file does not define
// RUN: amp-run %S/Inputs/initial-elided.mlir --run=f32 --max-steps=1 | FileCheck %s --check-prefix=NOTE
// NOTE: amp-run: note: @train_step: 1 argument (#0) starts from the random initialisation: its amp.initial_value is a dense_resource printed without its data (__elided__, or a key the file, which holds no blobs, does not define)
// A blob of the wrong size names its bytes.
// RUN: sed 's/0000A040"/"/' %S/Inputs/initial-resource.mlir > %t.short.mlir
// RUN: not amp-run %t.short.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: its amp.initial_value resource 'w0' holds 20 bytes, the argument needs 24 (2x3xf32)
// A non-finite start value is named (it used to surface as a NaN loss).
// RUN: sed 's/0x040000000000803E/0x040000000000C07F/' %S/Inputs/initial-resource.mlir > %t.nan.mlir
// RUN: not amp-run %t.nan.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=NAN
// NAN-NOT: loading
// NAN: its amp.initial_value holds NaN at element 0; start values must be finite
// A start value on an argument the data feeds would be ignored.
// RUN: sed 's/{amp.role = "input"}/{amp.role = "input", amp.initial_value = dense<0.0> : tensor<16x784xf32>}/' %S/Inputs/initial-resource.mlir > %t.input.mlir
// RUN: not amp-run %t.input.mlir --run=f32 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: @train_step argument #1 (amp.role = "input") of type tensor<16x784xf32>: has an amp.initial_value, but amp-run feeds this argument from the data each step
