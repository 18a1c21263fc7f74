// RUN: amp-opt %s --split-input-file --amp-cpu-predicate-skip-update | FileCheck %s

// Loss scaling's skip region (then: the old state, the step's arguments;
// else: the update; condition: the returned found_inf) becomes the update
// above, then select(found_inf, old, new) per element: no scf.if is left.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[P:.*]]: tensor<4xf32>, %[[G:.*]]: tensor<4xf32>, %[[F:.*]]: tensor<i1>)
// CHECK-NOT: scf.if
// CHECK:     %[[C:.*]] = tensor.extract %[[F]][]
// CHECK:     %[[NEW:.*]] = arith.subf %[[P]], %[[G]] : tensor<4xf32>
// CHECK:     %[[SEL:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[NEW]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:       arith.select %[[C]], %{{.*}}, %{{.*}} : f32
// CHECK:     return %[[SEL]], %[[F]]
func.func @step(%p: tensor<4xf32>, %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<i1>) attributes {amp.train_step} {
  %c = tensor.extract %found[] : tensor<i1>
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %p : tensor<4xf32>
  } else {
    %n = arith.subf %p, %g : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r, %found : tensor<4xf32>, tensor<i1>
}

// -----

// Not the skip region: the condition is not a returned flag, or the
// then-branch computes something, or the function is not a training step.
// CHECK-LABEL: func.func @not_returned
// CHECK: scf.if
func.func @not_returned(%p: tensor<4xf32>, %g: tensor<4xf32>, %found: tensor<i1>)
    -> tensor<4xf32> attributes {amp.train_step} {
  %c = tensor.extract %found[] : tensor<i1>
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %p : tensor<4xf32>
  } else {
    %n = arith.subf %p, %g : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @then_computes
// CHECK: scf.if
func.func @then_computes(%p: tensor<4xf32>, %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<i1>) attributes {amp.train_step} {
  %c = tensor.extract %found[] : tensor<i1>
  %r = scf.if %c -> (tensor<4xf32>) {
    %m = arith.addf %p, %g : tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  } else {
    %n = arith.subf %p, %g : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r, %found : tensor<4xf32>, tensor<i1>
}

// -----

// CHECK-LABEL: func.func @not_a_step
// CHECK: scf.if
func.func @not_a_step(%p: tensor<4xf32>, %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<i1>) {
  %c = tensor.extract %found[] : tensor<i1>
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %p : tensor<4xf32>
  } else {
    %n = arith.subf %p, %g : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r, %found : tensor<4xf32>, tensor<i1>
}
