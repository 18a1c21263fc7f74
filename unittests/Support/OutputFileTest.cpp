//===- OutputFileTest.cpp - classifyOutput --------------------------------===//
//
// Which outputs are written atomically (temporary file + rename) and which
// directly: renaming over /dev/null or a symbolic link would replace them
// (a break-it run as root once turned /dev/null into a regular file).
//
//===----------------------------------------------------------------------===//

#include "amp/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

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
