//===- OutputFile.cpp - where and how a tool writes an output file --------===//

#include "amp/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir::amp;
namespace fs = llvm::sys::fs;

static llvm::Error cannotWrite(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot write '" + path + "': " + why);
}

std::optional<int> mlir::amp::standardStream(llvm::StringRef path) {
  if (path == "-" || path == "/dev/stdout")
    return 1;
  if (path == "/dev/stderr")
    return 2;
  for (llvm::StringRef prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    unsigned fd;
    if (path.consume_front(prefix) && !path.getAsInteger(10, fd))
      return static_cast<int>(fd);
  }
  return std::nullopt;
}

llvm::Expected<OutputTarget> mlir::amp::classifyOutput(llvm::StringRef path) {
  if (std::optional<int> fd = standardStream(path)) {
    if (::fcntl(*fd, F_GETFD) == -1)
      return cannotWrite(path, "descriptor " + llvm::Twine(*fd) +
                                   " is not open in this process");
    return OutputTarget{OutputTarget::Mode::Direct, path.str(), std::nullopt,
                        fd};
  }
  fs::file_status status;
  if (fs::status(path, status, /*follow=*/true)) {
    // Absent: a new regular file. A dangling symbolic link is written
    // through (Direct), which creates its target and keeps the link.
    fs::file_status linkStatus;
    if (!fs::status(path, linkStatus, /*follow=*/false) &&
        fs::is_symlink_file(linkStatus))
      return OutputTarget{OutputTarget::Mode::Direct, path.str(), std::nullopt,
                          std::nullopt};
    return OutputTarget{OutputTarget::Mode::Atomic, path.str(), std::nullopt,
                        std::nullopt};
  }
  if (fs::is_directory(status))
    return cannotWrite(path, "is a directory");
  if (!fs::is_regular_file(status))
    return OutputTarget{OutputTarget::Mode::Direct, path.str(), std::nullopt,
                        std::nullopt};
  llvm::SmallString<256> real;
  if (std::error_code ec = fs::real_path(path, real))
    return cannotWrite(path, ec.message());
  // The rename would replace a file the user may not write (the directory's
  // permission is what a rename checks): refuse, as opening it would.
  if (std::error_code ec = fs::access(real, fs::AccessMode::Write))
    return cannotWrite(path, ec.message() +
                                 " (the file is not writable for this user; "
                                 "change its permissions or write elsewhere)");
  return OutputTarget{OutputTarget::Mode::Atomic, std::string(real), status,
                      std::nullopt};
}

OutputFile::OutputFile(OutputTarget target, std::string requestedPath)
    : targetInfo(std::move(target)), requestedPath(std::move(requestedPath)) {}

OutputFile::~OutputFile() { discard(); }

llvm::Expected<std::unique_ptr<OutputFile>>
OutputFile::open(llvm::StringRef path, llvm::StringRef tempSuffix) {
  llvm::Expected<OutputTarget> target = classifyOutput(path);
  if (!target)
    return target.takeError();
  std::unique_ptr<OutputFile> file(new OutputFile(*target, path.str()));
  if (target->descriptor) {
    // The same open file description as the descriptor (shared offset, and
    // O_APPEND for `>>`): what follows it in the log is what came before.
    int fd = ::dup(*target->descriptor);
    if (fd < 0)
      return cannotWrite(path, std::strerror(errno));
    llvm::outs().flush();
    llvm::errs().flush();
    file->stream =
        std::make_unique<llvm::raw_fd_ostream>(fd, /*shouldClose=*/true);
    return std::move(file);
  }
  if (target->mode == OutputTarget::Mode::Direct) {
    std::error_code ec;
    file->stream = std::make_unique<llvm::raw_fd_ostream>(path, ec);
    if (ec)
      return cannotWrite(path, ec.message());
    return std::move(file);
  }
  // Same directory, so that the rename is atomic (one file system).
  // TempFile registers the file with RemoveFileOnSignal.
  llvm::Expected<fs::TempFile> temp =
      fs::TempFile::create(target->path + tempSuffix + "-%%%%%%");
  if (!temp)
    return cannotWrite(path, "cannot create a temporary file beside it: " +
                                 llvm::toString(temp.takeError()));
  file->temp.emplace(std::move(*temp));
  file->stream = std::make_unique<llvm::raw_fd_ostream>(file->temp->FD,
                                                        /*shouldClose=*/false);
  return std::move(file);
}

llvm::StringRef OutputFile::writtenPath() const {
  return temp ? llvm::StringRef(temp->TmpName)
              : llvm::StringRef(targetInfo.path);
}

void OutputFile::discard() {
  if (done)
    return;
  done = true;
  if (stream) {
    stream->flush();
    stream->clear_error();
    stream.reset();
  }
  if (temp) {
    llvm::consumeError(temp->discard());
    temp.reset();
  }
}

llvm::Error OutputFile::commit() {
  if (done)
    return cannotWrite(requestedPath, "already committed or discarded");
  std::error_code ec;
  if (stream) {
    stream->flush();
    ec = stream->error();
  }
  if (!ec && temp && targetInfo.existing) {
    // The replacement keeps the file's mode (a 600 file stays 600) and, when
    // this process may set them (root), its owner and group.
    const fs::file_status &old = *targetInfo.existing;
    ec = fs::setPermissions(temp->FD, old.permissions());
    if (!ec && ::geteuid() == 0)
      ec = fs::changeFileOwnership(temp->FD, old.getUser(), old.getGroup());
  }
  if (ec) {
    discard();
    return cannotWrite(requestedPath, ec.message());
  }
  stream.reset();
  done = true;
  if (!temp)
    return llvm::Error::success();
  // keep() removes the temporary file itself when the rename fails.
  llvm::Error kept = temp->keep(targetInfo.path);
  temp.reset();
  if (kept)
    return cannotWrite(requestedPath, llvm::toString(std::move(kept)));
  return llvm::Error::success();
}

/// SIGPIPE: remove the registered temporary files (RunInterruptHandlers is
/// LLVM's signal-safe removal), then the default action.
static void removeFilesAndRaise(int signal) {
  llvm::sys::RunInterruptHandlers();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void mlir::amp::removeTemporaryOutputsOnSigpipe() {
  struct sigaction action = {};
  action.sa_handler = removeFilesAndRaise;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPIPE, &action, nullptr);
}
