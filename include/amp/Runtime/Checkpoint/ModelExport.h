//===- ModelExport.h - trained weights back into the model's IR -*- C++ -*-===//
//
// `amp-run --save-model=FILE --model=MODEL` (docs/data-and-checkpoints.md):
// the forward model a step was built from (torch-mlir's export form, weights
// as `dense_resource<key>` constants and their blobs in the file's
// `{-# dialect_resources: { builtin: { key: "0x..." } } #-}` section) with
// every trained parameter's blob replaced by its trained bytes. The builder
// (amp-build-train-step) puts `amp.initial_value = dense_resource<key>` on
// each parameter it made from a resource constant, so the key ties the
// step's parameter to the model's blob. The file is rewritten by text
// surgery on the resource section: every other byte stays as it was.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H
#define AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// The resource key of every parameter of the training step `trainFn`, by
/// argument index: its `amp.initial_value = dense_resource<key>`. Errors
/// name the parameter and point to --save-checkpoint: a parameter without
/// a resource initial value (made from a function argument,
/// `params=arguments`, or a hand-written step), a dense literal, the
/// elided blob `__elided__`, a key two parameters share.
llvm::Expected<std::map<unsigned, std::string>>
parameterResourceKeys(func::FuncOp trainFn);

/// `modelText` with the blob of every key of `blobs` replaced by those
/// bytes (the blob's 4-byte alignment header kept, the data as upper-case
/// hex, as MLIR prints it). A key the section does not hold (a model
/// printed without its blobs) is added to it, and a model without a
/// resource section gets one at its end, with alignment 4. Errors, each
/// naming `modelPath`: a blob of another size than the trained tensor (the
/// model is not the one the step was built from), a key the model text
/// never references as `dense_resource<key>`.
llvm::Expected<std::string>
replaceResourceBlobs(llvm::StringRef modelText, llvm::StringRef modelPath,
                     const std::map<std::string, std::vector<char>> &blobs);

/// Reads `modelPath`, replaces the blobs (replaceResourceBlobs) and writes
/// the result to `outPath` atomically (amp/Support/OutputFile.h).
llvm::Error
writeTrainedModel(llvm::StringRef modelPath, llvm::StringRef outPath,
                  const std::map<std::string, std::vector<char>> &blobs);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H
