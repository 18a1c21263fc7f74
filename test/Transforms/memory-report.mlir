// amp-memory-report (Analysis/MemoryReport.h): the bytes of a training step,
// counted by hand below. Arguments: w 16 B (param), m 16 B (opt_state),
// x 32 B + y 8 B (batch): 72 B live for the whole step.
// RUN: amp-opt %s --amp-memory-report=kept=true -o /dev/null 2>&1 | FileCheck %s
// CHECK: amp-memory-report: @step
// CHECK-NEXT: parameters {{ *}}16 B
// CHECK-NEXT: optimizer state {{ *}}16 B
// CHECK-NEXT: loss-scale state {{ *}}0 B
// CHECK-NEXT: batch (inputs, labels) {{ *}}40 B
// The backward (from the seed) reads two forward values, %h and %hw; %loss
// is read only by the seed itself.
// CHECK-NEXT: kept for the backward {{ *}}32 B, 2 values
// CHECK-NEXT: 16  tensor<4xf32> from arith.mulf (line {{[0-9]+}})
// CHECK-NEXT: 16  tensor<4xf32> from arith.addf (line {{[0-9]+}})
// Peak: 72 B of arguments + %loss 4 + %d 16 + %h 16 + %hw 16 + %dw 16 (at
// %dw, before %h dies) = 140 B. With peak=true, what holds it, largest
// first (equal sizes in order: arguments, then definitions); the seed
// (amp.loss_grad, 4 B) died at the extract that read it.
// CHECK-NEXT: peak live (tensor level) {{ *}}140 B
// RUN: amp-opt %s --amp-memory-report=peak=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEAK
// PEAK: peak live (tensor level) {{ *}}140 B
// PEAK-NEXT: 32  tensor<2x4xf32> argument #2 (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> argument #0 (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> argument #1 (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> from arith.mulf (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> from arith.addf (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> from tensor.splat (line {{[0-9]+}})
// PEAK-NEXT: 16  tensor<4xf32> from arith.mulf (line {{[0-9]+}})
// PEAK-NEXT: 8  tensor<2xi32> argument #3 (line {{[0-9]+}})
// PEAK-NEXT: 4  tensor<f32> from tensor.extract_slice (line {{[0-9]+}})
// PEAK-NOT: B
//
// After loss scaling the seed is gone: the kept figure is absent, the
// loss-scale state (S and the trackers) is counted.
// RUN: amp-opt %s --amp-loss-scaling --amp-memory-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALED
// SCALED: loss-scale state {{ *}}16 B
// SCALED: kept for the backward {{ *}}- (no amp.loss_grad seed: run the report before amp-loss-scaling)
//
// JSON, atomically written; the IR is unchanged.
// RUN: amp-opt %s --amp-memory-report=output=%t.json | FileCheck %s --check-prefix=IR
// IR: func.func @step
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "batch": 40,
// JSON: "kept_for_backward": 32,
// JSON: "name": "step",
// JSON: "peak_live": 140
// RUN: not amp-opt %s --amp-memory-report=output=%t.missing/r.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: amp-memory-report: cannot write
//
// Byte counts past 2^63 saturate and say so (a 2^32 x 2^32 f32 parameter is
// 2^66 B); the peak stays saturated when that value dies.
// RUN: amp-opt %S/../tools/Inputs/wrapping-param.mlir --amp-memory-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: parameters {{ *}}over 9.2 EB (2^63 B: the count saturated)
// HUGE: batch (inputs, labels) {{ *}}50.2 KB (50240 B)
// HUGE: peak live (tensor level) {{ *}}over 9.2 EB (2^63 B: the count saturated)
func.func @step(%w: tensor<4xf32> {amp.role = "param"},
                %m: tensor<4xf32> {amp.role = "opt_state"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<4xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %h = arith.mulf %w, %w : tensor<4xf32>
  %hw = arith.addf %w, %w : tensor<4xf32>
  %loss = tensor.extract_slice %h[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %d = tensor.splat %s : tensor<4xf32>
  %dw = arith.mulf %d, %h : tensor<4xf32>
  %t = arith.mulf %d, %hw : tensor<4xf32>
  %g0 = arith.addf %dw, %t : tensor<4xf32>
  %g = amp.grad %g0, %w : tensor<4xf32>
  %m1 = arith.addf %m, %g : tensor<4xf32>
  %w1 = arith.subf %w, %m1 : tensor<4xf32>
  return %loss, %w1, %m1 : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}
