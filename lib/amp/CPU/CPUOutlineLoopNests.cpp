//===- CPUOutlineLoopNests.cpp - amp-cpu-outline-loop-nests ---------------===//
//
// Every outermost loop nest of a function as a function of its own, so
// that LLVM optimizes many small functions instead of one function of
// hundreds of thousands of instructions. See the pass description in
// CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CPUOUTLINELOOPNESTS
#include "amp/CPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `nest` can be a function of its own: no stack allocation made
/// inside it reaches its results (the callee's frame is gone when the call
/// returns: an scf.for that yields a memref.alloca of its body).
static bool canOutline(Operation *nest) {
  if (nest->getNumResults() == 0)
    return true;
  WalkResult stack = nest->walk([](Operation *op) {
    // (llvm.alloca declares no effects.)
    if (isa<LLVM::AllocaOp>(op))
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    if (auto iface = dyn_cast<MemoryEffectOpInterface>(op))
      iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects)
      if (isa<MemoryEffects::Allocate>(e.getEffect()) &&
          e.getResource() ==
              SideEffects::AutomaticAllocationScopeResource::get())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !stack.wasInterrupted();
}

/// The outermost scf.for / scf.parallel ops of `fn` that can be outlined
/// (canOutline): loops inside no other loop, in program order, and only in
/// the function's body or in scf control flow (an scf.if, such as loss
/// scaling's skip-update region, an scf.while, execute_region or
/// index_switch): a loop in another op's region may use what only that op
/// provides (a linalg.index in a generic's body) or must keep its effects
/// (memref.generic_atomic_rmw), and an unknown op may be a symbol table
/// that a call could not see out of.
static SmallVector<Operation *> outermostLoops(func::FuncOp fn) {
  SmallVector<Operation *> nests;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<scf::ForOp, scf::ParallelOp>(op)) {
      if (canOutline(op))
        nests.push_back(op);
      return WalkResult::skip();
    }
    if (op != fn.getOperation() && op->getNumRegions() &&
        !isa<scf::IfOp, scf::WhileOp, scf::ExecuteRegionOp, scf::IndexSwitchOp>(
            op))
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return nests;
}

/// Moves `nest` into a new private function `name`, placed after `after`
/// (its function, or the last function made from it), and calls it in its
/// place; returns the new function. The values the nest uses from outside
/// become the function's arguments, but for constants, which are cloned into it
/// (a loop bound or a vector constant known to LLVM, as before); its results
/// are the function's results.
static std::pair<func::FuncOp, func::CallOp> outline(Operation *nest,
                                                     Operation *after,
                                                     StringRef name,
                                                     SymbolTable &symbols) {
  llvm::SetVector<Value> captured(nest->getOperands().begin(),
                                  nest->getOperands().end());
  getUsedValuesDefinedAbove(nest->getRegions(), captured);
  SmallVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value v : captured) {
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>() &&
        def->getNumOperands() == 0 && def->getNumRegions() == 0)
      constants.push_back(def);
    else
      arguments.push_back(v);
  }

  MLIRContext *ctx = nest->getContext();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(after);
  auto type = FunctionType::get(ctx, ValueRange(arguments).getTypes(),
                                nest->getResultTypes());
  auto outlined = func::FuncOp::create(b, nest->getLoc(), name, type);
  outlined.setPrivate();
  // Internal to the module, and kept out of line: LLVM's inliner would
  // put a single-call function back into its caller.
  outlined->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  outlined->setAttr("passthrough",
                    b.getArrayAttr({b.getStringAttr("noinline")}));
  symbols.insert(outlined); // renames it if the name is taken

  Block *entry = outlined.addEntryBlock();
  IRMapping map;
  for (auto [value, arg] : llvm::zip(arguments, entry->getArguments()))
    map.map(value, arg);
  b.setInsertionPointToStart(entry);
  for (Operation *c : constants)
    b.clone(*c, map);
  Operation *moved = b.clone(*nest, map);
  func::ReturnOp::create(b, nest->getLoc(), moved->getResults());

  b.setInsertionPoint(nest);
  auto call = func::CallOp::create(b, nest->getLoc(), outlined, arguments);
  nest->replaceAllUsesWith(call.getResults());
  nest->erase();
  return {outlined, call};
}

/// A hash of `fn`'s body that equivalent bodies (isSameBody) share: every
/// op's name, attributes, properties and types, in program order, not its
/// location and not which values it uses.
static llvm::hash_code bodyHash(func::FuncOp fn) {
  llvm::hash_code hash = hash_value(fn.getFunctionType());
  fn.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

/// Whether `a` and `b` compute the same from the same arguments: the same
/// type, and bodies that are the same ops with the same attributes on
/// corresponding values (OperationEquivalence), locations aside.
static bool isSameBody(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

namespace {
struct CPUOutlineLoopNestsPass
    : amp::impl::CPUOutlineLoopNestsBase<CPUOutlineLoopNestsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The functions made so far, by bodyHash.
    llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp, 1>> made;
    // (Collected first: a function made here holds one nest, and is left
    // alone by a later run as well.)
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal())
        continue;
      SmallVector<Operation *> nests = outermostLoops(fn);
      // A function of one nest gains nothing.
      if (nests.size() < 2)
        continue;
      Operation *after = fn;
      unsigned index = 0;
      for (Operation *nest : nests) {
        func::FuncOp outlined;
        func::CallOp call;
        std::tie(outlined, call) =
            outline(nest, after,
                    (fn.getName() + "_nest" + Twine(index++)).str(), symbols);
        if (share) {
          // A nest the same as one outlined before (the same layer's ops
          // in each of a model's layers, the eval step's forward) calls
          // that function instead: LLVM compiles it once.
          SmallVector<func::FuncOp, 1> &same = made[bodyHash(outlined)];
          auto it = llvm::find_if(
              same, [&](func::FuncOp f) { return isSameBody(f, outlined); });
          if (it != same.end()) {
            call.setCallee(it->getName());
            symbols.erase(outlined);
            continue;
          }
          same.push_back(outlined);
        }
        after = outlined;
      }
    }
  }
};
} // namespace
