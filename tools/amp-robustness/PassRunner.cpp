//===- PassRunner.cpp - run every amp pass on a module, checked -----------===//

#include "PassRunner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mlir::amp::robustness;

namespace {

/// Verifies the IR after every successful pass; records the first failure.
/// (The pass manager's own verifier is off so that a verifier error is not
/// mistaken for a pass that failed with a diagnostic.)
class VerifyAfterEachPass : public PassInstrumentation {
public:
  explicit VerifyAfterEachPass(std::string &firstFailure)
      : firstFailure(firstFailure) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (!firstFailure.empty() || succeeded(verify(op)))
      return;
    firstFailure =
        (pass->getArgument().empty() ? pass->getName() : pass->getArgument())
            .str();
  }

private:
  std::string &firstFailure;
};

/// Option variants of the known configurable passes and pipelines, on top of
/// the defaults; a variant whose options no longer parse is dropped.
const std::pair<const char *, const char *> kVariants[] = {
    {"amp-autocast", "precision=bf16"},
    {"amp-build-train-step", "loss=mse optimizer=adamw weight-decay=0.01"},
    {"amp-build-train-step", "loss=none optimizer=sgd"},
    {"amp-build-train-step", "raise-softmax=false"},
    // Sequence-first layouts moved and re-batched (batch-dim=).
    {"amp-build-train-step", "loss=mse batch-dim=1 batch=dynamic"},
    {"amp-rebatch", "batch=3 batch-dim=1"},
    {"amp-autocast", "precision=f32"},
    {"amp-chunk-batch-reductions", "chunks=2"},
    {"amp-loss-scaling", "mode=static init-scale=1024"},
    {"amp-loss-scaling", "mode=none"},
    {"amp-mixed-precision", "precision=bf16 loss-scale=static"},
    {"amp-mixed-precision", "precision=f32 loss-scale=none"},
    // Recomputation off / casts only (the defaults recompute elementwise
    // ops and reductions).
    {"amp-mixed-precision",
     "precision=f16 loss-scale=dynamic recompute-elementwise=false"},
    {"amp-mixed-precision", "precision=bf16 recompute=false "
                            "keep-accumulators-low=false"},
    {"amp-recompute-for-backward", "elementwise=false"},
    // Interleaved partial sums (the CPU lowering's; the default is none).
    {"amp-split-long-sums", "lanes=16 min-terms=64"},
    // The AVX512_BF16 kernel (IR only: the corpus runs no code).
    {"amp-cpu-tile-contractions",
     "bf16-dot=true dot-tile-rows=5 dot-tile-cols=48"},
    {"amp-lower-to-llvm", "bf16-dot=true"},
    // The CPU lowering without amp-cpu-vectorize-rows (rows left to the
    // loops and LLVM's vectorizer, as before that pass).
    {"amp-lower-to-llvm", "vectorize-rows=false"},
    // libm's expf instead of the polynomial (amp-cpu-polynomial-exp).
    {"amp-lower-to-llvm", "polynomial-exp=false"},
    // libm's erff instead of the rational approximation
    // (amp-cpu-polynomial-erf).
    {"amp-lower-to-llvm", "polynomial-erf=false"},
    // libm's tanhf instead of the rational approximation
    // (amp-cpu-polynomial-tanh).
    {"amp-lower-to-llvm", "polynomial-tanh=false"},
    // One train_step, its loop nests left inline
    // (amp-cpu-outline-loop-nests).
    {"amp-lower-to-llvm", "outline-loops=false"},
    // Depth slices of 4: the contractions' multi-slice paths (C rounded by
    // the last slice only, accumulators reloaded between slices).
    {"amp-cpu-tile-contractions", "tile-depth=4"},
};

bool addToPipeline(OpPassManager &pm, const PassUnderTest &p,
                   std::string *error = nullptr) {
  auto onError = [&](const Twine &msg) {
    if (error)
      *error = msg.str();
    return failure();
  };
  const PassRegistryEntry *entry =
      p.isPipeline ? static_cast<const PassRegistryEntry *>(
                         PassPipelineInfo::lookup(p.argument))
                   : static_cast<const PassRegistryEntry *>(
                         PassInfo::lookup(p.argument));
  if (!entry)
    return false;
  return succeeded(entry->addToPipeline(pm, p.options, onError));
}

} // namespace

StringRef mlir::amp::robustness::outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Success:
    return "success";
  case Outcome::Diagnosed:
    return "diagnosed";
  case Outcome::SilentFailure:
    return "silent-failure";
  case Outcome::VerifierFailed:
    return "verifier-failed";
  }
  return "?";
}

std::vector<PassUnderTest> mlir::amp::robustness::listAmpPassesUnderTest() {
  // MLIR has no iterator over its pass registry; the command-line parser of
  // pass names has one: constructing it adds one cl option per registered
  // pass and pipeline (as mlir-opt's `--<pass>` flags).
  static PassPipelineCLParser *parser =
      new PassPipelineCLParser("", "amp-robustness passes");
  (void)parser;
  std::set<std::string> names;
  // Test-only passes (amp-opt's amp-test-*, which crash on purpose) are
  // never passes under test, should a tool ever register them.
  for (auto &entry : llvm::cl::getRegisteredOptions())
    if (entry.first.starts_with("amp-") &&
        !entry.first.starts_with("amp-test-"))
      names.insert(entry.first.str());

  std::vector<PassUnderTest> result;
  for (const std::string &name : names) {
    PassUnderTest p;
    p.argument = name;
    if (PassInfo::lookup(name))
      p.isPipeline = false;
    else if (PassPipelineInfo::lookup(name))
      p.isPipeline = true;
    else
      continue; // a cl option of a tool, not a pass
    result.push_back(p);
    for (auto [arg, options] : kVariants) {
      if (name != arg)
        continue;
      PassUnderTest v = p;
      v.options = options;
      MLIRContext ctx;
      OpPassManager pm("builtin.module", OpPassManager::Nesting::Implicit);
      if (addToPipeline(pm, v))
        result.push_back(v);
      else
        llvm::errs() << "note: option variant " << v.str()
                     << " no longer parses; skipped\n";
    }
  }
  return result;
}

RunResult mlir::amp::robustness::runChecked(ModuleOp module,
                                            const PassUnderTest &pass) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> clone(module.clone());
  RunResult result;
  unsigned errors = 0;
  llvm::raw_string_ostream os(result.diagnostics);
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      if (++errors <= 3)
        os << d.getLocation() << ": " << d << "\n";
    }
    return success();
  });

  PassManager pm(ctx, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  pm.enableVerifier(false);
  std::string verifierFailure;
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>(verifierFailure));
  std::string optionError;
  if (!addToPipeline(pm, pass, &optionError)) {
    result.outcome = Outcome::SilentFailure;
    os << "cannot build " << pass.str() << ": " << optionError << "\n";
    return result;
  }
  LogicalResult status = pm.run(*clone);
  if (!verifierFailure.empty()) {
    result.outcome = Outcome::VerifierFailed;
    os << "IR does not verify after " << verifierFailure << "\n";
  } else if (succeeded(status)) {
    result.outcome = Outcome::Success;
  } else {
    result.outcome = errors ? Outcome::Diagnosed : Outcome::SilentFailure;
  }
  return result;
}
