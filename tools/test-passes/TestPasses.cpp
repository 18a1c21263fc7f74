//===- TestPasses.cpp - the tools' test-only passes
//------------------------===//
//
// Passes that exist only to test amp's tools, registered only with the
// hidden flag --amp-enable-test-passes (never in the library, so neither the
// embedding API, the mlir-opt plugin nor the robustness corpus, which runs
// every registered `amp-` pass, can reach them).
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace mlir;

namespace {

/// `amp-test-crash`: crashes on purpose, the way a buggy pass does, to test
/// crash containment (amp/Support/CrashContainment.h). kind=segv writes
/// through a null pointer (SIGSEGV), kind=abort calls abort() (SIGABRT, as
/// a failed assertion does). Runs on any operation, so that it can be
/// nested (`builtin.module(func.func(amp-test-crash))`); only=NAME crashes
/// only on the operation whose symbol is @NAME and leaves the others alone.
struct TestCrashPass : PassWrapper<TestCrashPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCrashPass)
  TestCrashPass() = default;
  TestCrashPass(const TestCrashPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amp-test-crash"; }
  StringRef getDescription() const override {
    return "Test only: crash (kind=segv|abort)";
  }
  void runOnOperation() override {
    if (!only.empty()) {
      auto name = getOperation()->getAttrOfType<StringAttr>(
          SymbolTable::getSymbolAttrName());
      if (!name || name.getValue() != only)
        return;
    }
    if (kind == "abort")
      std::abort();
    volatile int *null = nullptr;
    *null = 1;
  }
  Option<std::string> kind{*this, "kind",
                           llvm::cl::desc("segv (null pointer) or abort"),
                           llvm::cl::init("segv")};
  Option<std::string> only{*this, "only",
                           llvm::cl::desc("crash only on the operation @NAME")};
};

} // namespace

void mlir::amp::registerTestPasses() { PassRegistration<TestCrashPass>(); }
