//===- OpenMPIOpSymbols.cpp - amp-openmpi-op-symbols ----------------------===//
//
// Upstream MPIToLLVM (LLVM 22) declares Open MPI's predefined reduction ops
// as `@ompi_mpi_<op>`; Open MPI exports them as `ompi_mpi_op_<op>` (mpi.h:
// `#define MPI_SUM OMPI_PREDEFINED_GLOBAL(MPI_Op, ompi_mpi_op_sum)`). The
// globals are renamed after convert-to-llvm so that the JIT (or a linker)
// resolves them against libmpi.so.
//
//===----------------------------------------------------------------------===//

#include "amp/Distributed/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::amp {
#define GEN_PASS_DEF_OPENMPIOPSYMBOLS
#include "amp/Distributed/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct OpenMPIOpSymbolsPass
    : amp::impl::OpenMPIOpSymbolsBase<OpenMPIOpSymbolsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    constexpr StringLiteral prefix = "ompi_mpi_", opPrefix = "ompi_mpi_op_";
    SmallVector<LLVM::GlobalOp> misnamed;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto type = dyn_cast<LLVM::LLVMStructType>(global.getGlobalType());
      StringRef name = global.getSymName();
      if (type && type.isIdentified() &&
          type.getName() == "ompi_predefined_op_t" &&
          name.starts_with(prefix) && !name.starts_with(opPrefix))
        misnamed.push_back(global);
    }
    for (LLVM::GlobalOp global : misnamed) {
      std::string name =
          (opPrefix + global.getSymName().drop_front(prefix.size())).str();
      StringAttr newName = StringAttr::get(&getContext(), name);
      if (failed(SymbolTable::replaceAllSymbolUses(global, newName, module))) {
        global.emitError("cannot rename the uses of @")
            << global.getSymName() << " to @" << name;
        return signalPassFailure();
      }
      if (module.lookupSymbol(newName))
        global.erase(); // already declared under its real name
      else
        global.setSymName(name);
    }
  }
};
} // namespace
