//===- TestPasses.h - the tools' test-only passes --------------*- C++ -*-===//

#ifndef AMP_TOOLS_TESTPASSES_H
#define AMP_TOOLS_TESTPASSES_H

namespace mlir::amp {

/// Registers `amp-test-crash` (amp-opt and amp-run with the hidden
/// --amp-enable-test-passes only).
void registerTestPasses();

} // namespace mlir::amp

#endif // AMP_TOOLS_TESTPASSES_H
