//===- CheckpointTest.cpp - safetensors and checkpoint round trips --------===//

#include "amp/Runtime/Checkpoint/Checkpoint.h"
#include "amp/Runtime/Checkpoint/Safetensors.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir::amp::runtime;

namespace {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when the test ends.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("amp-ckpt", dir));
    path = dir.str().str();
  }
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
  std::string path;
};

TEST(Safetensors, RoundTripsTensorsAndMetadata) {
  SafetensorsFile file;
  file.metadata["run"] = "f16 + dynamic";
  SafetensorsTensor w{"arg0", "F32", {2, 3}, std::vector<char>(24)};
  for (int i = 0; i < 6; ++i) {
    float v = 0.5f * static_cast<float>(i) - 1.0f;
    std::memcpy(w.bytes.data() + 4 * i, &v, 4);
  }
  SafetensorsTensor s{"arg1", "I32", {}, std::vector<char>(4, 1)};
  file.tensors = {w, s};
  TempDir tmp;
  std::string path = tmp.path + "/t.safetensors";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    writeSafetensors(file, os);
  }
  auto read = readSafetensors(path);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->metadata["run"], "f16 + dynamic");
  ASSERT_EQ(read->tensors.size(), 2u);
  EXPECT_EQ(read->tensors[0].name, "arg0");
  EXPECT_EQ(read->tensors[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(read->tensors[0].bytes, w.bytes);
  EXPECT_TRUE(read->tensors[1].shape.empty());
  EXPECT_EQ(read->tensors[1].bytes, s.bytes);
}

TEST(Safetensors, TruncatedFileIsLocated) {
  TempDir tmp;
  std::string path = tmp.path + "/short.safetensors";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    // A header length of 64, then 2 bytes.
    const char bytes[] = {0x40, 0, 0, 0, 0, 0, 0, 0, '{', '}'};
    os.write(bytes, sizeof(bytes));
  }
  auto read = readSafetensors(path);
  ASSERT_FALSE(static_cast<bool>(read));
  std::string why = llvm::toString(read.takeError());
  EXPECT_NE(why.find("short.safetensors' is not a safetensors file: the "
                     "header length 64 runs past the end of the file"),
            std::string::npos)
      << why;
}

TEST(Checkpoint, MismatchNamesWhatDiffers) {
  CheckpointIdentity a, b;
  a.run = b.run = "f16 + dynamic";
  a.signature = b.signature = "(tensor<4xf32>) -> tensor<f32>";
  a.options["growth-interval"] = "2000";
  b.options["growth-interval"] = "2";
  EXPECT_EQ(describeMismatch(a, a), "");
  EXPECT_EQ(describeMismatch(a, b), "the run's options differ: "
                                    "growth-interval=2000 there, 2 here");
  b = a;
  b.run = "bf16";
  EXPECT_EQ(describeMismatch(a, b),
            "it was made by the run f16 + dynamic, this run is bf16");
  EXPECT_NE(a.optionsHash(), CheckpointIdentity().optionsHash());
}

// Statistics do not change the state's bits: a run resumes with or without
// them, also from a checkpoint written when the identity still named them.
TEST(Checkpoint, MismatchIgnoresInstrumentation) {
  CheckpointIdentity saved, current;
  saved.run = current.run = "bf16 params=bf16";
  saved.signature = current.signature = "(tensor<4xf32>) -> tensor<f32>";
  saved.options["update-stats"] = "false";
  saved.options["underflow-stats"] = "true";
  current.options["update-stats"] = "true";
  EXPECT_EQ(describeMismatch(saved, current), "");
  current.options["master-weights"] = "bf16";
  EXPECT_EQ(describeMismatch(saved, current),
            "the run's options differ: master-weights=(none) there, bf16 "
            "here");
}

TEST(Checkpoint, WritesAndReadsThePosition) {
  Checkpoint c;
  c.identity.run = "f32";
  c.identity.signature = "()";
  c.epoch = 2;
  c.stepInEpoch = 3;
  c.steps = 11;
  c.skippedSteps = 1;
  c.epochLossSum = 0.1 + 0.2;
  c.epochLossCount = 3;
  c.seed = 7;
  c.rngState = "1 2 3";
  c.order = {2, 0, 1};
  SavedTensor t;
  t.argument = 4;
  t.role = "loss_scale";
  t.spec.kind = ElementKind::F32;
  t.bytes.resize(4);
  float scale = 65536;
  std::memcpy(t.bytes.data(), &scale, 4);
  c.state.push_back(t);
  TempDir tmp;
  std::string dir = tmp.path + "/ck";
  ASSERT_FALSE(static_cast<bool>(writeCheckpoint(c, dir)));
  auto r = readCheckpoint(dir);
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->epoch, 2);
  EXPECT_EQ(r->stepInEpoch, 3);
  EXPECT_EQ(r->steps, 11);
  EXPECT_EQ(r->skippedSteps, 1);
  EXPECT_EQ(r->epochLossSum, 0.1 + 0.2); // bit for bit (hex float)
  EXPECT_EQ(r->seed, 7u);
  EXPECT_EQ(r->rngState, "1 2 3");
  EXPECT_EQ(r->order, c.order);
  ASSERT_EQ(r->state.size(), 1u);
  EXPECT_EQ(r->state[0].argument, 4u);
  EXPECT_EQ(r->state[0].role, "loss_scale");
  EXPECT_EQ(r->state[0].bytes, t.bytes);
}

} // namespace
