//===- ForwardModels.cpp - generated torch-mlir-style forward models ------===//
//
// generateForwardModel: a small forward model per seed, in the form
// torch-mlir exports and amp-differentiate / amp-build-train-step take:
// `func.func @forward(%x) -> logits` (batch x classes), or, for one seed in
// five, a scalar loss (a sum of squares of the logits, for loss=none). The
// layers are drawn from the examples/pytorch vocabulary:
//   rank 4 (batch x channels x h x w): tensor.pad + conv_2d_nchw_fchw into
//     a broadcast bias, eval-form batch norm (math.rsqrt), ReLU (cmpf +
//     select), 2x2 max or sum pooling; then tensor.collapse_shape;
//   token ids (batch x tokens, i64): an embedding lookup (tensor.extract
//     of the table row of each id in a generic) and the sum over tokens;
//   rank 2 (batch x features): linalg.matmul on the linalg.transpose'd
//     weight plus a broadcast bias, then ReLU, tanh, SiLU (x * sigmoid(x)
//     with math.exp) or the add of a residual.
// Weights are `arith.constant` dense splats, dense_resource blobs (f32
// after the 4-byte alignment header) or elided dense_resource constants.
// All shapes are static and small, so every pass and pipeline runs in
// milliseconds.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include <cstring>
#include <random>
#include <sstream>
#include <vector>

using namespace mlir::amp::robustness;

namespace {

class ForwardModelGenerator {
public:
  explicit ForwardModelGenerator(uint64_t seed) : rng(seed) {}

  std::string run() {
    batch = 1 + pick(3);
    unsigned kind = pick(3);
    bool conv = kind == 0, tokens = kind == 2;
    std::vector<int64_t> shape;
    if (conv) {
      int64_t hw = pick(2) ? 4 : 6;
      shape = {batch, 1 + static_cast<int64_t>(pick(2)), hw, hw};
    } else if (tokens) {
      shape = {batch, 2 + static_cast<int64_t>(pick(3))};
    } else {
      shape = {batch, 2 + static_cast<int64_t>(pick(5))};
    }
    std::string input = tokens ? ty(shape, "i64") : ty(shape);
    std::string x = "%x";
    if (tokens)
      x = embeddingMean(x, shape);
    if (conv) {
      unsigned layers = 1 + pick(2);
      for (unsigned i = 0; i < layers; ++i) {
        x = convolution(x, shape);
        switch (pick(3)) {
        case 0:
          x = batchNorm(x, shape);
          break;
        case 1:
          x = relu(x, shape);
          break;
        default:
          break;
        }
        if (shape[2] % 2 == 0 && pick(2))
          x = pool(x, shape);
      }
      std::vector<int64_t> flat{batch, shape[1] * shape[2] * shape[3]};
      std::string v = fresh("flat");
      line(v + " = tensor.collapse_shape " + x +
           " [[0], [1, 2, 3]] : " + ty(shape) + " into " + ty(flat));
      x = v;
      shape = flat;
    }
    unsigned dense = pick(3);
    for (unsigned i = 0; i < dense; ++i) {
      std::string before = x;
      x = linear(x, shape, shape[1]);
      switch (pick(4)) {
      case 0:
        x = relu(x, shape);
        break;
      case 1:
        x = unary(x, shape, "math.tanh");
        break;
      case 2:
        x = swish(x, shape);
        break;
      default:
        x = binary(x, before, shape, "arith.addf"); // a residual
        break;
      }
    }
    int64_t classes = 2 + pick(4);
    x = linear(x, shape, classes);
    std::string result = ty(shape);
    if (pick(5) == 0) {
      x = sumOfSquares(x, shape);
      result = "tensor<f32>";
    }
    std::ostringstream os;
    os << "func.func @forward(%x: " << input << ") -> " << result << " {\n"
       << body.str() << "  return " << x << " : " << result << "\n}\n";
    if (!blobs.empty()) {
      os << "{-#\n  dialect_resources: {\n    builtin: {\n";
      for (size_t i = 0; i < blobs.size(); ++i)
        os << "      " << blobs[i] << (i + 1 < blobs.size() ? ",\n" : "\n");
      os << "    }\n  }\n#-}\n";
    }
    return os.str();
  }

private:
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng() % n); }
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  static std::string ty(const std::vector<int64_t> &shape,
                        const std::string &element = "f32") {
    std::string s = "tensor<";
    for (int64_t d : shape)
      s += std::to_string(d) + "x";
    return s + element + ">";
  }
  std::string fresh(const std::string &hint) {
    return "%" + hint + std::to_string(++count);
  }
  void line(const std::string &text) { body << "  " << text << "\n"; }
  static std::string map(unsigned rank, const std::string &results) {
    std::string dims;
    for (unsigned i = 0; i < rank; ++i)
      dims += (i ? ", d" : "d") + std::to_string(i);
    return "affine_map<(" + dims + ") -> (" + results + ")>";
  }
  static std::string identity(unsigned rank) {
    std::string r;
    for (unsigned i = 0; i < rank; ++i)
      r += (i ? ", d" : "d") + std::to_string(i);
    return map(rank, r);
  }
  static std::string parallel(unsigned rank) {
    std::string s;
    for (unsigned i = 0; i < rank; ++i)
      s += i ? ", \"parallel\"" : "\"parallel\"";
    return s;
  }

  /// A weight constant of `shape`: a dense splat, a dense_resource blob of
  /// U(-0.5, 0.5) values, or an elided dense_resource.
  std::string weight(const std::vector<int64_t> &shape) {
    std::string v = fresh("w");
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    switch (pick(3)) {
    case 0: {
      std::ostringstream c;
      c.precision(6);
      c << std::scientific << uniform(-0.5, 0.5);
      line(v + " = arith.constant dense<" + c.str() + "> : " + ty(shape));
      break;
    }
    case 1: {
      std::string key = "blob" + std::to_string(count);
      std::ostringstream hex;
      hex << key << ": \"0x04000000";
      for (int64_t i = 0; i < n; ++i) {
        float f = static_cast<float>(uniform(-0.5, 0.5));
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        for (int b = 0; b < 4; ++b) {
          static const char digits[] = "0123456789ABCDEF";
          unsigned byte = (bits >> (8 * b)) & 0xFF;
          hex << digits[byte >> 4] << digits[byte & 15];
        }
      }
      hex << "\"";
      blobs.push_back(hex.str());
      line(v + " = arith.constant dense_resource<" + key + "> : " + ty(shape));
      break;
    }
    default:
      line(v + " = arith.constant dense_resource<__elided__> : " + ty(shape));
      break;
    }
    return v;
  }

  std::string empty(const std::vector<int64_t> &shape) {
    std::string v = fresh("e");
    line(v + " = tensor.empty() : " + ty(shape));
    return v;
  }
  std::string fill(const std::string &value,
                   const std::vector<int64_t> &shape) {
    std::string c = fresh("c"), v = fresh("f");
    line(c + " = arith.constant " + value + " : f32");
    std::string e = empty(shape);
    line(v + " = linalg.fill ins(" + c + " : f32) outs(" + e + " : " +
         ty(shape) + ") -> " + ty(shape));
    return v;
  }
  /// An elementwise generic over `ins` (all of `shape`) with `ops` in the
  /// body (%a, %b the block arguments), yielding %r.
  std::string elementwise(const std::vector<std::string> &ins,
                          const std::vector<int64_t> &shape,
                          const std::vector<std::string> &ops) {
    unsigned rank = shape.size();
    std::string maps, insText, types, args;
    for (size_t i = 0; i <= ins.size(); ++i)
      maps += (i ? ", " : "") + identity(rank);
    for (size_t i = 0; i < ins.size(); ++i) {
      insText += (i ? ", " : "") + ins[i];
      types += (i ? ", " : "") + ty(shape);
      args += std::string(i ? "%b" : "%a") + ": f32, ";
    }
    std::string e = empty(shape), v = fresh("g");
    line(v + " = linalg.generic {indexing_maps = [" + maps +
         "], iterator_types = [" + parallel(rank) + "]} ins(" + insText +
         " : " + types + ") outs(" + e + " : " + ty(shape) + ") {");
    line("^bb0(" + args + "%o: f32):");
    for (const std::string &op : ops)
      line("  " + op);
    line("  linalg.yield %r : f32");
    line("} -> " + ty(shape));
    return v;
  }
  std::string relu(const std::string &x, const std::vector<int64_t> &shape) {
    return elementwise({x}, shape,
                       {"%z = arith.constant 0.0 : f32",
                        "%p = arith.cmpf ugt, %a, %z : f32",
                        "%r = arith.select %p, %a, %z : f32"});
  }
  std::string unary(const std::string &x, const std::vector<int64_t> &shape,
                    const std::string &op) {
    return elementwise({x}, shape, {"%r = " + op + " %a : f32"});
  }
  /// x * sigmoid(x) with math.exp (SiLU).
  std::string swish(const std::string &x, const std::vector<int64_t> &shape) {
    return elementwise({x}, shape,
                       {"%n = arith.negf %a : f32", "%en = math.exp %n : f32",
                        "%one = arith.constant 1.0 : f32",
                        "%d = arith.addf %en, %one : f32",
                        "%r = arith.divf %a, %d : f32"});
  }
  std::string binary(const std::string &x, const std::string &y,
                     const std::vector<int64_t> &shape, const std::string &op) {
    return elementwise({x, y}, shape, {"%r = " + op + " %a, %b : f32"});
  }

  /// aten.linear: matmul with the transposed out x in weight, plus the
  /// broadcast bias. `shape` becomes batch x out.
  std::string linear(const std::string &x, std::vector<int64_t> &shape,
                     int64_t out) {
    int64_t in = shape[1];
    std::string w = weight({out, in});
    std::string te = empty({in, out}), t = fresh("t");
    line(t + " = linalg.transpose ins(" + w + " : " + ty({out, in}) +
         ") outs(" + te + " : " + ty({in, out}) + ") permutation = [1, 0]");
    std::vector<int64_t> o{shape[0], out};
    std::string acc = fill("0.0", o), mm = fresh("mm");
    line(mm + " = linalg.matmul ins(" + x + ", " + t + " : " + ty(shape) +
         ", " + ty({in, out}) + ") outs(" + acc + " : " + ty(o) + ") -> " +
         ty(o));
    shape = o;
    std::string b = weight({out}), e = empty(o), v = fresh("lin");
    line(v + " = linalg.generic {indexing_maps = [" + identity(2) + ", " +
         map(2, "d1") + ", " + identity(2) +
         "], iterator_types = [\"parallel\", \"parallel\"]} ins(" + mm + ", " +
         b + " : " + ty(o) + ", " + ty({out}) + ") outs(" + e + " : " + ty(o) +
         ") {");
    line("^bb0(%a: f32, %b: f32, %o: f32):");
    line("  %r = arith.addf %a, %b : f32");
    line("  linalg.yield %r : f32");
    line("} -> " + ty(o));
    return v;
  }

  /// aten.convolution 3x3, padding 1, stride 1: tensor.pad, then the
  /// convolution accumulating into the broadcast bias.
  std::string convolution(const std::string &x, std::vector<int64_t> &shape) {
    int64_t n = shape[0], c = shape[1], h = shape[2], w = shape[3];
    int64_t f = 1 + pick(3);
    std::vector<int64_t> padded{n, c, h + 2, w + 2}, out{n, f, h, w},
        filter{f, c, 3, 3};
    std::string zero = fresh("zero"), p = fresh("pad");
    line(zero + " = arith.constant 0.0 : f32");
    line(p + " = tensor.pad " + x + " low[0, 0, 1, 1] high[0, 0, 1, 1] {");
    line("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):");
    line("  tensor.yield " + zero + " : f32");
    line("} : " + ty(shape) + " to " + ty(padded));
    std::string k = weight(filter), b = weight({f}), e = empty(out),
                init = fresh("bias");
    line(init + " = linalg.generic {indexing_maps = [" + map(4, "d1") + ", " +
         identity(4) + "], iterator_types = [" + parallel(4) + "]} ins(" + b +
         " : " + ty({f}) + ") outs(" + e + " : " + ty(out) + ") {");
    line("^bb0(%a: f32, %o: f32):");
    line("  linalg.yield %a : f32");
    line("} -> " + ty(out));
    std::string v = fresh("conv");
    line(v +
         " = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, "
         "strides = dense<1> : vector<2xi64>} ins(" +
         p + ", " + k + " : " + ty(padded) + ", " + ty(filter) + ") outs(" +
         init + " : " + ty(out) + ") -> " + ty(out));
    shape = out;
    return v;
  }

  /// Eval-form batch norm: (x - mean) * rsqrt(var + eps) * gamma + beta,
  /// per channel.
  std::string batchNorm(const std::string &x,
                        const std::vector<int64_t> &shape) {
    std::vector<int64_t> ch{shape[1]};
    std::string gamma = weight(ch), beta = weight(ch);
    std::string mean = fresh("mean"), var = fresh("var");
    line(mean + " = arith.constant dense<0.1> : " + ty(ch));
    line(var + " = arith.constant dense<2.0> : " + ty(ch));
    std::string chan = map(4, "d1"), e = empty(shape), v = fresh("bn");
    line(v + " = linalg.generic {indexing_maps = [" + identity(4) + ", " +
         chan + ", " + chan + ", " + chan + ", " + chan + ", " + identity(4) +
         "], iterator_types = [" + parallel(4) + "]} ins(" + x + ", " + mean +
         ", " + var + ", " + gamma + ", " + beta + " : " + ty(shape) + ", " +
         ty(ch) + ", " + ty(ch) + ", " + ty(ch) + ", " + ty(ch) + ") outs(" +
         e + " : " + ty(shape) + ") {");
    line("^bb0(%a: f32, %m: f32, %s: f32, %g: f32, %bb: f32, %o: f32):");
    line("  %d = arith.subf %a, %m : f32");
    line("  %eps = arith.constant 1.0e-05 : f32");
    line("  %ve = arith.addf %s, %eps : f32");
    line("  %rs = math.rsqrt %ve : f32");
    line("  %nr = arith.mulf %d, %rs : f32");
    line("  %sc = arith.mulf %nr, %g : f32");
    line("  %r = arith.addf %sc, %bb : f32");
    line("  linalg.yield %r : f32");
    line("} -> " + ty(shape));
    return v;
  }

  /// 2x2 max or sum pooling, stride 2.
  std::string pool(const std::string &x, std::vector<int64_t> &shape) {
    bool max = pick(2);
    std::vector<int64_t> out{shape[0], shape[1], shape[2] / 2, shape[3] / 2};
    std::string init = fill(max ? "0xFF800000" : "0.0", out);
    std::string window = fresh("win"), v = fresh("pool");
    line(window + " = tensor.empty() : tensor<2x2xf32>");
    line(v + " = linalg.pooling_nchw_" + (max ? "max" : "sum") +
         " {dilations = dense<1> : vector<2xi64>, strides = dense<2> : "
         "vector<2xi64>} ins(" +
         x + ", " + window + " : " + ty(shape) + ", tensor<2x2xf32>) outs(" +
         init + " : " + ty(out) + ") -> " + ty(out));
    shape = out;
    return v;
  }

  /// aten.embedding of the token ids `x` (batch x tokens, i64) as
  /// torch-mlir lowers it (a generic that reads the table row of each id
  /// with tensor.extract), then the sum over the tokens. `shape` becomes
  /// batch x features.
  std::string embeddingMean(const std::string &x, std::vector<int64_t> &shape) {
    int64_t tokens = shape[1], rows = 3 + pick(6), features = 2 + pick(4);
    std::vector<int64_t> table{rows, features},
        looked{shape[0], tokens, features}, out{shape[0], features};
    std::string w = weight(table), e = empty(looked), v = fresh("emb");
    line(v + " = linalg.generic {indexing_maps = [" + map(3, "d0, d1") + ", " +
         identity(3) + "], iterator_types = [" + parallel(3) + "]} ins(" + x +
         " : " + ty(shape, "i64") + ") outs(" + e + " : " + ty(looked) + ") {");
    line("^bb0(%id: i64, %o: f32):");
    line("  %i = arith.index_cast %id : i64 to index");
    line("  %j = linalg.index 2 : index");
    line("  %v = tensor.extract " + w + "[%i, %j] : " + ty(table));
    line("  linalg.yield %v : f32");
    line("} -> " + ty(looked));
    std::string acc = fill("0.0", out), sum = fresh("tok");
    line(sum + " = linalg.generic {indexing_maps = [" + identity(3) + ", " +
         map(3, "d0, d2") +
         "], iterator_types = [\"parallel\", \"reduction\", \"parallel\"]} "
         "ins(" +
         v + " : " + ty(looked) + ") outs(" + acc + " : " + ty(out) + ") {");
    line("^bb0(%a: f32, %o: f32):");
    line("  %r = arith.addf %a, %o : f32");
    line("  linalg.yield %r : f32");
    line("} -> " + ty(out));
    shape = out;
    return sum;
  }

  /// sum(x^2) over every element: a scalar loss.
  std::string sumOfSquares(const std::string &x,
                           const std::vector<int64_t> &shape) {
    std::string acc = fill("0.0", {}), v = fresh("loss");
    line(v + " = linalg.generic {indexing_maps = [" + identity(2) + ", " +
         map(2, "") +
         "], iterator_types = [\"reduction\", \"reduction\"]} ins(" + x +
         " : " + ty(shape) + ") outs(" + acc + " : tensor<f32>) {");
    line("^bb0(%a: f32, %o: f32):");
    line("  %sq = arith.mulf %a, %a : f32");
    line("  %r = arith.addf %sq, %o : f32");
    line("  linalg.yield %r : f32");
    line("} -> tensor<f32>");
    return v;
  }

  std::mt19937_64 rng;
  std::ostringstream body;
  std::vector<std::string> blobs;
  unsigned count = 0;
  int64_t batch = 1;
};

} // namespace

std::string mlir::amp::robustness::generateForwardModel(uint64_t seed) {
  return ForwardModelGenerator(seed).run();
}
