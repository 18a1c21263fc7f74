//===- PrecisionPolicyTest.cpp - autocast op classes and plan -------------===//
//
// Parses small IR snippets and checks classifyOp's class for each kind of
// op, and what planAutocast decides for a function with one matmul.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::amp;

namespace {

class PrecisionPolicyTest : public ::testing::Test {
protected:
  PrecisionPolicyTest() : ctx(makeRegistry()) {
    ctx.allowUnregisteredDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    return registry;
  }

  /// Parses `body` as the body of `func.func @f(<args>)` and returns the
  /// first op named `opName` (nullptr and a test failure if none).
  Operation *parseAndFind(const std::string &args, const std::string &body,
                          llvm::StringRef opName) {
    std::string src =
        "func.func @f(" + args + ") {\n" + body + "\n  return\n}\n";
    module = parseSourceString<ModuleOp>(src, &ctx);
    if (!module) {
      ADD_FAILURE() << "cannot parse:\n" << src;
      return nullptr;
    }
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (!found && op->getName().getStringRef() == opName)
        found = op;
    });
    if (!found)
      ADD_FAILURE() << "no " << opName.str() << " in:\n" << src;
    return found;
  }

  /// The class of the first `opName` op of the snippet.
  PrecisionClass classOf(const std::string &args, const std::string &body,
                         llvm::StringRef opName) {
    Operation *op = parseAndFind(args, body, opName);
    if (!op)
      return PrecisionClass::Unknown;
    OpPrecision p = classifyOp(op);
    EXPECT_FALSE(p.reason.empty()) << "no reason for " << opName.str();
    return p.cls;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

const char *kAB = "%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, "
                  "%c: tensor<4x16xf32>";

// linalg.matmul is a contraction: allow.
TEST_F(PrecisionPolicyTest, MatmulIsAllow) {
  EXPECT_EQ(classOf(kAB,
                    "%r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, "
                    "tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> "
                    "tensor<4x16xf32>",
                    "linalg.matmul"),
            PrecisionClass::Allow);
}

// linalg.batch_matmul is a contraction: allow.
TEST_F(PrecisionPolicyTest, BatchMatmulIsAllow) {
  EXPECT_EQ(classOf("%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, "
                    "%c: tensor<2x4x16xf32>",
                    "%r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, "
                    "tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> "
                    "tensor<2x4x16xf32>",
                    "linalg.batch_matmul"),
            PrecisionClass::Allow);
}

// A linalg.generic with matmul maps and a mul-add body is a contraction:
// allow (the policy looks at the maps and the body, not the op name).
TEST_F(PrecisionPolicyTest, ContractionGenericIsAllow) {
  EXPECT_EQ(classOf(kAB, R"mlir(
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                       affine_map<(i, j, k) -> (k, j)>,
                       affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>)mlir",
                    "linalg.generic"),
            PrecisionClass::Allow);
}

// A 2-D convolution is allow.
TEST_F(PrecisionPolicyTest, ConvIsAllow) {
  EXPECT_EQ(classOf("%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>, "
                    "%out: tensor<1x6x6x4xf32>",
                    "%r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
                    "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
                    "ins(%in, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) "
                    "outs(%out : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>",
                    "linalg.conv_2d_nhwc_hwcf"),
            PrecisionClass::Allow);
}

// An elementwise generic with math.exp is deny (range-sensitive).
TEST_F(PrecisionPolicyTest, ExpGenericIsDeny) {
  EXPECT_EQ(classOf("%a: tensor<4xf32>, %o: tensor<4xf32>", R"mlir(
  %r = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<4xf32>)mlir",
                    "linalg.generic"),
            PrecisionClass::Deny);
}

// A sum reduction generic is deny (accumulates in fp32).
TEST_F(PrecisionPolicyTest, SumReductionGenericIsDeny) {
  EXPECT_EQ(classOf("%a: tensor<4x8xf32>, %o: tensor<4xf32>", R"mlir(
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>)mlir",
                    "linalg.generic"),
            PrecisionClass::Deny);
}

// linalg.softmax is deny.
TEST_F(PrecisionPolicyTest, SoftmaxIsDeny) {
  EXPECT_EQ(
      classOf("%a: tensor<4x8xf32>, %o: tensor<4x8xf32>",
              "%r = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) "
              "outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>",
              "linalg.softmax"),
      PrecisionClass::Deny);
}

// An elementwise add generic is infer (follows its inputs).
TEST_F(PrecisionPolicyTest, ElementwiseAddGenericIsInfer) {
  EXPECT_EQ(classOf("%a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>",
                    R"mlir(
  %r = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>)mlir",
                    "linalg.generic"),
            PrecisionClass::Infer);
}

// linalg.transpose is clear (data movement).
TEST_F(PrecisionPolicyTest, TransposeIsClear) {
  EXPECT_EQ(classOf("%a: tensor<4x8xf32>, %o: tensor<8x4xf32>",
                    "%r = linalg.transpose ins(%a : tensor<4x8xf32>) "
                    "outs(%o : tensor<8x4xf32>) permutation = [1, 0]",
                    "linalg.transpose"),
            PrecisionClass::Clear);
}

// linalg.fill is clear.
TEST_F(PrecisionPolicyTest, FillIsClear) {
  EXPECT_EQ(classOf("%v: f32, %o: tensor<4xf32>",
                    "%r = linalg.fill ins(%v : f32) outs(%o : tensor<4xf32>) "
                    "-> tensor<4xf32>",
                    "linalg.fill"),
            PrecisionClass::Clear);
}

// tensor.extract_slice is clear.
TEST_F(PrecisionPolicyTest, ExtractSliceIsClear) {
  EXPECT_EQ(classOf("%a: tensor<4x8xf32>",
                    "%r = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : "
                    "tensor<4x8xf32> to tensor<2x8xf32>",
                    "tensor.extract_slice"),
            PrecisionClass::Clear);
}

// An op of an unregistered dialect is unknown (not in the policy), and
// classifyOp must not crash on an op without a dialect.
TEST_F(PrecisionPolicyTest, UnregisteredOpIsUnknown) {
  Operation *op = parseAndFind(
      "%a: tensor<4xf32>",
      "%r = \"foo.bar\"(%a) : (tensor<4xf32>) -> tensor<4xf32>", "foo.bar");
  ASSERT_TRUE(op);
  ASSERT_EQ(op->getDialect(), nullptr);
  OpPrecision p = classifyOp(op);
  EXPECT_EQ(p.cls, PrecisionClass::Unknown);
  EXPECT_FALSE(p.reason.empty());
}

// The plan of a function with one matmul (next to a fill and a bias add
// whose result leaves the function): the matmul is Mixed (rule 1), the add
// is not between two allow ops and stays f32, the fill (accumulator) stays
// f32; its inputs are read low, its accumulator f32.
TEST_F(PrecisionPolicyTest, PlanMixedMatmulF32Neighbours) {
  Operation *matmul = parseAndFind(
      "%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<4x16xf32>",
      R"mlir(
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4x16xf32>, tensor<4x16xf32>)
      outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>)mlir",
      "linalg.matmul");
  ASSERT_TRUE(matmul);
  AutocastPlan plan = planAutocast(module->getOperation());
  EXPECT_EQ(plan.choiceOf(matmul), OpPrecisionChoice::Mixed);
  EXPECT_TRUE(plan.readsLow(matmul->getOpOperand(0)));
  EXPECT_TRUE(plan.readsLow(matmul->getOpOperand(1)));
  EXPECT_FALSE(plan.readsLow(matmul->getOpOperand(2)));
  Operation *add = matmul->getResult(0).getUses().begin()->getOwner();
  EXPECT_EQ(plan.choiceOf(add), OpPrecisionChoice::F32);
  Operation *fill = matmul->getOperand(2).getDefiningOp();
  EXPECT_EQ(plan.choiceOf(fill), OpPrecisionChoice::F32);
  for (Operation *op : plan.order)
    EXPECT_NE(plan.decisions[op].policy.cls, PrecisionClass::Unknown)
        << op->getName().getStringRef().str();
}

// Rule 3: an infer op between two allow ops is painted low; rule 2: an
// infer op downstream of an exp (deny) stays f32 even before a matmul.
TEST_F(PrecisionPolicyTest, PlanPaintsBetweenAllowAndDenyWins) {
  ASSERT_TRUE(parseAndFind(
      "%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>",
      R"mlir(
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %add = arith.addf %m, %m : tensor<4x4xf32>
  %m2 = linalg.matmul ins(%add, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                      outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = math.exp %m2 : tensor<4x4xf32>
  %mul = arith.mulf %e, %e : tensor<4x4xf32>
  %m3 = linalg.matmul ins(%mul, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                      outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>)mlir",
      "arith.addf"));
  AutocastPlan plan = planAutocast(module->getOperation());
  Operation *add = nullptr, *mul = nullptr, *exp = nullptr;
  module->walk([&](Operation *op) {
    if (op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return; // skip the scalar ops inside the matmul bodies
    if (isa<arith::AddFOp>(op))
      add = op;
    if (isa<arith::MulFOp>(op))
      mul = op;
    if (isa<math::ExpOp>(op))
      exp = op;
  });
  ASSERT_TRUE(add && mul && exp);
  EXPECT_EQ(plan.choiceOf(add), OpPrecisionChoice::Low);
  EXPECT_NE(plan.decisions[add].rule.find("rule 3"), std::string::npos);
  EXPECT_EQ(plan.choiceOf(exp), OpPrecisionChoice::F32);
  EXPECT_EQ(plan.choiceOf(mul), OpPrecisionChoice::F32);
  EXPECT_NE(plan.decisions[mul].rule.find("rule 2"), std::string::npos);
}

// allow=/deny= overrides win over the default lists.
TEST_F(PrecisionPolicyTest, OverridesWin) {
  Operation *op = parseAndFind(kAB,
                               "%r = linalg.matmul ins(%a, %b : "
                               "tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : "
                               "tensor<4x16xf32>) -> tensor<4x16xf32>",
                               "linalg.matmul");
  ASSERT_TRUE(op);
  PolicyOverrides deny;
  deny.deny.insert("linalg.matmul");
  EXPECT_EQ(classifyOp(op, deny).cls, PrecisionClass::Deny);
  AutocastPlanOptions options;
  options.overrides = std::move(deny);
  EXPECT_EQ(planAutocast(module->getOperation(), options).choiceOf(op),
            OpPrecisionChoice::F32);
}

// A matmul whose inputs are already f16 (f32 accumulator) is Mixed and
// reads nothing that needs a cast.
TEST_F(PrecisionPolicyTest, PlanKeepsMatmulWithF16Inputs) {
  Operation *op = parseAndFind(
      "%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>",
      "%r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) "
      "outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>",
      "linalg.matmul");
  ASSERT_TRUE(op);
  EXPECT_EQ(planAutocast(module->getOperation()).choiceOf(op),
            OpPrecisionChoice::Mixed);
}

} // namespace
