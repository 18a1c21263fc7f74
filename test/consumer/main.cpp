//===- main.cpp - an embedding compiler, in miniature ---------------------===//
//
// Parses a training step (argv[1], or the tiny embedded one), runs
// amp::addMixedPrecisionPipeline in its own PassManager and checks that the
// step now has an amp.unscale_and_check and an scf.if (skip-update); then the
// separate passes (bf16 autocast + static loss scaling), an invalid option
// (must fail), and the CPU lowering. Exit code 0 only if every check holds.
//
//===----------------------------------------------------------------------===//

#include "amp/AmpMLIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

// One parameter w, loss = sum(x * w), SGD; contract of docs/training-step.md.
static const char *kStep = R"mlir(
func.func @step(%w: tensor<4x2xf32> {amp.role = "param"},
                %x: tensor<3x4xf32> {amp.role = "input"},
                %y: tensor<3xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"},
        tensor<4x2xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %h = linalg.matmul ins(%x, %w : tensor<3x4xf32>, tensor<4x2xf32>)
                     outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%h : tensor<3x2xf32>) outs(%z0 : tensor<f32>)
      dimensions = [0, 1]
      (%a: f32, %b: f32) {
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      }
  %seed = amp.loss_grad %loss : tensor<f32>
  %sv = tensor.extract %seed[] : tensor<f32>
  %dh = tensor.splat %sv : tensor<3x2xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %xt = linalg.transpose ins(%x : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>)
      permutation = [1, 0]
  %ew = tensor.empty() : tensor<4x2xf32>
  %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<4x2xf32>) -> tensor<4x2xf32>
  %dw = linalg.matmul ins(%xt, %dh : tensor<4x3xf32>, tensor<3x2xf32>)
                      outs(%zw : tensor<4x2xf32>) -> tensor<4x2xf32>
  %gw = amp.grad %dw, %w : tensor<4x2xf32>
  %lr = arith.constant dense<0.1> : tensor<4x2xf32>
  %upd = arith.mulf %gw, %lr : tensor<4x2xf32>
  %w1 = arith.subf %w, %upd : tensor<4x2xf32>
  return %loss, %w1 : tensor<f32>, tensor<4x2xf32>
}
)mlir";

static int failures = 0;

static void check(bool ok, const std::string &what) {
  llvm::outs() << (ok ? "ok    " : "FAIL  ") << what << "\n";
  if (!ok)
    ++failures;
}

static int count(ModuleOp module, llvm::StringRef name) {
  int n = 0;
  module->walk(
      [&](Operation *op) { n += op->getName().getStringRef() == name; });
  return n;
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  amp::registerAmpDialects(registry);
  MLIRContext context(registry);

  auto parse = [&]() -> OwningOpRef<ModuleOp> {
    OwningOpRef<ModuleOp> m =
        argc > 1 ? parseSourceFile<ModuleOp>(argv[1], &context)
                 : parseSourceString<ModuleOp>(kStep, &context);
    if (!m) {
      llvm::errs() << "cannot parse the input\n";
      std::exit(1);
    }
    return m;
  };
  llvm::outs() << "input: " << (argc > 1 ? argv[1] : "embedded step") << "\n";

  // 1. The whole pipeline, default options (f16, dynamic loss scaling).
  OwningOpRef<ModuleOp> module = parse();
  {
    PassManager pm(&context);
    amp::addMixedPrecisionPipeline(pm, amp::MixedPrecisionConfig{});
    // runPasses: pm.run with crash containment (on by default).
    check(succeeded(amp::runPasses(pm, module->getOperation())),
          "addMixedPrecisionPipeline runs (runPasses)");
    int unscale = count(*module, "amp.unscale_and_check");
    int ifs = count(*module, "scf.if");
    check(unscale >= 1, "amp.unscale_and_check: " + std::to_string(unscale));
    check(ifs >= 1, "scf.if: " + std::to_string(ifs));
    check(count(*module, "amp.update_scale") >= 1,
          "amp.update_scale (dynamic)");
  }

  // 2. The lowering of that result: only LLVM ops remain.
  {
    PassManager pm(&context);
    amp::addLowerToLLVMPipeline(pm);
    check(succeeded(pm.run(*module)), "addLowerToLLVMPipeline runs");
    check(count(*module, "llvm.func") >= 1,
          "llvm.func: " + std::to_string(count(*module, "llvm.func")));
  }

  // 3. The passes one by one: f16 autocast, static loss scaling.
  {
    OwningOpRef<ModuleOp> m = parse();
    amp::MixedPrecisionConfig config;
    config.precision = amp::Precision::F16;
    config.lossScale = amp::LossScaleMode::Static;
    config.initScale = 1024;
    PassManager pm(&context);
    amp::addAutocastPass(pm, config);
    amp::addLossScalingPass(pm, config);
    check(succeeded(pm.run(*m)), "addAutocastPass + addLossScalingPass run");
    check(count(*m, "amp.unscale_and_check") == 1 && count(*m, "scf.if") >= 1 &&
              count(*m, "amp.update_scale") == 0,
          "static: unscale_and_check + scf.if, no update_scale");
  }

  // 4. An invalid option fails at run time with one error that names the
  //    option and the value, as validate() says before anything runs; the
  //    API's runner formats it as amp-opt and amp-run do.
  {
    OwningOpRef<ModuleOp> m = parse();
    amp::MixedPrecisionConfig config;
    config.growthFactor = 1.0;
    std::string why = config.validate();
    check(why.find("growth-factor=1") == 0, "validate(): " + why);
    std::string diagnostics;
    PassManager pm(&context);
    amp::addMixedPrecisionPipeline(pm, config);
    check(failed(amp::runPasses(pm, *m, {}, &diagnostics)) &&
              diagnostics.find(": error: amp-loss-scaling: growth-factor=1") !=
                  std::string::npos,
          "invalid growth-factor fails: " + diagnostics);
  }

  // 5. Loss scaling with bf16 is rejected (bf16 has fp32's exponent range).
  {
    OwningOpRef<ModuleOp> m = parse();
    amp::MixedPrecisionConfig config;
    config.precision = amp::Precision::BF16;
    config.lossScale = amp::LossScaleMode::Dynamic;
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    PassManager pm(&context);
    amp::addMixedPrecisionPipeline(pm, config);
    check(failed(pm.run(*m)) &&
              message.find("precision=bf16") != std::string::npos,
          "bf16 + dynamic loss scaling fails: " + message);
  }

  llvm::outs() << (failures ? "FAILED" : "PASSED") << " (" << failures
               << " failures)\n";
  return failures ? 1 : 0;
}
