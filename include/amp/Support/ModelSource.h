//===- ModelSource.h - where a built step's weights are in its model file -===//
//
// What amp-build-train-step records about the model file it read, and what
// amp-run --save-model checks against it (docs/data-and-checkpoints.md): the
// file's path and content hash (`amp.source_model`, `amp.source_model_xxh3`
// on the step's module), and the line and column of every constant printed
// without its data (`amp.elided_at`), which the export names and fills.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_MODELSOURCE_H
#define AMP_SUPPORT_MODELSOURCE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace mlir::amp {

/// The key of every blob printed without its data
/// (`--mlir-elide-resource-strings-if-larger`): distinct weights, whose
/// values are unknown.
constexpr llvm::StringLiteral kElidedResourceKey = "__elided__";
/// The text every elided constant holds, and the part before its key.
constexpr llvm::StringLiteral kResourcePrefix = "dense_resource<";
constexpr llvm::StringLiteral kElidedResourceText =
    "dense_resource<__elided__>";

/// The byte offset of 1-based `line` and `column` in `text`, or npos when
/// the text has no such place.
size_t offsetOfLineColumn(llvm::StringRef text, unsigned line, unsigned column);

/// Where `kElidedResourceText` is on the line of `line`:`column` in `text`,
/// at or after the column, with `: <type>` after it (the constant's type as
/// printed); npos when it is not there.
size_t findElidedConstant(llvm::StringRef text, unsigned line, unsigned column,
                          llvm::StringRef type);

/// The xxh3 hash of a model file's bytes, as 16 hex digits.
std::string modelTextHash(llvm::StringRef text);

} // namespace mlir::amp

#endif // AMP_SUPPORT_MODELSOURCE_H
