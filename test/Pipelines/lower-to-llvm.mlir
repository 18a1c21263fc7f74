// The mixed-precision step lowers completely to the LLVM dialect for the
// CPU: no op of another dialect survives (f16/bf16 arith included).
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-llvm \
// RUN:   | FileCheck %s --implicit-check-not="= arith." --implicit-check-not="= math." \
// RUN:     --implicit-check-not="= linalg." --implicit-check-not="= tensor." \
// RUN:     --implicit-check-not="= memref." --implicit-check-not="= amp." \
// RUN:     --implicit-check-not="scf." --implicit-check-not=" cf." \
// RUN:     --implicit-check-not="unrealized_conversion_cast" --implicit-check-not="func.func"
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision=precision=bf16\ loss-scale=none --amp-lower-to-llvm \
// RUN:   | FileCheck %s --implicit-check-not="= arith." --implicit-check-not="= math." \
// RUN:     --implicit-check-not="= linalg." --implicit-check-not="= tensor." \
// RUN:     --implicit-check-not="= memref." --implicit-check-not="= amp." \
// RUN:     --implicit-check-not="scf." --implicit-check-not=" cf." \
// RUN:     --implicit-check-not="unrealized_conversion_cast" --implicit-check-not="func.func"
// Results became caller-allocated out-parameters: the step returns nothing.
// CHECK: llvm.func @train_step(
// CHECK-SAME: ) attributes
// CHECK: llvm.return{{$}}
// CHECK: llvm.func @eval_step(
