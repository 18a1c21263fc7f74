//===- IdxDataset.cpp - IDX files via zlib --------------------------------===//

#include "amp/Runtime/IdxDataset.h"

#include <zlib.h>

using namespace mlir::amp::runtime;

namespace {
struct GzFile {
  gzFile file;
  explicit GzFile(const std::string &path) : file(gzopen(path.c_str(), "rb")) {}
  ~GzFile() {
    if (file)
      gzclose(file);
  }
  /// Reads exactly `n` bytes; false on a short read or an error.
  bool read(void *dst, size_t n) {
    auto *out = static_cast<unsigned char *>(dst);
    while (n > 0) {
      unsigned chunk = n > (1u << 30) ? (1u << 30) : static_cast<unsigned>(n);
      int got = gzread(file, out, chunk);
      if (got <= 0)
        return false;
      out += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  }
};
} // namespace

static llvm::Error idxError(const std::string &path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

llvm::Expected<std::pair<std::vector<int64_t>, std::vector<uint8_t>>>
mlir::amp::runtime::readIdxFile(const std::string &path) {
  GzFile in(path);
  if (!in.file)
    return idxError(path, "cannot open");
  unsigned char magic[4];
  if (!in.read(magic, 4))
    return idxError(path, "truncated IDX header");
  if (magic[0] != 0 || magic[1] != 0)
    return idxError(path, "not an IDX file (bad magic)");
  if (magic[2] != 0x08)
    return idxError(path, "IDX element type " + llvm::Twine(int(magic[2])) +
                              " is not unsigned byte (0x08)");
  int rank = magic[3];
  if (rank < 1 || rank > 4)
    return idxError(path, "IDX rank " + llvm::Twine(rank) + " not in 1..4");
  std::vector<int64_t> dims;
  int64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    unsigned char b[4];
    if (!in.read(b, 4))
      return idxError(path, "truncated IDX header");
    int64_t d = (int64_t(b[0]) << 24) | (int64_t(b[1]) << 16) |
                (int64_t(b[2]) << 8) | int64_t(b[3]);
    if (d <= 0 || d > (int64_t(1) << 31))
      return idxError(path, "bad IDX dimension " + llvm::Twine(d));
    dims.push_back(d);
    count *= d;
    if (count > (int64_t(1) << 33))
      return idxError(path, "IDX file too large");
  }
  std::vector<uint8_t> data(static_cast<size_t>(count));
  if (!in.read(data.data(), data.size()))
    return idxError(path, "truncated IDX data: expected " + llvm::Twine(count) +
                              " bytes");
  return std::make_pair(std::move(dims), std::move(data));
}

llvm::Expected<Dataset>
mlir::amp::runtime::loadIdxDataset(const std::string &imagesPath,
                                   const std::string &labelsPath) {
  auto images = readIdxFile(imagesPath);
  if (!images)
    return images.takeError();
  auto labels = readIdxFile(labelsPath);
  if (!labels)
    return labels.takeError();
  const auto &[imgDims, imgBytes] = *images;
  const auto &[labDims, labBytes] = *labels;
  if (imgDims.size() != 3)
    return idxError(imagesPath, "images file must have 3 dimensions");
  if (labDims.size() != 1)
    return idxError(labelsPath, "labels file must have 1 dimension");
  if (imgDims[0] != labDims[0])
    return idxError(labelsPath, llvm::Twine(labDims[0]) + " labels for " +
                                    llvm::Twine(imgDims[0]) + " images");
  Dataset ds;
  ds.numExamples = imgDims[0];
  ds.exampleSize = imgDims[1] * imgDims[2];
  ds.images.resize(imgBytes.size());
  for (size_t i = 0; i < imgBytes.size(); ++i)
    ds.images[i] = static_cast<float>(imgBytes[i]) / 255.0f;
  ds.labels.assign(labBytes.begin(), labBytes.end());
  for (int32_t l : ds.labels)
    ds.numClasses = std::max(ds.numClasses, l + 1);
  return ds;
}

llvm::Expected<Dataset>
mlir::amp::runtime::loadFashionMnist(const std::string &dir, bool train) {
  std::string prefix = dir + (train ? "/train-" : "/t10k-");
  return loadIdxDataset(prefix + "images-idx3-ubyte.gz",
                        prefix + "labels-idx1-ubyte.gz");
}
