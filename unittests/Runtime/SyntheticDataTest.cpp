//===- SyntheticDataTest.cpp - data of a step's own inputs and target -----===//
//
// makeSyntheticStepDataset (several inputs, integer ones in their range, a
// regression target that is a function of the inputs) and fillStepBatch
// (each input and the target in its buffer's element type; the classic
// image set exactly as fillBatch fills it).
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/SyntheticData.h"
#include "amp/Runtime/Batches.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace mlir::amp::runtime;

namespace {

std::vector<SyntheticInput> twoInputs() {
  SyntheticInput ids;
  ids.valuesPerExample = 3;
  ids.integer = true;
  ids.intRange = 5;
  SyntheticInput x;
  x.valuesPerExample = 2;
  return {ids, x};
}

TEST(SyntheticDataTest, FieldsRangesAndDeterminism) {
  Dataset a = makeSyntheticStepDataset(40, twoInputs(), 6, 3, 7, 7);
  Dataset b = makeSyntheticStepDataset(40, twoInputs(), 6, 3, 7, 7);
  ASSERT_EQ(a.inputs.size(), 2u);
  EXPECT_TRUE(a.images.empty());
  EXPECT_EQ(a.exampleSize, 3);
  EXPECT_EQ(a.inputs[0].ints, b.inputs[0].ints);
  EXPECT_EQ(a.inputs[1].floats, b.inputs[1].floats);
  EXPECT_EQ(a.labels, b.labels);
  ASSERT_TRUE(a.target && b.target);
  EXPECT_EQ(a.target->floats, b.target->floats);
  ASSERT_EQ(a.inputs[0].ints.size(), 120u);
  for (int64_t v : a.inputs[0].ints)
    EXPECT_TRUE(v >= 0 && v < 5) << v;
  EXPECT_EQ(*std::max_element(a.inputs[0].ints.begin(), a.inputs[0].ints.end()),
            4);
  for (float v : a.inputs[1].floats)
    EXPECT_TRUE(v >= 0 && v < 1) << v;
  ASSERT_EQ(a.target->floats.size(), 240u);
  for (float v : a.target->floats)
    EXPECT_TRUE(std::isfinite(v) && v > -1 && v < 1) << v;
  for (int32_t c = 0; c < 3; ++c)
    EXPECT_EQ(a.labels[c], c);

  // Another seed: other data, the same target function of the inputs.
  Dataset c = makeSyntheticStepDataset(40, twoInputs(), 6, 3, 8, 7);
  EXPECT_NE(a.inputs[1].floats, c.inputs[1].floats);
  Dataset d = makeSyntheticStepDataset(40, twoInputs(), 6, 3, 7, 9);
  EXPECT_EQ(a.inputs[1].floats, d.inputs[1].floats);
  EXPECT_NE(a.target->floats, d.target->floats);
}

// A boolean mask input ([B, H, S] of i1, rows of S = 5): every row is
// padding, k false values then true ones, k in [1, 5), so every row holds
// both values (a uniform draw masked whole rows: NaN attention).
TEST(SyntheticDataTest, BooleanMasksArePaddingRows) {
  SyntheticInput mask;
  mask.valuesPerExample = 2 * 5;
  mask.integer = true;
  mask.maskRow = 5;
  Dataset a = makeSyntheticStepDataset(200, {mask}, std::nullopt, 2, 3, 3);
  ASSERT_EQ(a.inputs[0].ints.size(), 2000u);
  std::vector<int> splits(5, 0);
  for (size_t row = 0; row < 2000; row += 5) {
    int64_t k = 0;
    while (k < 5 && a.inputs[0].ints[row + k] == 0)
      ++k;
    ASSERT_TRUE(k >= 1 && k <= 4) << "row " << row / 5 << ": k = " << k;
    for (int64_t j = k; j < 5; ++j)
      EXPECT_EQ(a.inputs[0].ints[row + j], 1) << "row " << row / 5;
    ++splits[k];
  }
  // Every split point occurs (400 rows, 4 choices).
  for (int k = 1; k < 5; ++k)
    EXPECT_GT(splits[k], 50) << "k = " << k;

  // An attention mask (true = attend) keeps its first values true; rows of
  // one value keep it.
  mask.attendMask = true;
  Dataset b = makeSyntheticStepDataset(200, {mask}, std::nullopt, 2, 3, 3);
  for (size_t row = 0; row < 2000; row += 5) {
    EXPECT_EQ(b.inputs[0].ints[row], 1) << "row " << row / 5;
    EXPECT_EQ(b.inputs[0].ints[row + 4], 0) << "row " << row / 5;
  }
  SyntheticInput one;
  one.valuesPerExample = 1;
  one.integer = true;
  one.maskRow = 1;
  Dataset c = makeSyntheticStepDataset(50, {one}, std::nullopt, 2, 3, 3);
  for (int64_t v : c.inputs[0].ints)
    EXPECT_EQ(v, 0);
}

TEST(SyntheticDataTest, FillStepBatchConvertsPerBuffer) {
  Dataset ds = makeSyntheticStepDataset(4, twoInputs(), 6, 3, 1, 1);
  std::vector<int64_t> order = {2, 0, 3, 1};
  HostTensor ids(TensorSpec{{3, 3}, ElementKind::I64});
  HostTensor x(TensorSpec{{3, 2}, ElementKind::F64});
  HostTensor target(TensorSpec{{3, 2, 3}, ElementKind::F32});
  // Rows 0 and 1 are examples 3 and 1; row 2 is past the end: zero.
  fillStepBatch(ds, order, 2, 3, {&ids, &x}, &target);
  for (int64_t k = 0; k < 3; ++k) {
    EXPECT_EQ(ids.as<int64_t>()[k], ds.inputs[0].ints[3 * 3 + k]);
    EXPECT_EQ(ids.as<int64_t>()[3 + k], ds.inputs[0].ints[1 * 3 + k]);
    EXPECT_EQ(ids.as<int64_t>()[6 + k], 0);
  }
  for (int64_t k = 0; k < 2; ++k)
    EXPECT_EQ(x.as<double>()[k], double(ds.inputs[1].floats[3 * 2 + k]));
  for (int64_t k = 0; k < 6; ++k) {
    EXPECT_EQ(target.as<float>()[k], ds.target->floats[3 * 6 + k]);
    EXPECT_EQ(target.as<float>()[6 + k], ds.target->floats[1 * 6 + k]);
  }
}

TEST(SyntheticDataTest, ClassicImagesAsFillBatch) {
  Dataset ds = makeSyntheticDataset(8, 5, 3, 2);
  std::vector<int64_t> order(8);
  std::iota(order.begin(), order.end(), 0);
  HostTensor a(TensorSpec{{4, 5}, ElementKind::F32});
  HostTensor b(TensorSpec{{4, 5}, ElementKind::F32});
  HostTensor wide(TensorSpec{{4, 5}, ElementKind::F64});
  HostTensor la(TensorSpec{{4}, ElementKind::I32});
  HostTensor lb(TensorSpec{{4}, ElementKind::I32});
  HostTensor onehot(TensorSpec{{4, 3}, ElementKind::F64});
  fillBatch(ds, order, 2, 4, a, &la);
  fillStepBatch(ds, order, 2, 4, {&b}, &lb);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.sizeInBytes()), 0);
  EXPECT_EQ(std::memcmp(la.data(), lb.data(), la.sizeInBytes()), 0);
  // f64 buffers (the gradient check's promoted step): the same values.
  fillStepBatch(ds, order, 2, 4, {&wide}, &onehot);
  for (int64_t i = 0; i < 20; ++i)
    EXPECT_EQ(wide.as<double>()[i], double(a.as<float>()[i]));
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 3; ++c)
      EXPECT_EQ(onehot.as<double>()[r * 3 + c], c == ds.labels[2 + r] ? 1 : 0);
}

} // namespace

// Teacher labels are a fixed function of the inputs: the same values (the
// inputs do not depend on the label mode) and the same function seed give
// the same labels, another function seed other labels; every label is in
// range and more than one class occurs.
TEST(SyntheticDataTest, TeacherLabelsAreAFunctionOfTheInputs) {
  Dataset random = makeSyntheticDataset(512, 16, 4, /*seed=*/3);
  Dataset a = makeSyntheticDataset(512, 16, 4, /*seed=*/3,
                                   SyntheticLabels::Teacher, /*fn=*/9);
  Dataset b = makeSyntheticDataset(512, 16, 4, /*seed=*/3,
                                   SyntheticLabels::Teacher, /*fn=*/9);
  Dataset c = makeSyntheticDataset(512, 16, 4, /*seed=*/3,
                                   SyntheticLabels::Teacher, /*fn=*/10);
  EXPECT_EQ(random.images, a.images);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_NE(a.labels, c.labels);
  std::vector<int> counts(4, 0);
  for (int32_t l : a.labels) {
    ASSERT_GE(l, 0);
    ASSERT_LT(l, 4);
    ++counts[l];
  }
  EXPECT_GT(
      std::count_if(counts.begin(), counts.end(), [](int n) { return n > 0; }),
      1);
  // Step data: the teacher reads every input.
  Dataset s = makeSyntheticStepDataset(256, twoInputs(), std::nullopt, 3,
                                       /*seed=*/1, /*functionSeed=*/2,
                                       SyntheticLabels::Teacher);
  Dataset t = makeSyntheticStepDataset(256, twoInputs(), std::nullopt, 3,
                                       /*seed=*/1, /*functionSeed=*/2,
                                       SyntheticLabels::Teacher);
  EXPECT_EQ(s.labels, t.labels);
  for (int32_t l : s.labels)
    ASSERT_LT(l, 3);
}
