//===- OutputFile.h - how a tool writes an output file ---------*- C++ -*-===//
//
// amp's tools write their outputs (amp-opt -o, amp-autocast report=,
// amp-run --csv) atomically: to a temporary file beside the target that is
// renamed over it only when the output is complete, so a failed run never
// leaves a half-written file. That is only right for regular files: renaming
// over /dev/null, a pipe or a symbolic link would replace them. This helper
// decides, once, for all three, and writes the output.
//
// The rename must not bypass the target's permissions (upstream `mlir-opt -o`
// refuses a file it may not write with "Permission denied"; a rename would
// replace a root-owned mode-444 file in a writable directory): an existing
// target that the user may not write (access(2) with W_OK) is an error naming
// the path, and the replacement keeps the mode (and, where the process may
// set it, the owner and group) of the file it replaces. The temporary file is
// removed on SIGINT, SIGTERM and crashes (llvm::sys::RemoveFileOnSignal, with
// LLVM's handlers from llvm::InitLLVM) and on SIGPIPE (a tool's stderr piped
// into `head`; removeTemporaryOutputsOnSigpipe).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_OUTPUTFILE_H
#define AMP_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
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
  /// Atomic, replacing an existing file: its status (permission bits, owner,
  /// group), which the replacement takes over. Absent for a new file, which
  /// gets 0666 minus the umask, as any new file.
  std::optional<llvm::sys::fs::file_status> existing;
  /// Direct to a descriptor this process already has open (standardStream):
  /// written through a duplicate, so a redirected log is neither truncated
  /// nor replaced.
  std::optional<int> descriptor;
};

/// The descriptor `path` names when it is one of this process's open
/// descriptors rather than a file: "-" and /dev/stdout (1), /dev/stderr (2),
/// /dev/fd/N and /proc/self/fd/N (N). Reopening such a path would truncate
/// (or, renamed over, replace) the file the shell redirected the stream to,
/// e.g. `amp-run ... --csv=/dev/stdout > log.txt` would lose the table.
std::optional<int> standardStream(llvm::StringRef path);

/// Classifies `path` (symbolic links followed; a dangling one is written
/// through, Direct). Errors, each "cannot write '<path>': <why>": a
/// directory; an existing file that this process may not write
/// (access(W_OK) fails: read-only for the user, owned by another user, a
/// read-only file system). Whether a new file can be created in its directory
/// is found out when the temporary file is created.
llvm::Expected<OutputTarget> classifyOutput(llvm::StringRef path);

/// An output file being written: through a temporary file beside the target
/// (Atomic) or directly (Direct, see OutputTarget). Nothing is visible at
/// the target until `commit()`; destroying an uncommitted OutputFile
/// discards the temporary file, and so does a signal or a crash.
class OutputFile {
public:
  /// Classifies `path` and opens it. `tempSuffix` names the temporary file:
  /// `<target><tempSuffix>-XXXXXX` (e.g. ".amp-opt-tmp"). Errors: those of
  /// classifyOutput, and "cannot write '<path>': <why>" when the temporary
  /// file (or, Direct, the file itself) cannot be opened.
  static llvm::Expected<std::unique_ptr<OutputFile>>
  open(llvm::StringRef path, llvm::StringRef tempSuffix = ".tmp");

  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  /// The stream to write the output to.
  llvm::raw_ostream &os() { return *stream; }
  /// The path the output is written to now: the temporary file (Atomic), or
  /// the target (Direct). For code that opens the output by name (e.g.
  /// mlir::MlirOptMain); it must truncate and rewrite it, not replace it.
  llvm::StringRef writtenPath() const;
  const OutputTarget &target() const { return targetInfo; }

  /// Flushes and, for Atomic, gives the temporary file the target's mode
  /// (and owner/group where the process may set them) and renames it over
  /// the target. Errors name the path given to `open`. After an error the
  /// temporary file is gone and the target unchanged.
  llvm::Error commit();
  /// Removes the temporary file (Atomic); the target stays as it was.
  void discard();

private:
  OutputFile(OutputTarget target, std::string requestedPath);

  OutputTarget targetInfo;
  std::string requestedPath;
  std::optional<llvm::sys::fs::TempFile> temp;
  std::unique_ptr<llvm::raw_fd_ostream> stream;
  bool done = false;
};

/// Makes SIGPIPE (a write into a closed pipe: `amp-opt ... 2>&1 | head -1`)
/// remove the files registered with llvm::sys::RemoveFileOnSignal, such as an
/// OutputFile's temporary file, before it ends the process with its default
/// action (exit status 141). llvm::InitLLVM means to do the same, but in LLVM
/// 22 its SIGPIPE handler is not installed (it registers LLVM's signal
/// handlers before it sets the pipe function that they check), so without
/// this a SIGPIPE leaves the temporary file behind. Call once in main, after
/// llvm::InitLLVM.
void removeTemporaryOutputsOnSigpipe();

} // namespace mlir::amp

#endif // AMP_SUPPORT_OUTPUTFILE_H
