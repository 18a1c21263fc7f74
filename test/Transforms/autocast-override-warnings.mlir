// allow= is the user's call, but demoting a default-deny op or an op that
// computes an amp.updates result breaks mixed precision's promises (fp32
// reductions, fp32 master weights): each gets a located warning. Found by
// a user trying allow=linalg.generic on the Fashion-MNIST step.
// RUN: amp-opt %s -amp-autocast="allow=linalg.generic" -verify-diagnostics
// Located warnings only: the op is not printed after them.
// RUN: amp-opt %s -amp-autocast="allow=linalg.generic" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: warning: amp-autocast:
// SHORT-NOT: see current operation
// Without the override: no warning at all.
// RUN: sed -e /expected-/d %s | amp-opt -amp-autocast -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: warning

#id = affine_map<(d0) -> (d0)>
#red = affine_map<(d0) -> ()>
func.func @step(%w: tensor<8xf32> {amp.role = "param"},
                %x: tensor<8xf32>) -> (tensor<8xf32> {amp.updates = 0 : i64}, tensor<f32>) {
  %e = tensor.empty() : tensor<8xf32>
  // expected-warning @+1 {{computes a parameter or optimizer-state update (result #0 has amp.updates) in f16: the fp32 master copy is lost}}
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  // expected-warning @+1 {{allow= overrides the deny class of 'linalg.generic'}}
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %u, %sum : tensor<8xf32>, tensor<f32>
}
