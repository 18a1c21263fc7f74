//===- Batches.cpp - batches of a dataset, and scoring logits -------------===//

#include "amp/Runtime/Batches.h"

#include <algorithm>
#include <cstring>

using namespace mlir::amp::runtime;

void mlir::amp::runtime::fillBatch(const Dataset &ds,
                                   const std::vector<int64_t> &indices,
                                   int64_t first, int64_t batch,
                                   HostTensor &input, HostTensor *label) {
  float *x = input.as<float>();
  for (int64_t b = 0; b < batch; ++b) {
    int64_t pos = first + b;
    float *row = x + b * ds.exampleSize;
    if (pos >= static_cast<int64_t>(indices.size())) {
      std::memset(row, 0, sizeof(float) * ds.exampleSize);
      continue;
    }
    int64_t e = indices[pos];
    std::memcpy(row, ds.images.data() + e * ds.exampleSize,
                sizeof(float) * ds.exampleSize);
    if (!label)
      continue;
    switch (label->spec().kind) {
    case ElementKind::I32:
      label->as<int32_t>()[b] = ds.labels[e];
      break;
    case ElementKind::I64:
      label->as<int64_t>()[b] = ds.labels[e];
      break;
    case ElementKind::F32:
    case ElementKind::F64: {
      // A target (batch x classes): the one-hot encoding of the label.
      int64_t classes = label->spec().numElements() / batch;
      bool f32 = label->spec().kind == ElementKind::F32;
      for (int64_t c = 0; c < classes; ++c) {
        double v = c == ds.labels[e] ? 1.0 : 0.0;
        if (f32)
          label->as<float>()[b * classes + c] = static_cast<float>(v);
        else
          label->as<double>()[b * classes + c] = v;
      }
      break;
    }
    default:
      break;
    }
  }
}

int64_t mlir::amp::runtime::countCorrect(const HostTensor &logits,
                                         const Dataset &ds, int64_t first,
                                         int64_t batch, int64_t classes) {
  const float *l = logits.as<float>();
  int64_t correct = 0;
  for (int64_t b = 0; b < batch && first + b < ds.numExamples; ++b) {
    const float *row = l + b * classes;
    int64_t arg = std::max_element(row, row + classes) - row;
    correct += arg == ds.labels[first + b];
  }
  return correct;
}
