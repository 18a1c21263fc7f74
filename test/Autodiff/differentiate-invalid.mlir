// Unsupported cases of the adjoint rules: each is a located error that says
// what to do, and the pass fails (no @f_grad is left behind).
// RUN: amp-opt %s -split-input-file -amp-differentiate -verify-diagnostics

func.func @no_rule(%x: tensor<3xf64>) -> tensor<f64> {
  // expected-error @below {{'math.atan' has no adjoint rule, so amp-differentiate cannot send the cotangent of its results to its operands; rewrite it with ops that have rules (docs/autodiff.md lists them) or give it a ReverseModeOpInterface external model (lib/amp/Autodiff/Implementations/)}}
  %a = math.atan %x : tensor<3xf64>
  %s = tensor.extract_slice %a[0] [1] [1] : tensor<3xf64> to tensor<f64>
  return %s : tensor<f64>
}

// -----

// An op without a rule inside a generic body is reported at that op.
func.func @no_rule_in_body(%x: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    // expected-error @below {{'arith.remf' has no adjoint rule}}
    %r = arith.remf %a, %a : f64
    %s = arith.addf %acc, %r : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func @product_reduction(%x: tensor<3xf64>) -> tensor<f64> {
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%one : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{amp-differentiate: output #0 of this reduction is combined with 'arith.mulf'; reductions are differentiated when the body adds the output's block argument once (arith.addf / subf) or combines it once with maximumf / maxnumf, minimumf / minnumf or cmpf + select, with values that do not depend on any output}}
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.mulf %acc, %a : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func @accumulator_read_twice(%x: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{output #0 of this reduction adds or subtracts its block argument other than once, with coefficient +1}}
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.mulf %acc, %a : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func @accumulator_scaled(%x: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{output #0 of this reduction yields a value that is not combined with the output's block argument}}
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.mulf %acc, %two : f64
    %s = arith.addf %m, %a : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func @max_reading_accumulator(%x: tensor<3xf64>) -> tensor<f64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%ninf : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{output #0 of this reduction reads the output's block argument outside the combining op}}
  %l = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.maximumf %a, %acc : f64
    %n = arith.maximumf %acc, %m : f64
    linalg.yield %n : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// -----

// Output 0 accumulates a product with output 1's running value.
func.func @coupled_outputs(%x: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{output #0 of this reduction accumulates a value that depends on an output}}
  %l:2 = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> ()>, affine_map<(d) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3xf64>) outs(%i, %i : tensor<f64>, tensor<f64>) {
  ^bb0(%a: f64, %acc0: f64, %acc1: f64):
    %m = arith.mulf %acc1, %a : f64
    %s0 = arith.addf %acc0, %m : f64
    %s1 = arith.addf %acc1, %a : f64
    linalg.yield %s0, %s1 : f64, f64
  } -> (tensor<f64>, tensor<f64>)
  return %l#0 : tensor<f64>
}

// -----

func.func @scaled_index(%x: tensor<6xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e3 = tensor.empty() : tensor<3xf64>
  // expected-error @below {{amp-differentiate: operand #0 has the indexing map affine_map<(d0) -> (d0 * 2)>, whose result #0 is neither a dimension nor a window; operands are differentiated when every result is a dimension, a constant position or a convolution window s * d_out + d * d_kernel (d_out parallel, d_kernel a reduction)}}
  %even = linalg.generic {indexing_maps = [affine_map<(d) -> (d * 2)>, affine_map<(d) -> (d)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xf64>) outs(%e3 : tensor<3xf64>) {
  ^bb0(%a: f64, %o: f64):
    linalg.yield %a : f64
  } -> tensor<3xf64>
  %l = linalg.reduce { arith.addf } ins(%even : tensor<3xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @diagonal_band(%x: tensor<5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e2 = tensor.empty() : tensor<3x3xf64>
  // expected-error @below {{whose window #0 does not pair a parallel with a reduction dimension}}
  %band = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5xf64>) outs(%e2 : tensor<3x3xf64>) {
  ^bb0(%a: f64, %o: f64):
    linalg.yield %a : f64
  } -> tensor<3x3xf64>
  %l = linalg.reduce { arith.addf } ins(%band : tensor<3x3xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}

// -----

func.func @two_windows(%x: tensor<5xf64>, %y: tensor<5xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e3 = tensor.empty() : tensor<3xf64>
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  // expected-error @below {{amp-differentiate: operand #0 and another operand are both read through convolution windows; only one windowed operand is differentiated}}
  %c = linalg.generic {indexing_maps = [affine_map<(o, k) -> (o + k)>, affine_map<(o, k) -> (o + k)>, affine_map<(o, k) -> (k)>, affine_map<(o, k) -> (o)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y, %w : tensor<5xf64>, tensor<5xf64>, tensor<3xf64>) outs(%z3 : tensor<3xf64>) {
  ^bb0(%a: f64, %b: f64, %k: f64, %acc: f64):
    %m = arith.mulf %a, %b : f64
    %n = arith.mulf %m, %k : f64
    %s = arith.addf %acc, %n : f64
    linalg.yield %s : f64
  } -> tensor<3xf64>
  %l = linalg.reduce { arith.addf } ins(%c : tensor<3xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @window_and_index(%x: tensor<5xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e3 = tensor.empty() : tensor<3xf64>
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  // expected-error @below {{amp-differentiate: operand #0 is read through a convolution window and the body reads loop indices (linalg.index); only one of the two is differentiated}}
  %c = linalg.generic {indexing_maps = [affine_map<(o, k) -> (o + k)>, affine_map<(o, k) -> (k)>, affine_map<(o, k) -> (o)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<5xf64>, tensor<3xf64>) outs(%z3 : tensor<3xf64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %m = arith.mulf %a, %b : f64
    %n = arith.mulf %m, %kf : f64
    %s = arith.addf %acc, %n : f64
    linalg.yield %s : f64
  } -> tensor<3xf64>
  %l = linalg.reduce { arith.addf } ins(%c : tensor<3xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @dynamic_window(%x: tensor<1x1x?x5xf64>, %w: tensor<1x1x2x2xf64>, %out: tensor<1x1x?x4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  // expected-error @below {{amp-differentiate: the convolution window of operand #0 has a dynamic size; windows (kernel, output and input extents) must be static}}
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x?x5xf64>, tensor<1x1x2x2xf64>) outs(%out : tensor<1x1x?x4xf64>) -> tensor<1x1x?x4xf64>
  %l = linalg.reduce { arith.addf } ins(%c : tensor<1x1x?x4xf64>) outs(%i : tensor<f64>) dimensions = [0, 1, 2, 3]
  return %l : tensor<f64>
}

// -----

func.func @gather_scaled(%table: tensor<4x2xf64>, %ids: tensor<3xindex>, %s: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e2 = tensor.empty() : tensor<3x2xf64>
  // expected-error @below {{amp-differentiate: this gather (tensor.extract of a differentiated tensor from outside the body) also reads the differentiated operand #1 in its body; only a body that reads differentiated values through its gathered elements alone (an embedding lookup, bilinear upsampling, adaptive average pooling) is differentiated}}
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids, %s : tensor<3xindex>, tensor<3xf64>) outs(%e2 : tensor<3x2xf64>) {
  ^bb0(%id: index, %sc: f64, %o: f64):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<4x2xf64>
    %m = arith.mulf %v, %sc : f64
    linalg.yield %m : f64
  } -> tensor<3x2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<3x2xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}

// -----

func.func @gather_index_from_float(%table: tensor<4x2xf64>, %pos: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e2 = tensor.empty() : tensor<3x2xf64>
  // expected-error @below {{amp-differentiate: this gather (tensor.extract of a differentiated tensor from outside the body) also reads the differentiated operand #0 in its body; only a body that reads differentiated values through its gathered elements alone (an embedding lookup, bilinear upsampling, adaptive average pooling) is differentiated}}
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%pos : tensor<3xf64>) outs(%e2 : tensor<3x2xf64>) {
  ^bb0(%p: f64, %o: f64):
    %k = arith.fptosi %p : f64 to i64
    %id = arith.index_cast %k : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<4x2xf64>
    linalg.yield %v : f64
  } -> tensor<3x2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<3x2xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}

// -----

func.func @pad_computed_in_region(%x: tensor<2xf64>, %v: tensor<f64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %s = tensor.extract %v[] : tensor<f64>
  // expected-error @below {{amp-differentiate: this tensor.pad computes its padding value in its region from a differentiated value; only a padding value defined outside the region is differentiated}}
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%k: index):
    %twice = arith.addf %s, %s : f64
    tensor.yield %twice : f64
  } : tensor<2xf64> to tensor<4xf64>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<4xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @dynamic_loop(%x: tensor<2xf64>, %n: index) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{amp-differentiate: this scf.for has no constant trip count; loops are differentiated by unrolling them, which needs constant bounds and a positive constant step}}
  %y = scf.for %k = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<2xf64>) {
    %m = arith.mulf %h, %h : tensor<2xf64>
    scf.yield %m : tensor<2xf64>
  }
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @long_loop(%x: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5000 = arith.constant 5000 : index
  // expected-error @below {{amp-differentiate: this scf.for runs 5000 iterations; loops are differentiated by unrolling them, up to 4096 iterations}}
  %y = scf.for %k = %c0 to %c5000 step %c1 iter_args(%h = %x) -> (tensor<2xf64>) {
    %m = arith.mulf %h, %h : tensor<2xf64>
    scf.yield %m : tensor<2xf64>
  }
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

// Nested loops multiply: 1000 x 1000 iterations are each under the
// per-loop limit, but the nest would unroll into millions of ops.
func.func @nested_loops(%x: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  // expected-error @below {{amp-differentiate: unrolling this scf.for and the loops inside it makes more than 262144 ops (nested trip counts multiply)}}
  %y = scf.for %k = %c0 to %c1000 step %c1 iter_args(%h = %x) -> (tensor<2xf64>) {
    %z = scf.for %j = %c0 to %c1000 step %c1 iter_args(%g = %h) -> (tensor<2xf64>) {
      %m = arith.mulf %g, %g : tensor<2xf64>
      scf.yield %m : tensor<2xf64>
    }
    scf.yield %z : tensor<2xf64>
  }
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func private @external(tensor<2xf64>) -> tensor<f64>

func.func @call_to_declaration(%x: tensor<2xf64>) -> tensor<f64> {
  // expected-error @below {{amp-differentiate: calls are differentiated by inlining the callee, and @external has no body in this module; define it in the module}}
  %l = func.call @external(%x) : (tensor<2xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func private @branches(%x: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce { arith.addf } ins(%x : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  cf.br ^done
^done:
  return %l : tensor<f64>
}

func.func @call_to_multi_block(%x: tensor<2xf64>) -> tensor<f64> {
  // expected-error @below {{amp-differentiate: calls are differentiated by inlining the callee, and the body of @branches has several blocks; use structured control flow (scf)}}
  %l = func.call @branches(%x) : (tensor<2xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func private @forever(%x: tensor<2xf64>) -> tensor<2xf64> {
  %y = func.call @forever(%x) : (tensor<2xf64>) -> tensor<2xf64>
  return %y : tensor<2xf64>
}

func.func @recursive_call(%x: tensor<2xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %y = func.call @forever(%x) : (tensor<2xf64>) -> tensor<2xf64>
  // expected-error @below {{amp-differentiate: the forward still expands after 64 rounds of inlining and unrolling (a recursive call?)}}
  %l = linalg.reduce { arith.addf } ins(%y : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @gather_reduces(%table: tensor<4x2xf64>, %ids: tensor<3xindex>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %e2 = tensor.empty() : tensor<2xf64>
  // expected-error @below {{amp-differentiate: this gather (tensor.extract of a differentiated tensor from outside the body) also reduces; only a gather over parallel dimensions (an embedding lookup) or a masked sum of gathered elements (adaptive average pooling) is differentiated}}
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%ids : tensor<3xindex>) outs(%e2 : tensor<2xf64>) {
  ^bb0(%id: index, %o: f64):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<4x2xf64>
    linalg.yield %v : f64
  } -> tensor<2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<2xf64>) outs(%i : tensor<f64>) dimensions = [0]
  return %l : tensor<f64>
}

// -----

func.func @gather_index_from_output(%table: tensor<4x2xf64>, %ids: tensor<3xindex>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %init = tensor.empty() : tensor<3x2xf64>
  // expected-error @below {{amp-differentiate: the index of this gather reads the output's block argument; only indices computed from the inputs and linalg.index are differentiated}}
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xindex>) outs(%init : tensor<3x2xf64>) {
  ^bb0(%id: index, %o: f64):
    %k = arith.fptosi %o : f64 to i64
    %r = arith.index_cast %k : i64 to index
    %v = tensor.extract %table[%r, %id] : tensor<4x2xf64>
    linalg.yield %v : f64
  } -> tensor<3x2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<3x2xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}

// -----

func.func @gather_index_from_other_table(%table: tensor<4x2xf64>, %s: tensor<3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %init = tensor.empty() : tensor<3x2xf64>
  // expected-error @below {{amp-differentiate: this gather also reads the differentiated value 'tensor<3xf64>' from outside its body; only the gathered tensor may be differentiated}}
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<3x2xf64>) {
  ^bb0(%o: f64):
    %r = linalg.index 0 : index
    %p = tensor.extract %s[%r] : tensor<3xf64>
    %k = arith.fptosi %p : f64 to i64
    %row = arith.index_cast %k : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%row, %j] : tensor<4x2xf64>
    linalg.yield %v : f64
  } -> tensor<3x2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<3x2xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}

// -----

func.func @gather_index_in_region(%table: tensor<4x2xf64>, %ids: tensor<3xindex>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %init = tensor.empty() : tensor<3x2xf64>
  %rows = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xindex>) outs(%init : tensor<3x2xf64>) {
  ^bb0(%id: index, %o: f64):
    %c3 = arith.constant 3 : index
    %big = arith.cmpi uge, %id, %c3 : index
    // expected-error @below {{amp-differentiate: the index of this gather is computed by an op with side effects or regions; only pure index arithmetic is differentiated}}
    %row = scf.if %big -> (index) {
      scf.yield %c3 : index
    } else {
      scf.yield %id : index
    }
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%row, %j] : tensor<4x2xf64>
    linalg.yield %v : f64
  } -> tensor<3x2xf64>
  %l = linalg.reduce { arith.addf } ins(%rows : tensor<3x2xf64>) outs(%i : tensor<f64>) dimensions = [0, 1]
  return %l : tensor<f64>
}
