// Two ranks with batch 128 against one process with batch 256, the same
// MLP (gen_mlp.py) at learning rate 0.01, where rounding differences do not
// grow chaotically: every one of 100 per-step losses agrees to 1e-4
// relative (measured: ~1e-6) and the test accuracy within 0.2 points.
// RUN: python3 %amp_src_root/examples/fashion-mnist/gen_mlp.py --batch=128 --lr=0.01 -o %t.b128.mlir
// RUN: python3 %amp_src_root/examples/fashion-mnist/gen_mlp.py --batch=256 --lr=0.01 -o %t.b256.mlir
// RUN: timeout 600 %mpirun -np 2 amp-run %t.b128.mlir --run=f32 --max-steps=100 --progress=false --csv=%t.dp.csv > %t.dp.out
// RUN: amp-run %t.b256.mlir --run=f32 --max-steps=100 --progress=false --csv=%t.ref.csv > %t.ref.out
// RUN: python3 %S/../Inputs/compare-losses.py %t.ref.csv %t.dp.csv --steps=100 --rtol=1e-4 --tables %t.ref.out %t.dp.out | FileCheck %s
// CHECK: test accuracy 0.{{[0-9]+}} vs 0.{{[0-9]+}}: {{[0-9.]+}} points, within 0.2
// CHECK: largest relative loss difference over 100 steps: {{.*}}, within 0.0001
//
// The generator at batch 128 is mlp.mlir: the same IR, op for op.
// RUN: python3 %amp_src_root/examples/fashion-mnist/gen_mlp.py --batch=128 -o %t.gen.mlir
// RUN: amp-opt %t.gen.mlir > %t.gen.ir
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir > %t.mlp.ir
// RUN: diff %t.mlp.ir %t.gen.ir
