// RUN: amp-opt %s --split-input-file --amp-verify-training-step --verify-diagnostics | FileCheck %s
// The backward must be linear in the seed (homogeneous of degree 1: loss
// scaling multiplies the seed by S and unscales by 1/S; shared REFERENCE.md).
// Each negative case breaks that in one op and gets a located error; the
// positive ones are the forms real backward passes take.

// -----

// Clip by value before amp.grad (the README promises this is rejected).
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @clip_by_value(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %cmax = arith.constant dense<1.0e-3> : tensor<4xf32>
  // expected-error @+1 {{this op takes the maximum or minimum of a value derived from the backward seed against a term that does not depend on the seed (clipping or thresholding the scaled backward: under loss scaling the threshold becomes t / S); clip the unscaled gradients, the results of `amp.grad`}}
  %dwc = arith.minimumf %dw, %cmax : tensor<4xf32>
  %g = amp.grad %dwc, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A cmpf + select clamp inside a generic body.
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @clamp_in_body(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %dwc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%dw : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.constant 1.0e-3 : f32
    // expected-error @+1 {{this op compares a value derived from the backward seed against a term that does not depend on the seed}}
    %big = arith.cmpf ogt, %a, %t : f32
    %c = arith.select %big, %t, %a : f32
    linalg.yield %c : f32
  } -> tensor<4xf32>
  %g = amp.grad %dwc, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// g * g before amp.grad.
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @square(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  // expected-error @+1 {{this op multiplies two values derived from the backward seed: the result grows with S^2}}
  %sq = arith.mulf %dw, %dw : tensor<4xf32>
  %g = amp.grad %sq, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// 1 / g.
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @reciprocal(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{this op divides by a value derived from the backward seed}}
  %r = arith.divf %one, %dw : tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A non-linear function of the backward.
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @sqrt(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  // expected-error @+1 {{this op (math.sqrt) applies a non-linear function to a value derived from the backward seed}}
  %r = math.sqrt %dw : tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A gradient derived from the seed but not proportional to it (signSGD's
// sign of the scaled backward: unscaling would divide it by S).
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @normalized(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %ones = arith.constant dense<1.0> : tensor<4xf32>
  %minus = arith.constant dense<-1.0> : tensor<4xf32>
  %up = arith.cmpf ogt, %dw, %zeros : tensor<4xf32>
  %n = arith.select %up, %ones, %minus : tensor<4xi1>, tensor<4xf32>
  // expected-error @+1 {{this gradient is computed from the backward seed but does not grow with it (a normalisation g / |g|, a product with zero, a constant)}}
  %g = amp.grad %n, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A select between the backward and a seed-free non-zero value.
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @decay_select(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %pos = arith.constant dense<true> : tensor<4xi1>
  // expected-error @+1 {{this 'arith.select' in the backward combines a value derived from the backward seed}}
  %r = arith.select %pos, %dw, %w : tensor<4xi1>, tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A backward that goes through a call (the callee could do anything).
func.func private @helper(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @call(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-note @+1 {{backward seed here}}
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  // expected-error @+1 {{this op (func.call) applies a call (amp does not follow the backward into the callee; inline it, e.g. with --inline)}}
  %r = func.call @helper(%dw, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// Linear forms real backward passes take: a ReLU mask of the backward by a
// comparison of forward values, max/min and comparisons of two backward
// values, products and quotients with forward values, a select with zero.
// CHECK-LABEL: func.func @linear_forms
#sum = affine_map<(b, i) -> ()>
#x = affine_map<(b, i) -> (b, i)>
#w = affine_map<(b, i) -> (i)>
#id = affine_map<(i) -> (i)>
func.func @linear_forms(%w: tensor<4xf32> {amp.role = "param"},
                 %xs: tensor<2x4xf32> {amp.role = "input"},
                 %y: tensor<2xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#x, #w, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%xs, %w : tensor<2x4xf32>, tensor<4xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %dw = linalg.generic {indexing_maps = [#x, #sum, #w], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %seed : tensor<2x4xf32>, tensor<f32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %p = arith.mulf %a, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %pos = arith.cmpf ogt, %w, %w : tensor<4xf32>
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %relu = arith.select %pos, %dw, %zeros : tensor<4xi1>, tensor<4xf32>
  %m = arith.maximumf %relu, %dw : tensor<4xf32>
  %c = arith.cmpf olt, %m, %dw : tensor<4xf32>
  %s = arith.select %c, %m, %dw : tensor<4xi1>, tensor<4xf32>
  %q = arith.divf %s, %w : tensor<4xf32>
  %n = arith.negf %q : tensor<4xf32>
  %a = math.absf %n : tensor<4xf32>
  %r = arith.mulf %a, %w : tensor<4xf32>
  %g = amp.grad %r, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A micro-batch accumulator that starts from the weights instead of zero:
// under loss scaling the weights would be divided by S with the sum.
#id = affine_map<(i) -> (i)>
#red = affine_map<(i) -> ()>
func.func @accumulator_from_weights(%w: tensor<4xf32> {amp.role = "param"},
                         %x: tensor<8x4xf32> {amp.role = "input"},
                         %y: tensor<8xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %lzero = arith.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{this 'scf.for' in the backward combines a value derived from the backward seed (multiplied by the loss scale S under loss scaling) with the initial value of iter_arg #0 (a micro-batch accumulator of scaled gradients must start from zero)}}
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%gacc = %w, %lacc = %lzero)
      -> (tensor<4xf32>, tensor<f32>) {
    // loss_i = sum(w * w) (a stand-in forward), dW_i = seed * w
    %e = tensor.empty() : tensor<f32>
    %l = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
        ins(%w : tensor<4xf32>) outs(%lzero : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // expected-note @+1 {{backward seed here}}
    %seed = amp.loss_grad %l : tensor<f32>
    %sv = tensor.extract %seed[] : tensor<f32>
    %ss = tensor.splat %sv : tensor<4xf32>
    %g = arith.mulf %ss, %w : tensor<4xf32>
    %fresh = tensor.empty() : tensor<4xf32>
    %gnext = linalg.add ins(%gacc, %g : tensor<4xf32>, tensor<4xf32>) outs(%fresh : tensor<4xf32>) -> tensor<4xf32>
    %lnext = arith.addf %lacc, %l : tensor<f32>
    scf.yield %gnext, %lnext : tensor<4xf32>, tensor<f32>
  }
  %gw = amp.grad %r#0, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %r#1, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// A dynamic batch: the backward reads the batch size off a tensor derived
// from the seed (tensor.dim reads the shape, not the scaled elements).
// CHECK-LABEL: func.func @dynamic_batch_dim
func.func @dynamic_batch_dim(%w: tensor<4xf32> {amp.role = "param"},
                    %x: tensor<?x4xf32> {amp.role = "input"},
                    %y: tensor<?xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %eb = tensor.empty(%n) : tensor<?xf32>
  %fb = linalg.fill ins(%zero : f32) outs(%eb : tensor<?xf32>) -> tensor<?xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<?x4xf32>, tensor<4xf32>) outs(%fb : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e0 = tensor.empty() : tensor<f32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<(b) -> (b)>, affine_map<(b) -> ()>], iterator_types = ["reduction"]}
      ins(%rows : tensor<?xf32>) outs(%l0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  // d rows = broadcast seed, sized from the seed-derived tensor's shape.
  %eds = tensor.empty(%n) : tensor<?xf32>
  %drows = linalg.generic {indexing_maps = [affine_map<(b) -> ()>, affine_map<(b) -> (b)>], iterator_types = ["parallel"]}
      ins(%seed : tensor<f32>) outs(%eds : tensor<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %m = tensor.dim %drows, %c0 : tensor<?xf32>
  %ew = tensor.empty() : tensor<4xf32>
  %g0 = linalg.fill ins(%zero : f32) outs(%ew : tensor<4xf32>) -> tensor<4xf32>
  %xs = tensor.extract_slice %x[0, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %dw = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b)>, affine_map<(b, i) -> (i)>], iterator_types = ["reduction", "parallel"]}
      ins(%xs, %drows : tensor<?x4xf32>, tensor<?xf32>) outs(%g0 : tensor<4xf32>) {
  ^bb0(%a: f32, %d: f32, %acc: f32):
    %p = arith.mulf %a, %d : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %g = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
