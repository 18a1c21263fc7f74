//===- JitWrappersTest.cpp - call wrappers compiled unoptimized -----------===//
//
// JitModule::compileWrappersUnoptimized marks exactly the call wrappers of
// the entry points (`_mlir_ciface_<name>`, `_mlir_<name>`,
// `_mlir__mlir_ciface_<name>`) optnone + noinline: not the entry point
// itself, not the functions it calls, not another function's wrappers,
// not a declaration. (Steps JIT-compiled with it: every amp-run test.)
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/JitModule.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

using namespace mlir::amp::runtime;

namespace {

llvm::Function *define(llvm::Module &m, llvm::StringRef name) {
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(m.getContext()), false);
  auto *fn =
      llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(m.getContext(), "entry", fn));
  b.CreateRetVoid();
  return fn;
}

bool unoptimized(const llvm::Module &m, llvm::StringRef name) {
  const llvm::Function *fn = m.getFunction(name);
  EXPECT_NE(fn, nullptr) << name.str();
  return fn && fn->hasFnAttribute(llvm::Attribute::OptimizeNone) &&
         fn->hasFnAttribute(llvm::Attribute::NoInline);
}

TEST(JitWrappersTest, OnlyTheEntryPointsWrappers) {
  llvm::LLVMContext ctx;
  llvm::Module m("step", ctx);
  for (llvm::StringRef name :
       {"train_step", "train_step_nest0", "_mlir_ciface_train_step",
        "_mlir_train_step", "_mlir__mlir_ciface_train_step", "eval_step",
        "_mlir_ciface_eval_step", "_mlir_eval_step"})
    define(m, name);
  // A declaration named like a wrapper stays a declaration.
  llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
      llvm::Function::ExternalLinkage, "_mlir__mlir_ciface_eval_step", m);

  JitModule::compileWrappersUnoptimized(m, {"train_step"});
  EXPECT_TRUE(unoptimized(m, "_mlir_ciface_train_step"));
  EXPECT_TRUE(unoptimized(m, "_mlir_train_step"));
  EXPECT_TRUE(unoptimized(m, "_mlir__mlir_ciface_train_step"));
  EXPECT_FALSE(unoptimized(m, "train_step"));
  EXPECT_FALSE(unoptimized(m, "train_step_nest0"));
  EXPECT_FALSE(unoptimized(m, "_mlir_ciface_eval_step"));

  JitModule::compileWrappersUnoptimized(m, {"eval_step"});
  EXPECT_TRUE(unoptimized(m, "_mlir_ciface_eval_step"));
  EXPECT_TRUE(unoptimized(m, "_mlir_eval_step"));
  EXPECT_FALSE(unoptimized(m, "eval_step"));
  EXPECT_FALSE(m.getFunction("_mlir__mlir_ciface_eval_step")
                   ->hasFnAttribute(llvm::Attribute::OptimizeNone));
}

} // namespace
