//===- IdxDatasetTest.cpp - IDX (MNIST format) reader ---------------------===//
//
// Writes small IDX files (gzip and plain) into a temporary directory and
// checks what loadIdxDataset / readIdxFile make of them, errors included.
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/IdxDataset.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include <zlib.h>

using namespace mlir::amp::runtime;

namespace {

/// The bytes of an unsigned-byte IDX file: magic 0x0000080N, N big-endian
/// sizes, then the data.
std::vector<uint8_t> idxBytes(const std::vector<uint32_t> &dims,
                              const std::vector<uint8_t> &data) {
  std::vector<uint8_t> out = {0, 0, 0x08, static_cast<uint8_t>(dims.size())};
  for (uint32_t d : dims)
    for (int shift = 24; shift >= 0; shift -= 8)
      out.push_back(static_cast<uint8_t>(d >> shift));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

class IdxDatasetTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("amp-idx-test", path));
    dir = std::string(path);
  }
  void TearDown() override {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
  }

  std::string path(const std::string &name) const {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  /// Writes `bytes` gzip-compressed with zlib; returns the path.
  std::string writeGz(const std::string &name,
                      const std::vector<uint8_t> &bytes) {
    std::string p = path(name);
    gzFile f = gzopen(p.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    if (!f)
      return p;
    EXPECT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
              static_cast<int>(bytes.size()));
    EXPECT_EQ(gzclose(f), Z_OK);
    return p;
  }

  /// Writes `bytes` uncompressed; returns the path.
  std::string writePlain(const std::string &name,
                         const std::vector<uint8_t> &bytes) {
    std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    EXPECT_TRUE(out.good());
    return p;
  }

  /// Three 2x2 images and their labels (largest label 4).
  std::vector<uint8_t> imageData = {255, 51, 0, 102, //
                                    0,   0,  0, 0,   //
                                    1,   2,  3, 255};
  std::vector<uint8_t> images() { return idxBytes({3, 2, 2}, imageData); }
  std::vector<uint8_t> labels() { return idxBytes({3}, {4, 0, 2}); }

  std::string dir;
};

/// The message of `err` (consumed).
template <typename T> std::string errorMessage(llvm::Expected<T> value) {
  if (value)
    return "<no error>";
  return llvm::toString(value.takeError());
}

// Gzip-compressed files load: sizes, pixel scaling byte/255, labels and
// numClasses = 1 + largest label.
TEST_F(IdxDatasetTest, LoadsGzipFiles) {
  auto ds =
      loadIdxDataset(writeGz("img.gz", images()), writeGz("lab.gz", labels()));
  ASSERT_TRUE(bool(ds)) << llvm::toString(ds.takeError());
  EXPECT_EQ(ds->numExamples, 3);
  EXPECT_EQ(ds->exampleSize, 4);
  ASSERT_EQ(ds->images.size(), 12u);
  EXPECT_EQ(ds->images[0], 1.0f);
  EXPECT_EQ(ds->images[1], 0.2f);
  EXPECT_EQ(ds->images[2], 0.0f);
  EXPECT_EQ(ds->images[3], 0.4f);
  EXPECT_EQ(ds->images[11], 1.0f);
  EXPECT_FLOAT_EQ(ds->images[9], 2.0f / 255.0f);
  EXPECT_EQ(ds->labels, (std::vector<int32_t>{4, 0, 2}));
  EXPECT_EQ(ds->numClasses, 5);
}

// Uncompressed IDX files load the same way (zlib reads plain files too).
TEST_F(IdxDatasetTest, LoadsUncompressedFiles) {
  auto ds =
      loadIdxDataset(writePlain("img", images()), writePlain("lab", labels()));
  ASSERT_TRUE(bool(ds)) << llvm::toString(ds.takeError());
  EXPECT_EQ(ds->numExamples, 3);
  EXPECT_EQ(ds->exampleSize, 4);
  EXPECT_EQ(ds->images[0], 1.0f);
  EXPECT_EQ(ds->images[1], 0.2f);
  EXPECT_EQ(ds->labels, (std::vector<int32_t>{4, 0, 2}));
  EXPECT_EQ(ds->numClasses, 5);
}

// readIdxFile returns the big-endian dimension sizes and the raw bytes.
TEST_F(IdxDatasetTest, ReadIdxFileReturnsDimsAndBytes) {
  std::vector<uint8_t> data(3 * 258);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<uint8_t>(i * 7);
  auto ok = readIdxFile(writeGz("img2.gz", idxBytes({3, 258, 1}, data)));
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  EXPECT_EQ(ok->first, (std::vector<int64_t>{3, 258, 1}));
  EXPECT_EQ(ok->second, data);
}

// loadFashionMnist finds "<dir>/train-*" and "<dir>/t10k-*" gzip files.
TEST_F(IdxDatasetTest, LoadFashionMnistUsesDebianFileNames) {
  writeGz("train-images-idx3-ubyte.gz", images());
  writeGz("train-labels-idx1-ubyte.gz", labels());
  writeGz("t10k-images-idx3-ubyte.gz", idxBytes({1, 1, 2}, {255, 0}));
  writeGz("t10k-labels-idx1-ubyte.gz", idxBytes({1}, {9}));
  auto train = loadFashionMnist(dir, /*train=*/true);
  ASSERT_TRUE(bool(train)) << llvm::toString(train.takeError());
  EXPECT_EQ(train->numExamples, 3);
  auto test = loadFashionMnist(dir, /*train=*/false);
  ASSERT_TRUE(bool(test)) << llvm::toString(test.takeError());
  EXPECT_EQ(test->numExamples, 1);
  EXPECT_EQ(test->exampleSize, 2);
  EXPECT_EQ(test->numClasses, 10);
}

// A missing file is an error that names the file.
TEST_F(IdxDatasetTest, MissingFileNamesTheFile) {
  std::string missing = path("no-such-images.gz");
  std::string msg =
      errorMessage(loadIdxDataset(missing, writeGz("lab.gz", labels())));
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot open"), std::string::npos) << msg;
}

// A file that does not start with 0x0000 is rejected as bad magic.
TEST_F(IdxDatasetTest, BadMagicNamesTheFile) {
  std::vector<uint8_t> bytes = images();
  bytes[0] = 0x1f;
  bytes[1] = 0x03;
  std::string img = writePlain("bad-magic", bytes);
  std::string msg =
      errorMessage(loadIdxDataset(img, writeGz("lab.gz", labels())));
  EXPECT_NE(msg.find(img), std::string::npos) << msg;
  EXPECT_NE(msg.find("magic"), std::string::npos) << msg;
}

// An element type other than unsigned byte (0x08) is rejected.
TEST_F(IdxDatasetTest, NonUbyteElementTypeNamesTheFile) {
  std::vector<uint8_t> bytes = images();
  bytes[2] = 0x0D; // float
  std::string img = writeGz("float.gz", bytes);
  std::string msg = errorMessage(readIdxFile(img));
  EXPECT_NE(msg.find(img), std::string::npos) << msg;
  EXPECT_NE(msg.find("unsigned byte"), std::string::npos) << msg;
}

// Fewer data bytes than the header announces is a truncation error.
TEST_F(IdxDatasetTest, TruncatedDataNamesTheFile) {
  std::vector<uint8_t> bytes = images();
  bytes.resize(bytes.size() - 3);
  std::string img = writeGz("short.gz", bytes);
  std::string msg =
      errorMessage(loadIdxDataset(img, writeGz("lab.gz", labels())));
  EXPECT_NE(msg.find(img), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

// A header cut short (fewer than rank sizes) is a truncation error too.
TEST_F(IdxDatasetTest, TruncatedHeaderNamesTheFile) {
  std::vector<uint8_t> bytes = images();
  bytes.resize(9); // magic + one size + one byte
  std::string lab = writePlain("short-header", bytes);
  std::string msg = errorMessage(readIdxFile(lab));
  EXPECT_NE(msg.find(lab), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

// Different image and label counts are an error naming the labels file.
TEST_F(IdxDatasetTest, CountMismatchNamesTheLabelsFile) {
  std::string img = writeGz("img.gz", images());
  std::string lab = writeGz("lab2.gz", idxBytes({2}, {1, 2}));
  std::string msg = errorMessage(loadIdxDataset(img, lab));
  EXPECT_NE(msg.find(lab), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 labels for 3 images"), std::string::npos) << msg;
}

// Images and labels with the wrong rank are rejected (naming the file).
TEST_F(IdxDatasetTest, WrongRankNamesTheFile) {
  std::string img = writeGz("img.gz", images());
  std::string lab = writeGz("lab.gz", labels());
  std::string msg = errorMessage(loadIdxDataset(lab, lab));
  EXPECT_NE(msg.find(lab), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 dimensions"), std::string::npos) << msg;
  msg = errorMessage(loadIdxDataset(img, img));
  EXPECT_NE(msg.find(img), std::string::npos) << msg;
  EXPECT_NE(msg.find("1 dimension"), std::string::npos) << msg;
}

} // namespace
