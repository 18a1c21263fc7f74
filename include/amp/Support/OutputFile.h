//===- OutputFile.h - where and how a tool writes an output file -*- C++
//-*-===//
//
// amp's tools write their outputs (amp-opt -o, amp-autocast report=,
// amp-run --csv) atomically: to a temporary file beside the target that is
// renamed over it only when the output is complete, so a failed run never
// leaves a half-written file. That is only right for regular files: renaming
// over /dev/null, a pipe or a symbolic link would replace them. This helper
// decides, once, for all three.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_OUTPUTFILE_H
#define AMP_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::amp {

/// How to write an output path.
struct OutputTarget {
  /// Atomic: write a temporary file in the directory of `path` and rename it
  /// over `path`. Direct: open `path` and write into it (stdout "-", a
  /// character device such as /dev/null or /dev/stdout, a FIFO, a socket,
  /// a dangling symbolic link).
  enum class Mode { Atomic, Direct } mode = Mode::Atomic;
  /// For Atomic the file that is replaced: the given path, or the file a
  /// symbolic link points to (the link itself is kept). For Direct the
  /// given path.
  std::string path;
};

/// Classifies `path` (symbolic links followed; a dangling one is written
/// through, Direct). Errors, naming the path: a directory.
llvm::Expected<OutputTarget> classifyOutput(llvm::StringRef path);

} // namespace mlir::amp

#endif // AMP_SUPPORT_OUTPUTFILE_H
