//===- ModelExport.h - trained weights back into the model's IR -*- C++ -*-===//
//
// `amp-run --save-model=FILE --model=MODEL` (docs/data-and-checkpoints.md):
// the forward model a step was built from (torch-mlir's export form, weights
// as `dense_resource<key>` constants and their blobs in the file's
// `{-# dialect_resources: { builtin: { key: "0x..." } } #-}` section) with
// every trained parameter's blob replaced by its trained bytes. The builder
// (amp-build-train-step) puts `amp.initial_value = dense_resource<key>` on
// each parameter it made from a resource constant, so the key ties the
// step's parameter to the model's blob; a constant printed without its data
// (`dense_resource<__elided__>`) is found by its place in the file
// (`amp.elided_at`) and given a key of its own. The file is rewritten by
// text surgery: on the resource section and on the elided constants' lines;
// every other byte stays as it was.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H
#define AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// Where a trained parameter goes in the model file.
struct ModelBlob {
  /// Its dense_resource key in the written model: the key of its
  /// `amp.initial_value = dense_resource<key>`, or, for a parameter made
  /// from a constant printed without its data, `amp_trained_<argument>`.
  std::string key;
  /// That constant's line and column in the model (`amp.elided_at`, which
  /// amp-build-train-step writes): the writer replaces its
  /// `dense_resource<__elided__>` there by `dense_resource<key>`. Also the
  /// parameter's type as printed, which that line must hold.
  std::optional<std::pair<unsigned, unsigned>> elidedAt;
  std::string type;
};

/// The blob of every parameter of the training step `trainFn`, by argument
/// index. Errors name the parameter and point to --save-checkpoint: a
/// parameter without a resource initial value (made from a function
/// argument, `params=arguments`, or a hand-written step), an elided blob
/// `__elided__` without `amp.elided_at` (a step built before it was
/// recorded), two parameters of one elided constant or one key.
llvm::Expected<std::map<unsigned, ModelBlob>>
parameterModelBlobs(func::FuncOp trainFn);

/// `modelText` with the blob of every key of `blobs` replaced by those
/// bytes (the blob's 4-byte alignment header kept, the data as upper-case
/// hex, as MLIR prints it). A key the section does not hold (a model
/// printed without its blobs) is added to it, and a model without a
/// resource section gets one at its end, with alignment 4. Each blob of
/// `elided` (those with `elidedAt`) first names its constant: the
/// `dense_resource<__elided__>` on its line, from its column, becomes
/// `dense_resource<key>`. Errors, each naming `modelPath`: a blob of another
/// size than the trained tensor (the model is not the one the step was built
/// from), a key the model text never references as `dense_resource<key>`, an
/// elided constant not found where the step says (or not of the parameter's
/// type), a new key the model already uses.
llvm::Expected<std::string>
replaceResourceBlobs(llvm::StringRef modelText, llvm::StringRef modelPath,
                     const std::map<std::string, std::vector<char>> &blobs,
                     const std::vector<ModelBlob> &elided = {});

/// Reads `modelPath`, replaces the blobs (replaceResourceBlobs) and writes
/// the result to `outPath` atomically (amp/Support/OutputFile.h).
llvm::Error
writeTrainedModel(llvm::StringRef modelPath, llvm::StringRef outPath,
                  const std::map<std::string, std::vector<char>> &blobs,
                  const std::vector<ModelBlob> &elided = {});

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_CHECKPOINT_MODELEXPORT_H
