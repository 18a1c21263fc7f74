//===- CrashContainmentTest.cpp - runWithCrashContainment -----------------===//
//
// The library entry point of crash containment (what amp-run's pipeline
// runner and embedding compilers call): a crash inside a pass becomes one
// located error naming the pass plus a reproducer; an ordinary failure keeps
// its own diagnostics and writes no reproducer; a clean run is unchanged.
//
//===----------------------------------------------------------------------===//

#include "amp/Support/CrashContainment.h"
#include "amp/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Crashes (null pointer write, SIGSEGV) on func.func ops, as a buggy
/// upstream pass does.
struct CrashingPass : PassWrapper<CrashingPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashingPass)
  StringRef getArgument() const override { return "unittest-crash"; }
  void runOnOperation() override {
    volatile int *null = nullptr;
    *null = 1;
  }
};

/// Fails the ordinary way: a located error, then signalPassFailure.
struct FailingPass : PassWrapper<FailingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailingPass)
  StringRef getArgument() const override { return "unittest-fail"; }
  void runOnOperation() override {
    getOperation().emitError("ordinary failure");
    signalPassFailure();
  }
};

constexpr const char *kModule = R"mlir(
func.func @victim(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)mlir";

class CrashContainmentTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialectsAndExtensions(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    module = parseSourceString<ModuleOp>(kModule, ctx.get(), "victim.mlir");
    ASSERT_TRUE(module);
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("amp-crash-test", dir));
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, "repro.mlir");
    options.reproducerPath = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// Runs `pm` contained and collects the errors.
  LogicalResult run(PassManager &pm) {
    ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error) {
        llvm::raw_string_ostream os(errors);
        os << d.getLocation() << ": " << d << "\n";
      }
      return success();
    });
    return runWithCrashContainment(pm, module->getOperation(), options);
  }

  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  llvm::SmallString<256> dir;
  CrashContainmentOptions options;
  std::string errors;
};

} // namespace

TEST_F(CrashContainmentTest, CrashBecomesErrorNamingThePass) {
  PassManager pm(ctx.get());
  pm.addNestedPass<func::FuncOp>(std::make_unique<CrashingPass>());
  EXPECT_TRUE(failed(run(pm)));
  // One error, located at the function the pass ran on.
  EXPECT_NE(errors.find("\"victim.mlir\":2:1"), std::string::npos) << errors;
  EXPECT_NE(errors.find("pass 'unittest-crash' ("), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("CrashingPass) crashed on 'func.func' @victim "
                        "(signal 11: Segmentation fault): an internal "
                        "compiler error"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("reproducer: '" + options.reproducerPath + "'"),
            std::string::npos)
      << errors;
  EXPECT_EQ(errors.find('\n'), errors.size() - 1) << "one error: " << errors;
  // The reproducer: the IR before the pass and the pass, nested as it ran.
  auto repro = llvm::MemoryBuffer::getFile(options.reproducerPath);
  ASSERT_TRUE(static_cast<bool>(repro));
  llvm::StringRef text = (*repro)->getBuffer();
  EXPECT_TRUE(text.contains("func.func @victim")) << text.str();
  EXPECT_TRUE(
      text.contains("pipeline: \"builtin.module(func.func(unittest-crash))\""))
      << text.str();
}

TEST_F(CrashContainmentTest, OrdinaryFailureKeepsItsDiagnostics) {
  PassManager pm(ctx.get());
  pm.addPass(std::make_unique<FailingPass>());
  EXPECT_TRUE(failed(run(pm)));
  EXPECT_NE(errors.find("ordinary failure"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("crashed"), std::string::npos) << errors;
  EXPECT_FALSE(llvm::sys::fs::exists(options.reproducerPath));
}

TEST_F(CrashContainmentTest, CleanRunIsUnchangedAndRestoresThreading) {
  ASSERT_TRUE(ctx->isMultithreadingEnabled());
  PassManager pm(ctx.get());
  pm.addPass(createCanonicalizerPass());
  EXPECT_TRUE(succeeded(run(pm)));
  EXPECT_TRUE(errors.empty()) << errors;
  EXPECT_TRUE(ctx->isMultithreadingEnabled());
  EXPECT_FALSE(llvm::sys::fs::exists(options.reproducerPath));
  EXPECT_TRUE(module->lookupSymbol("victim"));
}

TEST_F(CrashContainmentTest, TemporaryReproducerByDefault) {
  options.reproducerPath.clear();
  PassManager pm(ctx.get());
  pm.addPass(std::make_unique<CrashingPass>());
  EXPECT_TRUE(failed(run(pm)));
  size_t at = errors.find("reproducer: '");
  ASSERT_NE(at, std::string::npos) << errors;
  std::string path =
      errors.substr(at + 13, errors.find('\'', at + 13) - at - 13);
  EXPECT_TRUE(llvm::StringRef(path).contains("amp-crash-reproducer-")) << path;
  EXPECT_TRUE(llvm::sys::fs::exists(path)) << path;
  llvm::sys::fs::remove(path);
}
