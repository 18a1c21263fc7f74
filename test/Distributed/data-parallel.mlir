// RUN: amp-opt %s -split-input-file -amp-data-parallel=world-size=4 | FileCheck %s

// The flat bucket: the loss in one all-reduce, both gradients in another,
// each rank's share g / N written into its slice of one 9-element bucket;
// the poison (a factor 1.0, or NaN when the mean loss is not finite) goes into the
// smaller gradient; the reduced gradients replace the amp.grad operands.
// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK: shard.grid @amp_data_parallel(shape = 4)
// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W:[^:]*]]: tensor<2x3xf32> {amp.role = "param"}
// CHECK-SAME: %[[B:[^:]*]]: tensor<3xf32> {amp.role = "param"}
// CHECK-SAME: attributes {amp.data_parallel = {bucket = "flat", reduce_precision = "f32", world_size = 4 : i64}, amp.train_step}
// CHECK: %[[LOSS:.*]] = tensor.extract_slice %[[B]][0] [1] [1]
// CHECK: %[[DW:.*]] = tensor.splat %{{.*}} : tensor<2x3xf32>
// CHECK: %[[DB:.*]] = tensor.splat %{{.*}} : tensor<3xf32>
// CHECK: %[[LV:.*]] = tensor.extract %[[LOSS]][] : tensor<f32>
// CHECK: %[[N:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: %[[LN:.*]] = arith.divf %[[LV]], %[[N]] : f32
// CHECK: %[[L1:.*]] = tensor.from_elements %[[LN]] : tensor<1xf32>
// CHECK: %[[LSUM:.*]] = shard.all_reduce %[[L1]] on @amp_data_parallel grid_axes = [0] : tensor<1xf32> -> tensor<1xf32>
// CHECK: %[[LMEAN:.*]] = tensor.extract %[[LSUM]][%{{.*}}] : tensor<1xf32>
// CHECK: %[[MEAN:.*]] = tensor.from_elements %[[LMEAN]] : tensor<f32>
// CHECK: %[[ABS:.*]] = math.absf %[[LMEAN]] : f32
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf one, %[[ABS]], %[[INF]] : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[PV:.*]] = arith.select %[[FINITE]], %[[ONE]], %[[NAN]] : f32
// CHECK: %[[POISON:.*]] = tensor.from_elements %[[PV]] : tensor<f32>
// CHECK: %[[DWF:.*]] = tensor.collapse_shape %[[DW]] {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[BUCKET:.*]] = tensor.empty() : tensor<9xf32>
// CHECK: %[[SW:.*]] = tensor.extract_slice %[[BUCKET]][0] [6] [1]
// CHECK: %[[PW:.*]] = linalg.generic {{.*}} ins(%[[DWF]] : tensor<6xf32>) outs(%[[SW]] : tensor<6xf32>)
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[B1:.*]] = tensor.insert_slice %[[PW]] into %[[BUCKET]][0] [6] [1]
// CHECK: %[[SB:.*]] = tensor.extract_slice %[[B1]][6] [3] [1]
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} ins(%[[DB]] : tensor<3xf32>) outs(%[[SB]] : tensor<3xf32>)
// CHECK: %[[B2:.*]] = tensor.insert_slice %[[PB]] into %[[B1]][6] [3] [1]
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[B2]] on @amp_data_parallel grid_axes = [0] : tensor<9xf32> -> tensor<9xf32>
// CHECK: %[[RW:.*]] = tensor.extract_slice %[[SUM]][0] [6] [1]
// CHECK: %[[RB:.*]] = tensor.extract_slice %[[SUM]][6] [3] [1]
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[RW]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK: %[[GB:.*]] = linalg.generic {{.*}} ins(%[[RB]], %[[POISON]] : tensor<3xf32>, tensor<f32>)
// CHECK: arith.mulf
// CHECK-NOT: shard.all_reduce
// CHECK: amp.grad %[[GW]], %[[W]] : tensor<2x3xf32>
// CHECK: amp.grad %[[GB]], %[[B]] : tensor<3xf32>
// CHECK: return %[[MEAN]],
// The eval step needs no communication: unchanged.
// CHECK-LABEL: func.func @eval
// CHECK-NOT: shard
// CHECK-NOT: amp.data_parallel
// CHECK: return
#map = affine_map<(i, j) -> (i, j)>
func.func @step(%w: tensor<2x3xf32> {amp.role = "param"},
                %b: tensor<3xf32> {amp.role = "param"},
                %v: tensor<2x3xf32> {amp.role = "opt_state"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<2x3xf32> {amp.updates = 0 : i64},
        tensor<3xf32> {amp.updates = 1 : i64}, tensor<2x3xf32> {amp.updates = 2 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %b[0] [1] [1] : tensor<3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<2x3xf32>
  %db = tensor.splat %s : tensor<3xf32>
  %gw = amp.grad %dw, %w : tensor<2x3xf32>
  %gb = amp.grad %db, %b : tensor<3xf32>
  %mu = arith.constant dense<0.9> : tensor<2x3xf32>
  %vm = arith.mulf %v, %mu : tensor<2x3xf32>
  %v1 = arith.addf %vm, %gw : tensor<2x3xf32>
  %w1 = arith.subf %w, %v1 : tensor<2x3xf32>
  %b1 = arith.subf %b, %gb : tensor<3xf32>
  return %loss, %w1, %b1, %v1 : tensor<f32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>
}
func.func @eval(%w: tensor<2x3xf32> {amp.role = "param"},
                %b: tensor<3xf32> {amp.role = "param"},
                %x: tensor<2x2xf32> {amp.role = "input"})
    -> (tensor<2x3xf32> {amp.role = "logits"}) attributes {amp.eval_step} {
  %e = tensor.empty() : tensor<2x3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %l : tensor<2x3xf32>
}

// -----

// An update interleaved with the markers (w's update before b's amp.grad):
// the reductions go after the last gradient, and what uses the gradients
// moves after them, in its order.
// CHECK-LABEL: func.func @interleaved
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {amp.role = "param"}
// CHECK: %[[DB:.*]] = tensor.splat %{{.*}} : tensor<2xf32>
// CHECK: shard.all_reduce {{.*}} : tensor<1xf32>
// CHECK: %[[SUM:.*]] = shard.all_reduce {{.*}} : tensor<6xf32>
// CHECK: %[[GW:.*]] = amp.grad %{{.*}}, %[[W]] : tensor<4xf32>
// CHECK-NEXT: %[[W1:.*]] = arith.subf %[[W]], %[[GW]] : tensor<4xf32>
// CHECK-NEXT: amp.grad %{{.*}}, %{{.*}} : tensor<2xf32>
// CHECK: return %{{.*}}, %[[W1]],
func.func @interleaved(%w: tensor<4xf32> {amp.role = "param"},
                       %b: tensor<2xf32> {amp.role = "param"},
                       %x: tensor<2x4xf32> {amp.role = "input"},
                       %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<2xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  %db = tensor.splat %s : tensor<2xf32>
  %gb = amp.grad %db, %b : tensor<2xf32>
  %b1 = arith.subf %b, %gb : tensor<2xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4xf32>, tensor<2xf32>
}

// -----

// Gradient accumulation: the markers sit after the micro-batch loop, so the
// gradients are all-reduced once per optimizer step, after the loop (DDP's
// no_sync on the micro-batches before the last), and so is the summed loss.
// CHECK-LABEL: func.func @micro_batches
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK-NOT: shard.all_reduce
// CHECK: scf.yield
// CHECK: tensor.extract %[[R]]#1[]
// CHECK: shard.all_reduce {{.*}} : tensor<1xf32>
// CHECK: linalg.generic {{.*}} ins(%[[R]]#0 : tensor<4xf32>)
// CHECK: shard.all_reduce {{.*}} : tensor<4xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: amp.grad
#id = affine_map<(i) -> (i)>
#red = affine_map<(i) -> ()>
func.func @micro_batches(%w: tensor<4xf32> {amp.role = "param"},
                         %x: tensor<8x4xf32> {amp.role = "input"},
                         %y: tensor<8xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %lzero = arith.constant dense<0.0> : tensor<f32>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%gacc = %zero, %lacc = %lzero)
      -> (tensor<4xf32>, tensor<f32>) {
    %l = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
        ins(%w : tensor<4xf32>) outs(%lzero : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %seed = amp.loss_grad %l : tensor<f32>
    %sv = tensor.extract %seed[] : tensor<f32>
    %ss = tensor.splat %sv : tensor<4xf32>
    %g = arith.mulf %ss, %w : tensor<4xf32>
    %gnext = arith.addf %gacc, %g : tensor<4xf32>
    %lnext = arith.addf %lacc, %l : tensor<f32>
    scf.yield %gnext, %lnext : tensor<4xf32>, tensor<f32>
  }
  %gw = amp.grad %r#0, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %r#1, %w1 : tensor<f32>, tensor<4xf32>
}
