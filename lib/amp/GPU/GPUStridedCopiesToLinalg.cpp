//===- GPUStridedCopiesToLinalg.cpp - amp-gpu-strided-copies-to-linalg ----===//
//
// A memref.copy from or into a non-contiguous buffer (what bufferizing a
// tensor.pad or an insert_slice leaves) becomes a linalg.copy, so that the
// GPU lowering runs it as a kernel instead of a gpu.memcpy it cannot make.
//
//===----------------------------------------------------------------------===//

#include "amp/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GPUSTRIDEDCOPIESTOLINALG
#include "amp/GPU/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;

namespace {
struct GPUStridedCopiesToLinalgPass
    : amp::impl::GPUStridedCopiesToLinalgBase<GPUStridedCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto strided = [](Value v) {
        return !cast<MemRefType>(v.getType()).getLayout().isIdentity();
      };
      if (strided(copy.getSource()) || strided(copy.getTarget()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};
} // namespace
