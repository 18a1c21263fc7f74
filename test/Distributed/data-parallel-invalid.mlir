// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-data-parallel="world-size=2 test-injection=true"
// RUN: not amp-opt %s -split-input-file -amp-data-parallel 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not amp-opt %s -split-input-file -amp-data-parallel=world-size=-3 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: amp-data-parallel: world-size={{0|-3}}: give the number of ranks (>= 1) the step runs on; amp-run passes MPI's world size
// RUN: echo 'func.func @f() { return }' | not amp-opt -amp-data-parallel=world-size=2 2>&1 | FileCheck %s --check-prefix=NOSTEP
// NOSTEP: error: amp-data-parallel: no func.func with the amp.train_step attribute

// Twice.
// expected-error @+1 {{training step 'twice' is already data-parallel (it has amp.data_parallel); run amp-data-parallel once}}
func.func @twice(%w: tensor<4xf32> {amp.role = "param"},
                 %x: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step, amp.data_parallel = {world_size = 2 : i64}} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// amp.grad inside a loop would all-reduce once per iteration.
func.func @grad_in_loop(%w: tensor<4xf32> {amp.role = "param"},
                        %x: tensor<2x4xf32> {amp.role = "input"},
                        %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %w) -> (tensor<4xf32>) {
    // expected-error @+1 {{amp.grad must be at the top level of the training step (after any micro-batch loop), so that the gradients are all-reduced once per optimizer step, not per micro-batch}}
    %gw = amp.grad %dw, %w : tensor<4xf32>
    %n = arith.subf %acc, %gw : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %loss, %r : tensor<f32>, tensor<4xf32>
}

// -----

// A dynamic gradient: the bucket needs static sizes.
func.func @dynamic(%w: tensor<?xf32> {amp.role = "param"},
                   %x: tensor<2x4xf32> {amp.role = "input"},
                   %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<?xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<?xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %w, %c0 : tensor<?xf32>
  %dw = tensor.splat %s[%n] : tensor<?xf32>
  // expected-error @+1 {{amp-data-parallel reduces static f32 gradients (those of fp32 master weights); gradient #0 has type 'tensor<?xf32>'}}
  %gw = amp.grad %dw, %w : tensor<?xf32>
  %w1 = arith.subf %w, %gw : tensor<?xf32>
  return %loss, %w1 : tensor<f32>, tensor<?xf32>
}

// -----

// A gradient computed from another parameter's gradient after the step
// consumed it: no single point has every gradient before any is used.
func.func @chained(%w: tensor<4xf32> {amp.role = "param"},
                   %b: tensor<4xf32> {amp.role = "param"},
                   %x: tensor<2x4xf32> {amp.role = "input"},
                   %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<4xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  // expected-error @+1 {{this op computes a value amp-data-parallel all-reduces (a gradient or the loss) from a gradient the step has already consumed; compute every gradient and the loss before the gradients are used}}
  %db = arith.addf %dw, %gw : tensor<4xf32>
  %gb = amp.grad %db, %b : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  %b1 = arith.subf %b, %gb : tensor<4xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The grid's name is taken.
// expected-error @+1 {{the symbol @amp_data_parallel is taken; amp-data-parallel names its process grid so}}
func.func private @amp_data_parallel()
func.func @taken(%w: tensor<4xf32> {amp.role = "param"},
                 %x: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A grid of another size.
// expected-error @+1 {{shard.grid @amp_data_parallel has another shape than world-size=2}}
shard.grid @amp_data_parallel(shape = 4)
func.func @resized(%w: tensor<4xf32> {amp.role = "param"},
                   %x: tensor<2x4xf32> {amp.role = "input"},
                   %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The test hook's name is taken by a function of another type.
// expected-error @+1 {{the symbol @amp_dp_test_injection must be a func.func of type '() -> i32' (amp-data-parallel's test hook)}}
func.func private @amp_dp_test_injection() -> f32
func.func @hook(%w: tensor<4xf32> {amp.role = "param"},
                %x: tensor<2x4xf32> {amp.role = "input"},
                %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The module says MPICH, the pass was asked for Open MPI.
// expected-error @+1 {{the module's DLTI entry "MPI:Implementation" = "MPICH" conflicts with mpi=OpenMPI}}
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
func.func @abi(%w: tensor<4xf32> {amp.role = "param"},
               %x: tensor<2x4xf32> {amp.role = "input"},
               %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
}

// -----

// A loss-scaled step (its markers consumed) whose amp.unscale_and_check is
// gone: nothing says where the gradients are consumed.
// expected-error @+1 {{training step 'no_check' has no amp.grad markers and 0 amp.unscale_and_check ops; amp-data-parallel needs the markers (before amp-loss-scaling) or the one top-level amp.unscale_and_check that amp-loss-scaling creates}}
func.func @no_check(%w: tensor<4xf32> {amp.role = "param"},
                    %x: tensor<2x4xf32> {amp.role = "input"},
                    %y: tensor<2xi32> {amp.role = "label"},
                    %k: tensor<i32> {amp.role = "consecutive_skips"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64},
        tensor<i32> {amp.role = "consecutive_skips", amp.updates = 3 : i64},
        tensor<i1> {amp.role = "found_inf"})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %f = arith.constant dense<false> : tensor<i1>
  return %loss, %w, %k, %f : tensor<f32>, tensor<4xf32>, tensor<i32>, tensor<i1>
}
