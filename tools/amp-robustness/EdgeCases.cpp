//===- EdgeCases.cpp - generated inputs of the classes the corpus missed --===//
//
// generateEdgeCase: one module per seed, of one of the input classes that
// the random-function and training-step generators never produce and that
// broke passes (docs/reliability.md, "Edge cases"):
//   0. training steps with dynamic parameter shapes (tensor<?x?xf32> params)
//   1. dense_resource constants: real blobs (f32 data after the 4-byte
//      alignment header, as torch-mlir writes weights), elided ones, blobs of
//      the wrong size
//   2. huge static shapes whose byte size overflows 64 bits
//      (tensor<4294967296x4294967296xf32>)
//   3. training steps whose gradient mixes seed-derived and seed-free terms
//      (L2 decay on the raw gradient: refused) or decay in the update
//      (accepted)
//   4. the upstream crash class of test/Regression (expand_shape groups of
//      several dynamic sizes, on tensors and memrefs)
// Sizes, values and forms vary with the seed; the same seed gives the same
// text.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <cstring>
#include <random>
#include <sstream>
#include <vector>

using namespace mlir::amp::robustness;

namespace {

class EdgeCaseGenerator {
public:
  explicit EdgeCaseGenerator(uint64_t seed) : rng(seed), seed(seed) {}

  std::string run() {
    switch (seed % kNumEdgeCaseClasses) {
    case 0:
      return dynamicParams();
    case 1:
      return resources();
    case 2:
      return hugeShapes();
    case 3:
      return mixedGradient();
    default:
      return expandGroups();
    }
  }

private:
  std::mt19937_64 rng;
  uint64_t seed;

  unsigned pick(unsigned n) {
    return n <= 1 ? 0 : std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }

  /// A matmul-based step over `w : wType` with the analytic backward
  /// dW = x^T * (seed * 1/8), `decay` choosing where an L2 term 0.5 * w
  /// goes: "" none, "raw" on the raw gradient (a mix), "raw-generic" the
  /// same inside a linalg.generic, "update" on the unscaled gradient.
  std::string step(const std::string &xType, const std::string &yType,
                   const std::string &wType, const std::string &hType,
                   const std::string &xtType, const std::string &dims,
                   const std::string &decay) {
    std::ostringstream os;
    os << "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
       << "#s2 = affine_map<(d0, d1) -> ()>\n"
       << "func.func @train_step(%w: " << wType
       << " {amp.role = \"param\"}, %x: " << xType
       << " {amp.role = \"input\"}, %y: " << yType
       << " {amp.role = \"label\"})\n"
       << "    -> (tensor<f32> {amp.role = \"loss\"}, " << wType
       << " {amp.updates = 0 : i64}) attributes {amp.train_step} {\n"
       << "  %zero = arith.constant 0.0 : f32\n"
       << "  %c0 = arith.constant 0 : index\n"
       << "  %c1 = arith.constant 1 : index\n"
       << dims << "  %he = tensor.empty("
       << (hType.find('?') != std::string::npos ? "%b, %n" : "")
       << ") : " << hType << "\n"
       << "  %hz = linalg.fill ins(%zero : f32) outs(%he : " << hType << ") -> "
       << hType << "\n"
       << "  %h = linalg.matmul ins(%x, %w : " << xType << ", " << wType
       << ") outs(%hz : " << hType << ") -> " << hType << "\n"
       << "  %le = tensor.empty() : tensor<f32>\n"
       << "  %lz = linalg.fill ins(%zero : f32) outs(%le : tensor<f32>) -> "
          "tensor<f32>\n"
       << "  %loss = linalg.generic {indexing_maps = [#id2, #s2], "
          "iterator_types = [\"reduction\", \"reduction\"]} ins(%h : "
       << hType << ") outs(%lz : tensor<f32>) {\n"
       << "  ^bb0(%a: f32, %acc: f32):\n"
       << "    %r = arith.addf %a, %acc : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> tensor<f32>\n"
       << "  %seed = amp.loss_grad %loss : tensor<f32>\n"
       << "  %sv = tensor.extract %seed[] : tensor<f32>\n"
       << "  %dh = linalg.fill ins(%sv : f32) outs(%he : " << hType << ") -> "
       << hType << "\n"
       << "  %xte = tensor.empty("
       << (xtType.find('?') != std::string::npos ? "%k, %b" : "")
       << ") : " << xtType << "\n"
       << "  %xt = linalg.transpose ins(%x : " << xType
       << ") outs(%xte : " << xtType << ") permutation = [1, 0]\n"
       << "  %we = tensor.empty("
       << (wType.find('?') != std::string::npos ? "%k, %n" : "")
       << ") : " << wType << "\n"
       << "  %wz = linalg.fill ins(%zero : f32) outs(%we : " << wType << ") -> "
       << wType << "\n"
       << "  %dw = linalg.matmul ins(%xt, %dh : " << xtType << ", " << hType
       << ") outs(%wz : " << wType << ") -> " << wType << "\n"
       << "  %half = arith.constant 0.5 : f32\n"
       << "  %lr = arith.constant 0.125 : f32\n";
    std::string raw = "%dw";
    if (decay == "raw") {
      os << "  %decay = linalg.generic {indexing_maps = [#id2, #id2], "
            "iterator_types = [\"parallel\", \"parallel\"]} ins(%w : "
         << wType << ") outs(%we : " << wType << ") {\n"
         << "  ^bb0(%p: f32, %o: f32):\n"
         << "    %t = arith.mulf %p, %half : f32\n"
         << "    linalg.yield %t : f32\n"
         << "  } -> " << wType << "\n"
         << "  %raw = arith.addf %dw, %decay : " << wType << "\n";
      raw = "%raw";
    } else if (decay == "raw-generic") {
      os << "  %raw = linalg.generic {indexing_maps = [#id2, #id2, #id2], "
            "iterator_types = [\"parallel\", \"parallel\"]} ins(%dw, %w : "
         << wType << ", " << wType << ") outs(%we : " << wType << ") {\n"
         << "  ^bb0(%d: f32, %p: f32, %o: f32):\n"
         << "    %t = arith.mulf %p, %half : f32\n"
         << "    %r = arith.addf %d, %t : f32\n"
         << "    linalg.yield %r : f32\n"
         << "  } -> " << wType << "\n";
      raw = "%raw";
    }
    os << "  %g = amp.grad " << raw << ", %w : " << wType << "\n"
       << "  %w1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], "
          "iterator_types = [\"parallel\", \"parallel\"]} ins(%w, %g : "
       << wType << ", " << wType << ") outs(%we : " << wType << ") {\n"
       << "  ^bb0(%p: f32, %gg: f32, %o: f32):\n";
    if (decay == "update")
      os << "    %t = arith.mulf %p, %half : f32\n"
         << "    %gd = arith.addf %gg, %t : f32\n"
         << "    %s = arith.mulf %gd, %lr : f32\n";
    else
      os << "    %s = arith.mulf %gg, %lr : f32\n";
    os << "    %r = arith.subf %p, %s : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << wType << "\n"
       << "  return %loss, %w1 : tensor<f32>, " << wType << "\n"
       << "}\n";
    return os.str();
  }

  // 0. tensor<?x?xf32> parameters (and a dynamic batch).
  std::string dynamicParams() {
    std::string dims = "  %b = tensor.dim %x, %c0 : tensor<?x?xf32>\n"
                       "  %k = tensor.dim %x, %c1 : tensor<?x?xf32>\n"
                       "  %n = tensor.dim %w, %c1 : tensor<?x?xf32>\n";
    const char *decays[] = {"", "update"};
    return step("tensor<?x?xf32>", "tensor<?xi32>", "tensor<?x?xf32>",
                "tensor<?x?xf32>", "tensor<?x?xf32>", dims, decays[pick(2)]);
  }

  // 3. Mixed seed-derived / seed-free gradient terms, or decay in the
  // update; static shapes.
  std::string mixedGradient() {
    int64_t b = 1 + pick(4), k = 1 + pick(6), n = 1 + pick(6);
    auto t = [](int64_t r, int64_t c) {
      return "tensor<" + std::to_string(r) + "x" + std::to_string(c) + "xf32>";
    };
    const char *decays[] = {"raw", "raw-generic", "update"};
    return step(t(b, k), "tensor<" + std::to_string(b) + "xi32>", t(k, n),
                t(b, n), t(k, b), "", decays[pick(3)]);
  }

  /// The hex of a resource blob of `n` f32 values (alignment 4, then the
  /// little-endian data), or `bytes` bytes of it when given (a wrong size).
  std::string blob(unsigned n, int bytes = -1) {
    std::string hex = "0x04000000";
    const char *digits = "0123456789ABCDEF";
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    std::string data;
    for (unsigned i = 0; i < n; ++i) {
      float f = value(rng);
      if (chance(0.1))
        f = chance(0.5) ? 70000.0f : 1e-9f; // f16 overflow / flush
      unsigned char b[4];
      std::memcpy(b, &f, 4);
      for (unsigned char c : b) {
        data += digits[c >> 4];
        data += digits[c & 15];
      }
    }
    if (bytes >= 0)
      data.resize(std::min<size_t>(data.size(), 2 * size_t(bytes)));
    return hex + data;
  }

  // 1. dense_resource weights of a linear layer (real, elided, wrong size),
  // sometimes also read by an f32 (deny) op.
  std::string resources() {
    int64_t b = 1 + pick(4), k = 1 + pick(8), n = 1 + pick(8);
    std::string x =
        "tensor<" + std::to_string(b) + "x" + std::to_string(k) + "xf32>";
    std::string w =
        "tensor<" + std::to_string(k) + "x" + std::to_string(n) + "xf32>";
    std::string h =
        "tensor<" + std::to_string(b) + "x" + std::to_string(n) + "xf32>";
    unsigned kind = pick(3); // 0 real, 1 elided, 2 wrong size
    std::string name = kind == 1 ? "__elided__" : "weight";
    std::ostringstream os;
    os << "func.func @forward(%x: " << x << ") -> " << h << " {\n"
       << "  %w = arith.constant dense_resource<" << name << "> : " << w << "\n"
       << "  %zero = arith.constant 0.0 : f32\n"
       << "  %e = tensor.empty() : " << h << "\n"
       << "  %z = linalg.fill ins(%zero : f32) outs(%e : " << h << ") -> " << h
       << "\n"
       << "  %m = linalg.matmul ins(%x, %w : " << x << ", " << w
       << ") outs(%z : " << h << ") -> " << h << "\n";
    if (chance(0.5)) // a second use, read in f32 (deny): keeps the f32 blob
      os << "  %ex = math.exp %m : " << h << "\n"
         << "  return %ex : " << h << "\n";
    else
      os << "  return %m : " << h << "\n";
    os << "}\n";
    if (kind != 1)
      os << "{-#\n  dialect_resources: {\n    builtin: {\n      weight: \""
         << blob(unsigned(k * n), kind == 2 ? int(4 * k * n - 4) : -1)
         << "\"\n    }\n  }\n#-}\n";
    return os.str();
  }

  // 2. Static shapes of 2^64 elements and more, in ops every pass looks at.
  std::string hugeShapes() {
    const char *dims[] = {"4294967296x4294967296", "9223372036854775807",
                          "4294967296x2x4294967296", "65536x65536x65536x65536"};
    std::string t = std::string("tensor<") + dims[pick(4)] + "xf32>";
    std::ostringstream os;
    switch (pick(3)) {
    case 0:
      os << "func.func @huge(%a: " << t << ", %b: " << t << ") -> " << t
         << " {\n  %r = arith.addf %a, %b : " << t << "\n  return %r : " << t
         << "\n}\n";
      break;
    case 1:
      os << "func.func @huge(%a: tensor<4294967296x4294967296xf32>, "
            "%b: tensor<4294967296x2xf32>) -> tensor<4294967296x2xf32> {\n"
            "  %zero = arith.constant 0.0 : f32\n"
            "  %e = tensor.empty() : tensor<4294967296x2xf32>\n"
            "  %z = linalg.fill ins(%zero : f32) outs(%e : "
            "tensor<4294967296x2xf32>) -> tensor<4294967296x2xf32>\n"
            "  %m = linalg.matmul ins(%a, %b : "
            "tensor<4294967296x4294967296xf32>, "
            "tensor<4294967296x2xf32>) outs(%z : tensor<4294967296x2xf32>) -> "
            "tensor<4294967296x2xf32>\n"
            "  return %m : tensor<4294967296x2xf32>\n}\n";
      break;
    default:
      os << "func.func @huge(%a: " << t << ") -> " << t << " {\n"
         << "  %c = arith.constant dense<1.5> : " << t << "\n"
         << "  %r = arith.mulf %a, %c : " << t << "\n"
         << "  %s = math.exp %r : " << t << "\n"
         << "  return %s : " << t << "\n}\n";
    }
    return os.str();
  }

  // 4. expand_shape groups of more than one dynamic size.
  std::string expandGroups() {
    std::ostringstream os;
    switch (pick(3)) {
    case 0: {
      std::string mid = std::to_string(1 + pick(8));
      std::string out = "tensor<?x" + mid + "x?xf32>";
      os << "func.func @chain(%a: tensor<?x?xf32>) -> " << out << " {\n"
         << "  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into "
            "tensor<?xf32>\n"
         << "  %c0 = arith.constant 0 : index\n"
         << "  %d = tensor.dim %a, %c0 : tensor<?x?xf32>\n"
         << "  %e = tensor.expand_shape %c [[0, 1, 2]] output_shape [%d, "
         << mid << ", %d] : tensor<?xf32> into " << out << "\n"
         << "  return %e : " << out << "\n}\n";
      break;
    }
    case 1:
      os << "func.func @groups(%a: tensor<8x?xf32>, %n: index, %m: index) -> "
            "tensor<2x4x?x?xf32> {\n"
            "  %e = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [2, "
            "4, %n, %m] : tensor<8x?xf32> into tensor<2x4x?x?xf32>\n"
            "  return %e : tensor<2x4x?x?xf32>\n}\n";
      break;
    default:
      os << "func.func @buffers(%a: memref<?xf32>, %n: index, %m: index) -> "
            "memref<?x?xf32> {\n"
            "  %e = memref.expand_shape %a [[0, 1]] output_shape [%n, %m] : "
            "memref<?xf32> into memref<?x?xf32>\n"
            "  return %e : memref<?x?xf32>\n}\n";
    }
    return os.str();
  }
};

} // namespace

std::string mlir::amp::robustness::generateEdgeCase(uint64_t seed) {
  return EdgeCaseGenerator(seed).run();
}
