//===- AccuracyHarness.h - shared parts of the f32 accuracy tests ---------===//
//
// Shared by the accuracy tests of the CPU lowering's approximations
// (ExpAccuracyTest, ErfAccuracyTest): f32 bits, a sweep over the bit
// patterns, the distance of a result from a reference in ulps, and the
// JIT compilation of a test's functions.
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

} // namespace amp_test

#endif // AMP_UNITTESTS_CONVERSION_ACCURACYHARNESS_H
