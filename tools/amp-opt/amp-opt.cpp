//===- amp-opt.cpp - mlir-opt with the amp dialect and passes -------------===//
//
// All upstream dialects and passes plus amp's. The only addition to
// upstream MlirOptMain is atomic output: with `-o FILE`, the result goes to
// a temporary file beside FILE that is renamed over FILE only when every
// pass succeeded. On any error the tool exits 1 and FILE is left exactly as
// it was (absent, or with its previous contents); upstream would already
// have truncated it. Non-regular outputs (-o /dev/null, a pipe) and stdout
// are written directly.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

/// Whether `-o path` should be written through a temporary file: a regular
/// file or a path that does not exist yet.
static bool writeAtomically(llvm::StringRef path) {
  if (path == "-")
    return false;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return true; // does not exist (or unreadable: fail at rename)
  return llvm::sys::fs::is_regular_file(status);
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  amp::registerAllPassesAndPipelines();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "amp-mlir optimizer driver\n", registry);
  if (!writeAtomically(outputFilename))
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // Same directory, so that the rename is atomic (one file system).
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          outputFilename + ".amp-opt-tmp-%%%%%%", tmp)) {
    llvm::errs() << "error: cannot create a temporary file beside '"
                 << outputFilename << "': " << ec.message() << "\n";
    return 1;
  }
  // MlirOptMain removes its output file when it fails (ToolOutputFile) and
  // on a crash (RemoveFileOnSignal).
  LogicalResult result =
      MlirOptMain(argc, argv, inputFilename, tmp.str(), registry);
  if (failed(result)) {
    llvm::sys::fs::remove(tmp);
    return 1;
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, outputFilename)) {
    llvm::errs() << "error: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    llvm::sys::fs::remove(tmp);
    return 1;
  }
  return 0;
}
