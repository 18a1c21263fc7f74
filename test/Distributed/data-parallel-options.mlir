// RUN: amp-opt %s -amp-data-parallel="world-size=2 bucket=per-gradient" | FileCheck %s --check-prefix=PER
// RUN: amp-opt %s -amp-data-parallel="world-size=2 reduce-precision=f16" | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s -amp-data-parallel="world-size=2 reduce-precision=bf16" | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s -amp-data-parallel="world-size=2 mpi=mpich" | FileCheck %s --check-prefix=MPICH
// RUN: amp-opt %s -amp-data-parallel="world-size=2 test-injection=true" | FileCheck %s --check-prefix=HOOK
// RUN: amp-opt %s -amp-data-parallel=world-size=1 | FileCheck %s --check-prefix=SINGLE
// An existing dlti.map keeps its entries.
// RUN: amp-opt %s -amp-data-parallel=world-size=2 | FileCheck %s --check-prefix=DLTI

// One all-reduce per gradient (no bucket, no copy), plus the loss's.
// PER: attributes {amp.data_parallel = {bucket = "per-gradient", reduce_precision = "f32", world_size = 2 : i64}
// PER: shard.all_reduce {{.*}} : tensor<1xf32> -> tensor<1xf32>
// PER-NOT: tensor.insert_slice
// PER: %[[P0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6xf32>)
// PER: shard.all_reduce %[[P0]] {{.*}} : tensor<6xf32> -> tensor<6xf32>
// PER: %[[P1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3xf32>)
// PER: shard.all_reduce %[[P1]] {{.*}} : tensor<3xf32> -> tensor<3xf32>
// PER-NOT: shard.all_reduce
// PER: amp.grad

// f16: each rank's g / N is rounded to f16 before the sum, the sum is
// rounded to f16 after it (every gradient), the wire stays f32.
// F16: reduce_precision = "f16"
// F16: linalg.generic
// F16: %[[D:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// F16-NEXT: %[[H:.*]] = arith.truncf %[[D]] : f32 to f16
// F16-NEXT: arith.extf %[[H]] : f16 to f32
// F16: shard.all_reduce {{.*}} : tensor<9xf32> -> tensor<9xf32>
// F16: linalg.generic
// F16: arith.truncf %{{.*}} : f32 to f16
// F16: linalg.generic
// F16: arith.truncf %{{.*}} : f32 to f16
// F16: arith.mulf
// F16: amp.grad
// BF16: reduce_precision = "bf16"
// BF16: arith.truncf %{{.*}} : f32 to bf16
// BF16: shard.all_reduce {{.*}} : tensor<9xf32>

// MPICH: module attributes {dlti.map = #dlti.map<"test.keep" = 1 : i32, "MPI:Implementation" = "MPICH">}

// DLTI: module attributes {dlti.map = #dlti.map<"test.keep" = 1 : i32, "MPI:Implementation" = "OpenMPI">}

// The test hook: the step asks amp_dp_test_injection() each call; 1 adds
// +inf to this rank's first gradient, 2 NaN to its loss, before the
// reductions (else -0.0, which changes nothing).
// HOOK: func.func private @amp_dp_test_injection() -> i32
// HOOK-LABEL: func.func @step
// HOOK-NEXT: %[[CODE:.*]] = call @amp_dp_test_injection() : () -> i32
// HOOK: %[[TWO:.*]] = arith.constant 2 : i32
// HOOK: %[[ISNAN:.*]] = arith.cmpi eq, %[[CODE]], %[[TWO]] : i32
// HOOK: %[[LADD:.*]] = arith.select %[[ISNAN]], %{{.*}}, %{{.*}} : f32
// HOOK: arith.addf %{{.*}}, %[[LADD]] : f32
// HOOK: %[[ONE:.*]] = arith.constant 1 : i32
// HOOK: %[[ISINF:.*]] = arith.cmpi eq, %[[CODE]], %[[ONE]] : i32
// HOOK: %[[GADD:.*]] = arith.select %[[ISINF]], %{{.*}}, %{{.*}} : f32
// HOOK: %[[GADDT:.*]] = tensor.from_elements %[[GADD]] : tensor<f32>
// HOOK: linalg.generic {{.*}} ins(%{{.*}}, %[[GADDT]] : tensor<6xf32>, tensor<f32>)
// HOOK: shard.all_reduce

// One rank: the same rewrite (mean = sum / 1), a grid of one.
// SINGLE: shard.grid @amp_data_parallel(shape = 1)
// SINGLE: arith.constant 1.000000e+00 : f32
module attributes {dlti.map = #dlti.map<"test.keep" = 1 : i32>} {
func.func @step(%w: tensor<2x3xf32> {amp.role = "param"},
                %b: tensor<3xf32> {amp.role = "param"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<2x3xf32> {amp.updates = 0 : i64},
        tensor<3xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %b[0] [1] [1] : tensor<3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<2x3xf32>
  %db = tensor.splat %s : tensor<3xf32>
  %gw = amp.grad %dw, %w : tensor<2x3xf32>
  %gb = amp.grad %db, %b : tensor<3xf32>
  %w1 = arith.subf %w, %gw : tensor<2x3xf32>
  %b1 = arith.subf %b, %gb : tensor<3xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<2x3xf32>, tensor<3xf32>
}
}
