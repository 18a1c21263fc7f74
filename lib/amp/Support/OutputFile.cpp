//===- OutputFile.cpp - where and how a tool writes an output file --------===//

#include "amp/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir::amp;

llvm::Expected<OutputTarget> mlir::amp::classifyOutput(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  auto error = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write '" + path + "': " + why);
  };
  if (path == "-")
    return OutputTarget{OutputTarget::Mode::Direct, path.str()};
  fs::file_status status;
  if (fs::status(path, status, /*follow=*/true)) {
    // Absent: a new regular file. A dangling symbolic link is written
    // through (Direct), which creates its target and keeps the link.
    fs::file_status linkStatus;
    if (!fs::status(path, linkStatus, /*follow=*/false) &&
        fs::is_symlink_file(linkStatus))
      return OutputTarget{OutputTarget::Mode::Direct, path.str()};
    return OutputTarget{OutputTarget::Mode::Atomic, path.str()};
  }
  if (fs::is_directory(status))
    return error("is a directory");
  if (!fs::is_regular_file(status))
    return OutputTarget{OutputTarget::Mode::Direct, path.str()};
  llvm::SmallString<256> real;
  if (std::error_code ec = fs::real_path(path, real))
    return error(ec.message());
  return OutputTarget{OutputTarget::Mode::Atomic, std::string(real)};
}
