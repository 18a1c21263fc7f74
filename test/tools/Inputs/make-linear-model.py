# Writes a small model in torch-mlir's export form: forward(x: 1x784) = x W + b
# with W (784x10) and b (10) as dense_resource constants whose blobs (seeded
# N(0, 0.01) / zeros, little-endian f32 after a 4-byte alignment header)
# are in the file's dialect_resources section, as torch-mlir prints them.
import sys
import numpy as np

rng = np.random.default_rng(0)
w = (rng.standard_normal((784, 10)) * 0.01).astype("<f4")
b = np.zeros(10, "<f4")


def blob(a):
    return "0x04000000" + a.tobytes().hex().upper()


print("""// A linear classifier of 28 x 28 images in torch-mlir's export form.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @forward(%x: tensor<1x784xf32>) -> tensor<1x10xf32> {
    %w = arith.constant dense_resource<fc.weight> : tensor<784x10xf32>
    %b = arith.constant dense_resource<fc.bias> : tensor<10xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x10xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10xf32>) -> tensor<1x10xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x10xf32>) outs(%f : tensor<1x10xf32>) -> tensor<1x10xf32>
    %y = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x10xf32>, tensor<10xf32>) outs(%e : tensor<1x10xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x10xf32>
    return %y : tensor<1x10xf32>
  }
}
""", end="")
if len(sys.argv) < 2 or sys.argv[1] != "--no-blobs":
    print("""
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "%s",
      fc.bias: "%s"
    }
  }
#-}""" % (blob(w), blob(b)))
