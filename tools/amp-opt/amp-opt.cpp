//===- amp-opt.cpp - mlir-opt with the amp dialect and passes -------------===//
//
// All upstream dialects and passes plus amp's. The only addition to
// upstream MlirOptMain is atomic output: with `-o FILE`, the result goes to
// a temporary file beside FILE that is renamed over FILE only when every
// pass succeeded. On any error the tool exits 1 and FILE is left exactly as
// it was (absent, or with its previous contents); upstream would already
// have truncated it. Non-regular outputs (-o /dev/null, a pipe) and stdout
// are written directly; through a symbolic link the file it points to is
// replaced, not the link (amp/Support/OutputFile.h).
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Support/OutputFile.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

int main(int argc, char **argv) {
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  amp::registerAllPassesAndPipelines();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "amp-mlir optimizer driver\n", registry);
  auto target = amp::classifyOutput(outputFilename);
  if (!target) {
    llvm::errs() << "error: " << llvm::toString(target.takeError()) << "\n";
    return 1;
  }
  if (target->mode == amp::OutputTarget::Mode::Direct)
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // Same directory, so that the rename is atomic (one file system).
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          target->path + ".amp-opt-tmp-%%%%%%", tmp)) {
    llvm::errs() << "error: cannot create a temporary file beside '"
                 << target->path << "': " << ec.message() << "\n";
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
  if (std::error_code ec = llvm::sys::fs::rename(tmp, target->path)) {
    llvm::errs() << "error: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    llvm::sys::fs::remove(tmp);
    return 1;
  }
  return 0;
}
