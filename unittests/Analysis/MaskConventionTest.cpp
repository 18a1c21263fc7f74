//===- MaskConventionTest.cpp - what true means in a boolean mask ---------===//
//
// maskKeepsWhenTrue on the forms exports use: masked_fill(mask, -inf)
// (true masks), where(mask, scores, -inf) (true keeps), masked_fill(~mask,
// -1e9) through arith.xori or a comparison with false, an f64 constant
// truncated, an additive bias (HF's (1 - m) * -1e9), a mask reshaped and
// and-ed with a causal one, a select of zeros (no answer), and two selects
// that disagree. (A 0-d tensor of -inf and an i64 mask:
// test/tools/amp-run-synthetic-keep-mask.mlir.)
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/MaskConvention.h"
#include "amp/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;

namespace {

/// maskKeepsWhenTrue of argument #1 of @f, whose body applies the [2, 4]
/// mask %m to the scores %s with `select` (its two values a and b, the
/// mask's element %mb and the score %sb in scope).
std::optional<bool> keeps(const std::string &select,
                          const std::string &prelude = "") {
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  std::string text = R"(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%s: tensor<2x4xf32>, %m: tensor<2x4xi1>) -> tensor<2x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -1.0e9 : f32
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %e = tensor.empty() : tensor<2x4xf32>
)" + prelude + R"(
  %r = linalg.generic {indexing_maps = [#id, #id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4xf32>, tensor<2x4xi1>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%sb: f32, %mb: i1, %o: f32):
)" + select + R"(
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
)";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  EXPECT_TRUE(module) << text;
  if (!module)
    return std::nullopt;
  auto f = module->lookupSymbol<func::FuncOp>("f");
  return amp::maskKeepsWhenTrue(f.getArgument(1));
}

const char *direct = "  %mask = tensor.cast %m : tensor<2x4xi1> to "
                     "tensor<2x4xi1>\n";

TEST(MaskConventionTest, MaskedFillMasksOnTrue) {
  EXPECT_EQ(keeps("    %y = arith.select %mb, %ninf, %sb : f32", direct),
            std::optional<bool>(false));
}

TEST(MaskConventionTest, WhereKeepsOnTrue) {
  EXPECT_EQ(keeps("    %y = arith.select %mb, %sb, %big : f32", direct),
            std::optional<bool>(true));
}

TEST(MaskConventionTest, LogicalNotSwaps) {
  EXPECT_EQ(keeps("    %n = arith.xori %mb, %true : i1\n"
                  "    %y = arith.select %n, %big, %sb : f32",
                  direct),
            std::optional<bool>(true));
}

TEST(MaskConventionTest, ComparisonWithFalseSwaps) {
  EXPECT_EQ(keeps("    %f = arith.constant false\n"
                  "    %n = arith.cmpi eq, %mb, %f : i1\n"
                  "    %y = arith.select %n, %ninf, %sb : f32",
                  direct),
            std::optional<bool>(true));
}

TEST(MaskConventionTest, ConstantThroughTruncF) {
  // torch-mlir's scalar: an f64 constant truncated in the body.
  EXPECT_EQ(keeps("    %d = arith.constant 0xFFF0000000000000 : f64\n"
                  "    %v = arith.truncf %d : f64 to f32\n"
                  "    %y = arith.select %mb, %v, %sb : f32",
                  direct),
            std::optional<bool>(false));
}

TEST(MaskConventionTest, AdditiveBias) {
  // HF's extended attention mask: (1.0 - float(m)) * -1e9, added.
  EXPECT_EQ(keeps("    %f = arith.uitofp %mb : i1 to f32\n"
                  "    %one = arith.constant 1.0 : f32\n"
                  "    %om = arith.subf %one, %f : f32\n"
                  "    %b = arith.mulf %om, %big : f32\n"
                  "    %y = arith.addf %sb, %b : f32",
                  direct),
            std::optional<bool>(true));
  // float(m) * -1e9: true masks.
  EXPECT_EQ(keeps("    %f = arith.uitofp %mb : i1 to f32\n"
                  "    %b = arith.mulf %big, %f : f32\n"
                  "    %y = arith.addf %sb, %b : f32",
                  direct),
            std::optional<bool>(false));
}

TEST(MaskConventionTest, ThroughReshapesAndCausalAnd) {
  // The mask reshaped, copied by a generic, and-ed with a causal mask.
  std::string prelude = R"(
  %flat = tensor.collapse_shape %m [[0, 1]] : tensor<2x4xi1> into tensor<8xi1>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [2, 4] : tensor<8xi1> into tensor<2x4xi1>
  %eb = tensor.empty() : tensor<2x4xi1>
  %mask = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%back : tensor<2x4xi1>) outs(%eb : tensor<2x4xi1>) {
  ^bb0(%x: i1, %o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %causal = arith.cmpi ule, %j, %i : index
    %both = arith.andi %x, %causal : i1
    linalg.yield %both : i1
  } -> tensor<2x4xi1>
)";
  EXPECT_EQ(keeps("    %y = arith.select %mb, %sb, %ninf : f32", prelude),
            std::optional<bool>(true));
}

TEST(MaskConventionTest, NoMaskingConstantNoAnswer) {
  // masked_fill(mask, 0): zeroing, not masking.
  EXPECT_EQ(keeps("    %y = arith.select %mb, %zero, %sb : f32", direct),
            std::nullopt);
}

TEST(MaskConventionTest, DisagreeingSelectsNoAnswer) {
  EXPECT_EQ(keeps("    %a = arith.select %mb, %ninf, %sb : f32\n"
                  "    %y = arith.select %mb, %a, %ninf : f32",
                  direct),
            std::nullopt);
}

} // namespace
