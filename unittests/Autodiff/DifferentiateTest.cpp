//===- DifferentiateTest.cpp - the C++ entry point, as a builder calls it -===//
//
// amp::autodiff::differentiate builds the backward at a builder's insertion
// point from a given seed, for any values of the forward: here a constant
// that a training-step builder would turn into a parameter, an argument, and
// a value the loss does not depend on (zeros). The seed is 2.0, so every
// gradient is doubled. Errors are located diagnostics.
//
//===----------------------------------------------------------------------===//

#include "amp/Autodiff/Differentiate.h"
#include "amp/InitAll.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {

// loss = sum(c * x) with c a constant; %unused does not reach the loss.
const char *kForward = R"mlir(
func.func @step(%x: tensor<3xf64>, %unused: tensor<2xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<2xf64>) {
  %c = arith.constant dense<[0.5, -2.0, 3.0]> : tensor<3xf64>
  %zero = arith.constant 0.0 : f64
  %l0 = tensor.empty() : tensor<f64>
  %li = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%c, %x : tensor<3xf64>, tensor<3xf64>) outs(%li : tensor<f64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %m = arith.mulf %a, %b : f64
    %r = arith.addf %acc, %m : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  %seed = arith.constant dense<2.0> : tensor<f64>
  return %loss, %x, %x, %unused : tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<2xf64>
}
)mlir";

struct Parsed {
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp fn;
  Operation *ret = nullptr;
};

Parsed parse(const char *source) {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  Parsed p;
  p.ctx = std::make_unique<MLIRContext>(registry);
  p.module = parseSourceString<ModuleOp>(source, p.ctx.get());
  p.fn = p.module->lookupSymbol<func::FuncOp>("step");
  p.ret = p.fn.getBody().front().getTerminator();
  return p;
}

TEST(Differentiate, ConstantArgumentAndUnreachedValue) {
  Parsed p = parse(kForward);
  ASSERT_TRUE(p.fn);
  Block &body = p.fn.getBody().front();
  Value x = body.getArgument(0), unused = body.getArgument(1);
  arith::ConstantOp constant;
  Value seed;
  for (auto cst : body.getOps<arith::ConstantOp>()) {
    if (cst.getType() == x.getType())
      constant = cst;
    if (cst.getType() == p.ret->getOperand(0).getType())
      seed = cst;
  }
  ASSERT_TRUE(constant && seed);
  OpBuilder builder(p.ret);
  FailureOr<SmallVector<Value>> grads = autodiff::differentiate(
      builder, p.ret->getOperand(0), seed, {constant, x, unused});
  ASSERT_TRUE(succeeded(grads));
  ASSERT_EQ(grads->size(), 3u);
  // Return (loss, d c, d x, d unused) in place of the placeholders.
  for (unsigned i = 0; i < 3; ++i)
    p.ret->setOperand(i + 1, (*grads)[i]);

  auto compiled = JitModule::compile(*p.module, {"step"});
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  HostTensor xt({{3}, ElementKind::F64}), ut({{2}, ElementKind::F64});
  HostTensor loss({{}, ElementKind::F64}), dc({{3}, ElementKind::F64}),
      dx({{3}, ElementKind::F64}), du({{2}, ElementKind::F64});
  const double xs[3] = {1.0, 4.0, -0.25}, cs[3] = {0.5, -2.0, 3.0};
  for (int i = 0; i < 3; ++i)
    xt.as<double>()[i] = xs[i];
  ut.as<double>()[0] = ut.as<double>()[1] = 7.0;
  ASSERT_FALSE(
      bool((*compiled)->invoke("step", {&xt, &ut, &loss, &dc, &dx, &du})));
  EXPECT_DOUBLE_EQ(loss.as<double>()[0], 0.5 - 8.0 - 0.75);
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(dc.as<double>()[i], 2.0 * xs[i]) << i;
    EXPECT_DOUBLE_EQ(dx.as<double>()[i], 2.0 * cs[i]) << i;
  }
  EXPECT_EQ(du.as<double>()[0], 0.0);
  EXPECT_EQ(du.as<double>()[1], 0.0);
}

/// The errors `differentiate` reports, one per call.
std::string
firstError(const char *source,
           function_ref<FailureOr<SmallVector<Value>>(Parsed &)> call) {
  Parsed p = parse(source);
  std::string message;
  ScopedDiagnosticHandler handler(p.ctx.get(), [&](Diagnostic &d) {
    if (message.empty())
      message = d.str();
    return success();
  });
  EXPECT_TRUE(failed(call(p)));
  return message;
}

TEST(Differentiate, LocatedErrors) {
  auto seedOf = [](Parsed &p) {
    for (auto cst : p.fn.getBody().front().getOps<arith::ConstantOp>())
      if (cst.getType() == p.ret->getOperand(0).getType())
        return Value(cst);
    return Value();
  };
  // The loss must be a scalar tensor.
  EXPECT_NE(firstError(kForward,
                       [&](Parsed &p) {
                         OpBuilder b(p.ret);
                         Value x = p.fn.getArgument(0);
                         return autodiff::differentiate(b, x, seedOf(p), {x});
                       })
                .find("must be a scalar float tensor"),
            std::string::npos);
  // The seed has the loss's type.
  EXPECT_NE(firstError(kForward,
                       [&](Parsed &p) {
                         OpBuilder b(p.ret);
                         Value x = p.fn.getArgument(0);
                         return autodiff::differentiate(b, p.ret->getOperand(0),
                                                        x, {x});
                       })
                .find("the seed has type"),
            std::string::npos);
  // The backward goes after the values it starts from.
  EXPECT_NE(firstError(kForward,
                       [&](Parsed &p) {
                         OpBuilder b(&p.fn.getBody().front(),
                                     p.fn.getBody().front().begin());
                         Value x = p.fn.getArgument(0);
                         return autodiff::differentiate(b, p.ret->getOperand(0),
                                                        seedOf(p), {x});
                       })
                .find("must be a value of the forward"),
            std::string::npos);
}

} // namespace
