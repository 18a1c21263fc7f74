//===- VectorTranspose.cpp - square transposes in registers ---------------===//

#include "VectorTranspose.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

void mlir::amp::transposeInRegisters(OpBuilder &b, Location loc,
                                     SmallVectorImpl<Value> &rows) {
  int64_t n = rows.size();
  assert(llvm::isPowerOf2_64(n) && "a power-of-two square");
  for (int64_t s = n / 2; s >= 1; s /= 2)
    for (int64_t i = 0; i < n; ++i) {
      if (i & s)
        continue;
      SmallVector<int64_t> top, bottom;
      for (int64_t j = 0; j < n; ++j) {
        top.push_back((j & s) ? n + j - s : j);
        bottom.push_back((j & s) ? n + j : j + s);
      }
      Value a = rows[i], c = rows[i + s];
      rows[i] = vector::ShuffleOp::create(b, loc, a, c, top);
      rows[i + s] = vector::ShuffleOp::create(b, loc, a, c, bottom);
    }
}
