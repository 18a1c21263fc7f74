// amp-autocast's remarks name the op and are located at it, but do not print
// it: MLIR's default (-mlir-print-op-on-diagnostic is on) printed the whole
// op after each remark, 1074 lines for the 87 remarks of the Fashion-MNIST
// step. The op is printed only when the flag is given explicitly.
// RUN: amp-opt %s -amp-autocast=remarks=true -o /dev/null 2>&1 | FileCheck %s
// RUN: amp-opt %s -amp-autocast=remarks=true -mlir-print-op-on-diagnostic -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// The step: 87 remarks, 3 lines each (remark, source line, caret).
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir -amp-autocast=remarks=true -o /dev/null 2>&1 | grep -c "remark: autocast:" | FileCheck %s --check-prefix=COUNT
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir -amp-autocast=remarks=true -o /dev/null 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// COUNT: {{^}}87{{$}}
// LINES: {{^}}261{{$}}

// CHECK: autocast-remarks.mlir:[[@LINE+8]]:8: remark: autocast: allow (contraction: low-precision inputs, fp32 accumulation); mixed: rule 1: allow op; op 'linalg.matmul'
// CHECK-NOT: see current operation
// DUMP: remark: autocast: allow
// DUMP-NEXT: linalg.matmul ins
// DUMP-NEXT: ^
// DUMP-NEXT: note: see current operation:
// DUMP-NEXT: "linalg.matmul"
func.func @forward(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %acc: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
