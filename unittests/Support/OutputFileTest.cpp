//===- OutputFileTest.cpp - classifyOutput and OutputFile -----------------===//
//
// Which outputs are written atomically (temporary file + rename) and which
// directly: renaming over /dev/null or a symbolic link would replace them
// (a break-it run as root once turned /dev/null into a regular file); and
// that the rename honours the target's permissions.
//
//===----------------------------------------------------------------------===//

#include "amp/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <functional>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::amp;
namespace fs = llvm::sys::fs;

namespace {
class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("amp-output-file-test", dir));
  }
  void TearDown() override { fs::remove_directories(dir); }
  std::string in(llvm::StringRef name) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }
  llvm::SmallString<256> dir;
};
} // namespace

TEST_F(OutputFileTest, StdoutAndDevicesAreWrittenDirectly) {
  for (const char *path : {"-", "/dev/null"}) {
    auto target = classifyOutput(path);
    ASSERT_TRUE(static_cast<bool>(target)) << path;
    EXPECT_EQ(target->mode, OutputTarget::Mode::Direct) << path;
    EXPECT_EQ(target->path, path);
  }
}

TEST_F(OutputFileTest, NewAndRegularFilesAreReplacedAtomically) {
  std::string fresh = in("new.csv");
  auto target = classifyOutput(fresh);
  ASSERT_TRUE(static_cast<bool>(target));
  EXPECT_EQ(target->mode, OutputTarget::Mode::Atomic);
  EXPECT_EQ(target->path, fresh);

  std::string existing = in("old.csv");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(existing, ec);
    ASSERT_FALSE(ec);
    os << "old\n";
  }
  target = classifyOutput(existing);
  ASSERT_TRUE(static_cast<bool>(target));
  EXPECT_EQ(target->mode, OutputTarget::Mode::Atomic);
  llvm::SmallString<256> real;
  ASSERT_FALSE(fs::real_path(existing, real));
  EXPECT_EQ(target->path, std::string(real));
}

TEST_F(OutputFileTest, SymbolicLinksKeepTheLink) {
  std::string file = in("target.csv");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    ASSERT_FALSE(ec);
  }
  std::string link = in("link.csv");
  ASSERT_FALSE(fs::create_link("target.csv", link));
  auto target = classifyOutput(link);
  ASSERT_TRUE(static_cast<bool>(target));
  EXPECT_EQ(target->mode, OutputTarget::Mode::Atomic);
  llvm::SmallString<256> real;
  ASSERT_FALSE(fs::real_path(file, real));
  EXPECT_EQ(target->path, std::string(real)); // the target, not the link

  std::string dangling = in("dangling.csv");
  ASSERT_FALSE(fs::create_link("missing.csv", dangling));
  target = classifyOutput(dangling);
  ASSERT_TRUE(static_cast<bool>(target));
  EXPECT_EQ(target->mode, OutputTarget::Mode::Direct);
}

TEST_F(OutputFileTest, DirectoriesAreErrorsThatNameThePath) {
  auto target = classifyOutput(dir);
  ASSERT_FALSE(static_cast<bool>(target));
  std::string message = llvm::toString(target.takeError());
  EXPECT_NE(message.find(std::string(dir)), std::string::npos) << message;
  EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// Permissions: the rename must not bypass them (upstream `mlir-opt -o`
// refuses a file it may not write; a rename in a writable directory would
// replace it), and the replacement keeps the mode of the file it replaces.
//===----------------------------------------------------------------------===//

namespace {

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "<unreadable>";
}

void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << ec.message();
  os << text;
}

/// Opens, writes and commits `path` through OutputFile.
llvm::Error writeThrough(const std::string &path, llvm::StringRef text) {
  auto file = OutputFile::open(path, ".test-tmp");
  if (!file)
    return file.takeError();
  (*file)->os() << text;
  return (*file)->commit();
}

/// Runs `body` in a child process as the unprivileged user 65534 (nobody)
/// when this process is root, else as the current user; returns the child's
/// exit status (0: every check in `body` held).
int asUnprivilegedUser(const std::function<int()> &body) {
  pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
      _exit(90);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

} // namespace

TEST_F(OutputFileTest, ReplacementKeepsTheMode) {
  std::string path = in("private.mlir");
  writeFile(path, "old\n");
  ASSERT_FALSE(fs::setPermissions(path, fs::owner_read | fs::owner_write));
  ASSERT_FALSE(static_cast<bool>(writeThrough(path, "new\n")));
  EXPECT_EQ(readFile(path), "new\n");
  llvm::ErrorOr<fs::perms> perms = fs::getPermissions(path);
  ASSERT_TRUE(static_cast<bool>(perms));
  EXPECT_EQ(*perms, fs::owner_read | fs::owner_write); // 600 stays 600

  std::string group = in("group.csv");
  writeFile(group, "old\n");
  fs::perms mode = fs::owner_read | fs::owner_write | fs::group_read |
                   fs::group_write | fs::others_read;
  ASSERT_FALSE(fs::setPermissions(group, mode));
  ASSERT_FALSE(static_cast<bool>(writeThrough(group, "new\n")));
  perms = fs::getPermissions(group);
  ASSERT_TRUE(static_cast<bool>(perms));
  EXPECT_EQ(*perms, mode); // 664 stays 664
}

TEST_F(OutputFileTest, NewFileGetsTheUmaskMode) {
  std::string path = in("fresh.mlir");
  ASSERT_FALSE(static_cast<bool>(writeThrough(path, "x\n")));
  mode_t mask = umask(0);
  umask(mask);
  llvm::ErrorOr<fs::perms> perms = fs::getPermissions(path);
  ASSERT_TRUE(static_cast<bool>(perms));
  EXPECT_EQ(unsigned(*perms), 0666u & ~unsigned(mask));
}

// A root-owned read-only (444) file in a directory everybody may write: an
// ordinary user's output is refused with the path in the message, and the
// file stays as it was. Run as that user in a child process (as root, the
// child drops to uid 65534; root itself may write a 444 file, access(W_OK)).
TEST_F(OutputFileTest, UnwritableTargetIsRefused) {
  std::string path = in("readonly.mlir");
  writeFile(path, "protected\n");
  ASSERT_FALSE(fs::setPermissions(path, fs::all_read));
  ASSERT_FALSE(fs::setPermissions(dir, fs::all_all)); // anyone may rename in it
  if (geteuid() != 0 && !fs::can_write(dir))
    GTEST_SKIP() << "the test directory is not writable";
  int status = asUnprivilegedUser([&] {
    if (geteuid() == 0)
      return 91; // could not drop root: the refusal cannot be observed
    if (fs::can_write(path))
      return 92; // the file is writable for this user after all
    llvm::Expected<OutputTarget> target = classifyOutput(path);
    if (target)
      return 93; // accepted: the rename would replace a read-only file
    std::string message = llvm::toString(target.takeError());
    if (message.find(path) == std::string::npos ||
        message.find("not writable") == std::string::npos)
      return 94;
    llvm::Error opened = writeThrough(path, "replaced\n");
    if (!opened)
      return 95;
    llvm::consumeError(std::move(opened));
    return 0;
  });
  EXPECT_EQ(status, 0) << "91: not dropped, 92: writable, 93: accepted, "
                          "94: message, 95: written";
  EXPECT_EQ(readFile(path), "protected\n");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    EXPECT_EQ(llvm::sys::path::filename(it->path()), "readonly.mlir")
        << "left behind: " << it->path();
}

// As root the file's owner is kept too (a replacement would otherwise belong
// to root).
TEST_F(OutputFileTest, RootKeepsTheOwner) {
  if (geteuid() != 0)
    GTEST_SKIP() << "only root can give a file to another user";
  std::string path = in("owned.mlir");
  writeFile(path, "old\n");
  ASSERT_EQ(chown(path.c_str(), 65534, 65534), 0);
  ASSERT_FALSE(static_cast<bool>(writeThrough(path, "new\n")));
  fs::file_status status;
  ASSERT_FALSE(fs::status(path, status));
  EXPECT_EQ(status.getUser(), 65534u);
  EXPECT_EQ(status.getGroup(), 65534u);
  EXPECT_EQ(readFile(path), "new\n");
}

// An uncommitted output leaves nothing: no target, no temporary file.
TEST_F(OutputFileTest, DiscardLeavesNothing) {
  std::string path = in("never.mlir");
  {
    auto file = OutputFile::open(path, ".test-tmp");
    ASSERT_TRUE(static_cast<bool>(file));
    (*file)->os() << "partial";
    EXPECT_TRUE(fs::exists((*file)->writtenPath()));
  }
  EXPECT_FALSE(fs::exists(path));
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  EXPECT_EQ(it, fs::directory_iterator()) << "left behind: " << it->path();
}
