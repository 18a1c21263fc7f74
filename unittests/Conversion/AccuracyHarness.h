//===- AccuracyHarness.h - shared parts of the f32 accuracy tests ---------===//
//
// Shared by the accuracy tests of the CPU lowering's approximations
// (ExpAccuracyTest, ErfAccuracyTest, TanhAccuracyTest): f32 bits, a sweep
// over the bit patterns, the distance of a result from a reference in
// ulps, the JIT compilation of a test's functions, and the two forms of
// an elementwise unary op that the lowering produces.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_CONVERSION_ACCURACYHARNESS_H
#define AMP_UNITTESTS_CONVERSION_ACCURACYHARNESS_H

#include "amp/InitAll.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace amp_test {

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

inline float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

/// Every `step`th f32 bit pattern from 0 (both signs, every exponent,
/// NaNs included: 17.1M inputs for a step of 251), then +-0, +-inf,
/// +-FLT_MAX and +-FLT_MIN.
inline std::vector<float> everyNthPattern(uint64_t step) {
  std::vector<float> x;
  for (uint64_t u = 0; u <= 0xffffffffu; u += step)
    x.push_back(fromBits(static_cast<uint32_t>(u)));
  float inf = std::numeric_limits<float>::infinity();
  for (float v : {0.0f, -0.0f, inf, -inf, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN})
    x.push_back(v);
  return x;
}

/// everyNthPattern(251) (17.1M inputs), then `edges` (a test's special
/// points), a quiet NaN, one with a payload and a negative one, padded
/// with 0.5 to a multiple of `row`.
inline std::vector<float> sweepWithEdges(std::initializer_list<float> edges,
                                         int64_t row) {
  std::vector<float> x = everyNthPattern(251);
  x.insert(x.end(), edges.begin(), edges.end());
  x.push_back(fromBits(0x7fc00000u)); // quiet NaN
  x.push_back(fromBits(0x7fc12345u)); // a payload
  x.push_back(fromBits(0xffc00000u)); // negative
  while (x.size() % row)
    x.push_back(0.5f);
  return x;
}

/// The result in `got` for the input whose bits are `v`'s (the first such
/// input of `x`; `v` must be one of them).
inline float resultFor(const std::vector<float> &x,
                       const std::vector<float> &got, float v) {
  auto it = std::find_if(x.begin(), x.end(),
                         [&](float u) { return bitsOf(u) == bitsOf(v); });
  return got[it - x.begin()];
}

/// The distance in ulps of `got` from `want` (both finite and normal or
/// zero, or subnormal, the same sign), in units of want's ulp (2^-149 for
/// subnormals, whatever the exponent).
inline double ulps(float got, float want) {
  int exponent;
  std::frexp(want, &exponent);
  double ulp = std::max(std::ldexp(1.0, exponent - 24), std::ldexp(1.0, -149));
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) / ulp;
}

/// `source` parsed in a fresh context and JIT-compiled by
/// amp-lower-to-llvm with `lowering` (entry points `names`); null, with a
/// test failure, when it does not parse or compile.
inline std::unique_ptr<mlir::amp::runtime::JitModule>
compileForTest(const std::string &source, llvm::ArrayRef<llvm::StringRef> names,
               const mlir::amp::LowerToLLVMConfig &lowering) {
  mlir::DialectRegistry registry;
  mlir::amp::registerAllDialectsAndExtensions(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source,
                                              mlir::ParserConfig(&context));
  if (!module) {
    ADD_FAILURE() << "parse error";
    return nullptr;
  }
  auto jit = mlir::amp::runtime::JitModule::compile(*module, names, lowering);
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return nullptr;
  }
  return std::move(*jit);
}

/// A unary f32 op computed by the two forms the CPU lowering produces:
/// one long row (LLVM's loop vectorizer takes it) and rows of `row`
/// (amp-cpu-vectorize-rows' vectors: 16 and 12 for a row of 28).
struct UnaryResults {
  std::vector<float> longRow, rows;
};

/// @long: y = `op`(x) over one row of n; @rows: the same over rows of
/// `row` (n a multiple of it). `op` is a math op's name ("math.erf").
inline std::string unaryElementwiseSource(const std::string &op, int64_t n,
                                          int64_t row) {
  auto function = [&](const std::string &name, const std::string &shape,
                      const std::string &map, const std::string &iterators) {
    std::string type = "tensor<" + shape + "xf32>";
    return "func.func @" + name + "(%x: " + type + ") -> " + type +
           " {\n  %e = tensor.empty() : " + type +
           "\n  %y = linalg.generic {indexing_maps = [" + map + ", " + map +
           "], iterator_types = [" + iterators + "]} ins(%x : " + type +
           ") outs(%e : " + type +
           ") {\n  ^bb0(%a: f32, %o: f32):\n    %r = " + op +
           " %a : f32\n    linalg.yield %r : f32\n  } -> " + type +
           "\n  return %y : " + type + "\n}\n";
  };
  return function("long", std::to_string(n), "affine_map<(d0) -> (d0)>",
                  "\"parallel\"") +
         function("rows", std::to_string(n / row) + "x" + std::to_string(row),
                  "affine_map<(d0, d1) -> (d0, d1)>",
                  "\"parallel\", \"parallel\"");
}

/// `op` of `x` (its size a multiple of `row`) in both forms, compiled by
/// amp-lower-to-llvm with `lowering`; empty, with a test failure, when it
/// does not compile or run.
inline UnaryResults runUnary(const std::string &op, const std::vector<float> &x,
                             int64_t row,
                             const mlir::amp::LowerToLLVMConfig &lowering) {
  using mlir::amp::runtime::HostTensor;
  using mlir::amp::runtime::TensorSpec;
  int64_t n = static_cast<int64_t>(x.size());
  std::unique_ptr<mlir::amp::runtime::JitModule> jit = compileForTest(
      unaryElementwiseSource(op, n, row), {"long", "rows"}, lowering);
  if (!jit)
    return {};
  UnaryResults results;
  for (auto [name, shape, out] :
       {std::make_tuple("long", std::vector<int64_t>{n}, &results.longRow),
        std::make_tuple("rows", std::vector<int64_t>{n / row, row},
                        &results.rows)}) {
    auto in = std::make_unique<HostTensor>(TensorSpec{shape});
    auto y = std::make_unique<HostTensor>(TensorSpec{shape});
    std::memcpy(in->as<float>(), x.data(), n * sizeof(float));
    if (llvm::Error err = jit->invoke(name, {in.get(), y.get()})) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return {};
    }
    out->assign(y->as<float>(), y->as<float>() + n);
  }
  return results;
}

/// The inputs where the two forms differ in bits (NaN inputs: where one
/// is not a NaN), each reported as a test failure (the first 5), named
/// with `op`. Returns their count.
inline int countFormsDiffering(const std::string &op,
                               const std::vector<float> &x,
                               const UnaryResults &got) {
  int differ = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    bool same = std::isnan(x[i])
                    ? std::isnan(got.longRow[i]) && std::isnan(got.rows[i])
                    : bitsOf(got.longRow[i]) == bitsOf(got.rows[i]);
    if (!same && ++differ <= 5)
      ADD_FAILURE() << op << "(" << x[i] << "): " << got.longRow[i]
                    << " in a long row, " << got.rows[i] << " in rows";
  }
  return differ;
}

/// Checks that both forms in `got` are within `maxUlps` ulp of
/// `reference` (in double, rounded to f32) for every non-NaN input, and
/// NaN for NaN: the libm path that the approximations' options keep.
/// Failures are reported (the first 5 per form) and counted.
inline int countLibmBeyond(const std::string &op, const std::vector<float> &x,
                           const UnaryResults &got, double (*reference)(double),
                           double maxUlps) {
  int failures = 0;
  for (const std::vector<float> *form : {&got.longRow, &got.rows}) {
    int here = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(x[i])) {
        if (!std::isnan((*form)[i]) && ++here <= 5)
          ADD_FAILURE() << "libm " << op << "(NaN) = " << (*form)[i];
        continue;
      }
      float want = static_cast<float>(reference(static_cast<double>(x[i])));
      if (!(ulps((*form)[i], want) <= maxUlps) && ++here <= 5)
        ADD_FAILURE() << "libm " << op << "(" << x[i] << ") = " << (*form)[i]
                      << ", want " << want;
    }
    failures += here;
  }
  return failures;
}

} // namespace amp_test

#endif // AMP_UNITTESTS_CONVERSION_ACCURACYHARNESS_H
