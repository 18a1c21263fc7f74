//===- ModelGradientTest.cpp - the example models, end to end -------------===//
//
// The three forward models of examples/models/ (an MLP with softmax, a CNN
// with batch-norm statistics, max / sum pooling and a depthwise
// convolution, a transformer block with attention, layer norm and GELU),
// the form torch-mlir emits, converted to f64 and differentiated through a
// call: @f(args..., w) = sum(forward(args...) * w). Every argument's
// gradient matches central finite differences along 4 random directions
// (the losses of whole models are large enough that the rounding of f hides
// single small elements); the CNN's conv bias, followed by batch
// normalization, gets exactly zero.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "amp/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::amp::autodifftest;

namespace {

std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// examples/models/`file` in f64 plus @f: the forward's arguments and a
/// weight of the logits' type, loss = sum(logits * weight).
std::string weightedModel(const std::string &file) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(AMP_SOURCE_DIR) +
                                            "/examples/models/" + file);
  if (!buffer) {
    ADD_FAILURE() << "cannot read examples/models/" << file;
    return "";
  }
  std::string model = replaceAll((*buffer)->getBuffer().str(), "f32", "f64");
  model = replaceAll(model, "0xFF800000", "0xFFF0000000000000");

  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  MLIRContext ctx(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(model, &ctx);
  if (!module) {
    ADD_FAILURE() << "examples/models/" << file << " does not parse in f64";
    return "";
  }
  auto forward = module->lookupSymbol<func::FuncOp>("forward");
  auto type = cast<RankedTensorType>(forward.getResultTypes()[0]);
  std::string params, args, typeText;
  llvm::raw_string_ostream ts(typeText);
  for (auto [i, t] : llvm::enumerate(forward.getArgumentTypes())) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    params += "%a" + std::to_string(i) + ": " + s + ", ";
    args += std::string(i ? ", " : "") + "%a" + std::to_string(i);
    typeText += std::string(i ? ", " : "") + s;
  }
  std::string result;
  llvm::raw_string_ostream rs(result);
  rs << type;
  std::string dims = "d0, d1";
  std::string f =
      "func.func @f(" + params + "%w: " + result +
      ") -> tensor<f64> {\n"
      "  %y = func.call @forward(" +
      args + ") : (" + typeText + ") -> " + result +
      "\n"
      "  %lz = arith.constant 0.0 : f64\n"
      "  %le = tensor.empty() : tensor<f64>\n"
      "  %li = linalg.fill ins(%lz : f64) outs(%le : tensor<f64>) -> "
      "tensor<f64>\n"
      "  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, "
      "d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], "
      "iterator_types = [\"reduction\", \"reduction\"]} ins(%y, %w : " +
      result + ", " + result +
      ") outs(%li : tensor<f64>) {\n"
      "  ^bb0(%p: f64, %q: f64, %acc: f64):\n"
      "    %m = arith.mulf %p, %q : f64\n"
      "    %s = arith.addf %acc, %m : f64\n"
      "    linalg.yield %s : f64\n"
      "  } -> tensor<f64>\n"
      "  return %loss : tensor<f64>\n"
      "}\n";
  EXPECT_EQ(type.getRank(), 2);
  // Inside the model's module.
  size_t end = model.rfind('}');
  return model.substr(0, end) + f + "}\n";
}

CheckOptions modelOptions() {
  CheckOptions options;
  options.directions = 4;
  return options;
}

TEST(ModelGradient, MLP) {
  expectGradientsMatchFiniteDifferences(weightedModel("mlp.mlir"),
                                        modelOptions());
}

TEST(ModelGradient, CNN) {
  CheckOptions options = modelOptions();
  options.zeroGradientArguments = {2};
  expectGradientsMatchFiniteDifferences(weightedModel("cnn.mlir"), options);
}

TEST(ModelGradient, Transformer) {
  expectGradientsMatchFiniteDifferences(weightedModel("transformer.mlir"),
                                        modelOptions());
}

} // namespace
