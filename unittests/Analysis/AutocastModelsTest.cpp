//===- AutocastModelsTest.cpp - amp-autocast on the example models --------===//
//
// The "done" criteria of the autocast issue on every example model
// (examples/models/{mlp,cnn,transformer}.mlir, examples/fashion-mnist/
// mlp.mlir), read from the pass's own JSON report:
//  - every op gets a class from the policy (no "unknown"), with a reason
//    and a rule;
//  - casts inserted <= precision-boundary edges (no value cast twice to the
//    same type), and < the naive per-op policy;
//  - the pass is idempotent: a second run prints the same module and
//    inserts no cast.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>

using namespace mlir;

namespace {

class AutocastModelsTest : public ::testing::TestWithParam<const char *> {
protected:
  AutocastModelsTest() : ctx(makeRegistry()) {}
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    amp::registerAllDialectsAndExtensions(registry);
    return registry;
  }

  /// Runs amp-autocast (f16) with a report; returns the parsed report.
  std::optional<llvm::json::Value> autocast(ModuleOp module) {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("amp-autocast-test", "json", path))
      return std::nullopt;
    PassManager pm(&ctx);
    amp::AutocastOptions options;
    options.precision = amp::Precision::F16;
    options.reportFile = path.str().str();
    pm.addPass(amp::createAutocast(options));
    bool ok = succeeded(pm.run(module));
    auto buffer = llvm::MemoryBuffer::getFile(path);
    llvm::sys::fs::remove(path);
    if (!ok || !buffer)
      return std::nullopt;
    auto json = llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      llvm::consumeError(json.takeError());
      return std::nullopt;
    }
    return std::move(*json);
  }

  static std::string print(ModuleOp module) {
    std::string s;
    llvm::raw_string_ostream os(s);
    module.print(os);
    return s;
  }

  MLIRContext ctx;
};

TEST_P(AutocastModelsTest, ClassesCastsIdempotence) {
  std::string path = std::string(AMP_SOURCE_DIR) + "/" + GetParam();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &ctx);
  ASSERT_TRUE(module) << path;

  std::optional<llvm::json::Value> first = autocast(*module);
  ASSERT_TRUE(first);
  const llvm::json::Object *report = first->getAsObject();
  ASSERT_TRUE(report);
  const llvm::json::Array *ops = report->getArray("ops");
  ASSERT_TRUE(ops);
  EXPECT_GT(ops->size(), 10u);
  for (const llvm::json::Value &entry : *ops) {
    const llvm::json::Object *op = entry.getAsObject();
    ASSERT_TRUE(op);
    EXPECT_NE(op->getString("class").value_or(""), "unknown")
        << op->getString("op").value_or("").str() << " "
        << op->getString("loc").value_or("").str();
    EXPECT_FALSE(op->getString("reason").value_or("").empty());
    EXPECT_FALSE(op->getString("rule").value_or("").empty());
  }
  const llvm::json::Object *totals = report->getObject("totals");
  ASSERT_TRUE(totals);
  int64_t casts = totals->getInteger("casts_inserted").value_or(-1);
  int64_t edges = totals->getInteger("boundary_edges").value_or(-1);
  int64_t naive = totals->getInteger("naive_local_casts").value_or(-1);
  EXPECT_GT(casts, 0);
  EXPECT_LE(casts, edges);
  EXPECT_LT(casts, naive);
  EXPECT_GT(totals->getInteger("mixed_ops").value_or(0), 0);
  EXPECT_EQ(totals->getObject("per_class")->getInteger("unknown"), 0);

  // Idempotent: a second run changes nothing and inserts no cast.
  std::string once = print(*module);
  std::optional<llvm::json::Value> second = autocast(*module);
  ASSERT_TRUE(second);
  EXPECT_EQ(print(*module), once);
  EXPECT_EQ(
      second->getAsObject()->getObject("totals")->getInteger("casts_inserted"),
      0);
}

INSTANTIATE_TEST_SUITE_P(Models, AutocastModelsTest,
                         ::testing::Values("examples/models/mlp.mlir",
                                           "examples/models/cnn.mlir",
                                           "examples/models/transformer.mlir",
                                           "examples/fashion-mnist/mlp.mlir"));

} // namespace
