//===- ModelExportTest.cpp - trained weights back into the model's IR -----===//
//
// replaceResourceBlobs (amp-run --save-model): only the blob's data
// changes, quoted keys, a blob the section lacks is added, a model without
// a section gets one, and a blob of another size is refused.
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/Checkpoint/ModelExport.h"

#include "gtest/gtest.h"

#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace mlir::amp::runtime;

namespace {

const char *kModel =
    R"(%w = arith.constant dense_resource<lin.weight> : tensor<2xf32>
%b = arith.constant dense_resource<"odd key"> : tensor<1xf32>
{-#
  dialect_resources: {
    builtin: {
      lin.weight: "0x040000000000803F00000040",
      "odd key": "0x0400000000000000"
    }
  }
#-}
)";

std::vector<char> floats(std::vector<float> values) {
  std::vector<char> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(ModelExportTest, ReplacesOnlyTheBlobData) {
  std::map<std::string, std::vector<char>> blobs = {
      {"lin.weight", floats({3.0f, -1.0f})}, {"odd key", floats({0.5f})}};
  auto text = replaceResourceBlobs(kModel, "m.mlir", blobs);
  ASSERT_TRUE(static_cast<bool>(text)) << llvm::toString(text.takeError());
  std::string expected = kModel;
  expected.replace(expected.find("0000803F00000040"), 16, "00004040000080BF");
  expected.replace(expected.find("0x0400000000000000") + 10, 8, "0000003F");
  EXPECT_EQ(*text, expected);
}

TEST(ModelExportTest, AddsMissingBlobsAndSections) {
  std::string model = kModel;
  std::string noWeight = model;
  noWeight.erase(
      noWeight.find("      lin.weight"),
      std::string("      lin.weight: \"0x040000000000803F00000040\",\n")
          .size());
  auto added = replaceResourceBlobs(noWeight, "m.mlir",
                                    {{"lin.weight", floats({3.0f, -1.0f})}});
  ASSERT_TRUE(static_cast<bool>(added)) << llvm::toString(added.takeError());
  EXPECT_NE(added->find("\"odd key\": \"0x0400000000000000\",\n      "
                        "lin.weight: \"0x0400000000004040000080BF\""),
            std::string::npos)
      << *added;

  std::string bare = model.substr(0, model.find("{-#"));
  auto section =
      replaceResourceBlobs(bare, "m.mlir", {{"odd key", floats({0.5f})}});
  ASSERT_TRUE(static_cast<bool>(section))
      << llvm::toString(section.takeError());
  EXPECT_EQ(*section, bare + "{-#\n  dialect_resources: {\n    builtin: {\n"
                             "      \"odd key\": \"0x040000000000003F\"\n"
                             "    }\n  }\n#-}\n");
}

TEST(ModelExportTest, RefusesAnotherModel) {
  auto size =
      replaceResourceBlobs(kModel, "m.mlir", {{"lin.weight", floats({1.0f})}});
  ASSERT_FALSE(static_cast<bool>(size));
  EXPECT_EQ(llvm::toString(size.takeError()),
            "m.mlir: the blob 'lin.weight' holds 8 bytes, the trained "
            "parameter 4: the model is not the one the step was built from");
  auto key =
      replaceResourceBlobs(kModel, "m.mlir", {{"other", floats({1.0f})}});
  ASSERT_FALSE(static_cast<bool>(key));
  EXPECT_NE(llvm::toString(key.takeError())
                .find("the model has no dense_resource<other>"),
            std::string::npos);
}

} // namespace
