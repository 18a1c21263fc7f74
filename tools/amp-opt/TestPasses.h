//===- TestPasses.h - amp-opt's test-only passes ----------------*- C++ -*-===//

#ifndef AMP_OPT_TESTPASSES_H
#define AMP_OPT_TESTPASSES_H

namespace mlir::amp {

/// Registers `amp-test-crash` (amp-opt --amp-enable-test-passes only).
void registerTestPasses();

} // namespace mlir::amp

#endif // AMP_OPT_TESTPASSES_H
