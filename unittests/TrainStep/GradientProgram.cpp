//===- GradientProgram.cpp - a training step's backward, callable ---------===//

#include "GradientProgram.h"

#include "amp/Conversion/Passes.h"
#include "amp/InitAll.h"
#include "amp/Runtime/GradientCheck.h"
#include "amp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;
using namespace mlir::amp::trainsteptest;

static constexpr llvm::StringLiteral kGradients = "gradients";

std::unique_ptr<MLIRContext> mlir::amp::trainsteptest::makeContext() {
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  registerAllPassesAndPipelines();
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

OwningOpRef<ModuleOp>
mlir::amp::trainsteptest::parseSourceTreeFile(MLIRContext &ctx,
                                              const std::string &path) {
  std::string full = std::string(AMP_SOURCE_DIR) + "/" + path;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(full, &ctx);
  if (!module)
    ADD_FAILURE() << "cannot parse " << full;
  return module;
}

bool mlir::amp::trainsteptest::runPipeline(ModuleOp module,
                                           const std::string &pipeline) {
  DiagnosticCollector diagnostics(module.getContext());
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline(pipeline, pm)) || failed(pm.run(module))) {
    ADD_FAILURE() << pipeline << " failed: "
                  << llvm::toString(diagnostics.makeError(pipeline));
    return false;
  }
  return true;
}

std::unique_ptr<GradientProgram> GradientProgram::build(ModuleOp module,
                                                        bool inF64) {
  DiagnosticCollector diagnostics(module.getContext());
  FailureOr<SmallVector<unsigned>> params =
      makeGradientFunction(module, kGradients);
  if (failed(params)) {
    ADD_FAILURE() << llvm::toString(
        diagnostics.makeError("makeGradientFunction"));
    return nullptr;
  }
  if (!runPipeline(module, inF64 ? "amp-lower-to-standard,amp-promote-to-f64"
                                 : "amp-lower-to-standard"))
    return nullptr;
  return fromFunction(module, kGradients,
                      std::vector<unsigned>(params->begin(), params->end()));
}

std::unique_ptr<GradientProgram>
GradientProgram::fromFunction(ModuleOp module, StringRef name,
                              std::vector<unsigned> params) {
  auto program = std::unique_ptr<GradientProgram>(new GradientProgram());
  program->name = name.str();
  program->paramArgs = std::move(params);
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    ADD_FAILURE() << "no @" << name.str();
    return nullptr;
  }
  for (auto [types, buffers] :
       {std::pair(TypeRange(fn.getArgumentTypes()), &program->args),
        std::pair(TypeRange(fn.getResultTypes()), &program->results)})
    for (Type t : types) {
      auto spec = TensorSpec::fromType(t, /*dynamicSize=*/1);
      if (!spec) {
        ADD_FAILURE() << llvm::toString(spec.takeError());
        return nullptr;
      }
      buffers->push_back(std::make_unique<HostTensor>(*spec));
    }
  auto jit = JitModule::compile(module, {program->name});
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return nullptr;
  }
  program->jit = std::move(*jit);
  return program;
}

void GradientProgram::setArgument(unsigned i,
                                  const std::vector<double> &values) {
  HostTensor &t = *args[i];
  for (size_t e = 0; e < values.size(); ++e) {
    switch (t.spec().kind) {
    case ElementKind::F64:
      t.as<double>()[e] = values[e];
      break;
    case ElementKind::F32:
      t.as<float>()[e] = static_cast<float>(values[e]);
      break;
    case ElementKind::I32:
      t.as<int32_t>()[e] = static_cast<int32_t>(values[e]);
      break;
    default:
      t.as<int64_t>()[e] = static_cast<int64_t>(values[e]);
      break;
    }
  }
}

/// Element `e` of a float tensor as a double.
static double element(const HostTensor &t, int64_t e) {
  return t.spec().kind == ElementKind::F64 ? t.as<double>()[e]
                                           : double(t.as<float>()[e]);
}

bool GradientProgram::run(double &loss,
                          std::vector<std::vector<double>> &grads) {
  std::vector<HostTensor *> buffers;
  for (auto &a : args)
    buffers.push_back(a.get());
  for (auto &r : results)
    buffers.push_back(r.get());
  if (llvm::Error err = jit->invoke(name, buffers)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return false;
  }
  loss = element(*results[0], 0);
  grads.clear();
  for (size_t k = 1; k < results.size(); ++k) {
    std::vector<double> g(results[k]->spec().numElements());
    for (size_t e = 0; e < g.size(); ++e)
      g[e] = element(*results[k], e);
    grads.push_back(std::move(g));
  }
  return true;
}
