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

/// Element `k` of `t` set to `v`, converted to `t`'s kind.
static void store(HostTensor &t, int64_t k, double v) {
  switch (t.spec().kind) {
  case ElementKind::F32:
    t.as<float>()[k] = static_cast<float>(v);
    break;
  case ElementKind::F64:
    t.as<double>()[k] = v;
    break;
  case ElementKind::I1:
  case ElementKind::I8:
    t.as<int8_t>()[k] = static_cast<int8_t>(v);
    break;
  case ElementKind::I32:
    t.as<int32_t>()[k] = static_cast<int32_t>(v);
    break;
  case ElementKind::I64:
    t.as<int64_t>()[k] = static_cast<int64_t>(v);
    break;
  default:
    break;
  }
}

/// Row `b` of `t` (`n` values per example) from example `e` of `field`
/// (null: `images`, `n` floats per example), or zero when `e` < 0.
static void copyRow(HostTensor &t, int64_t b, int64_t n, int64_t e,
                    const DataField *field, const std::vector<float> &images) {
  for (int64_t k = 0; k < n; ++k) {
    double v = 0;
    if (e >= 0)
      v = !field           ? images[e * n + k]
          : field->integer ? static_cast<double>(field->ints[e * n + k])
                           : field->floats[e * n + k];
    store(t, b * n + k, v);
  }
}

void mlir::amp::runtime::fillStepBatch(const Dataset &ds,
                                       const std::vector<int64_t> &indices,
                                       int64_t first, int64_t batch,
                                       const std::vector<HostTensor *> &inputs,
                                       HostTensor *supervision) {
  if (ds.inputs.empty() && inputs.size() == 1 &&
      inputs[0]->spec().kind == ElementKind::F32 && !ds.target) {
    fillBatch(ds, indices, first, batch, *inputs[0], supervision);
    return;
  }
  for (int64_t b = 0; b < batch; ++b) {
    int64_t pos = first + b;
    int64_t e = pos < static_cast<int64_t>(indices.size()) ? indices[pos] : -1;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const DataField *field = ds.inputs.empty() ? nullptr : &ds.inputs[k];
      int64_t n = field ? field->valuesPerExample : ds.exampleSize;
      copyRow(*inputs[k], b, n, e, field, ds.images);
    }
    if (!supervision)
      continue;
    if (ds.target) {
      copyRow(*supervision, b, ds.target->valuesPerExample, e, &*ds.target,
              ds.images);
      continue;
    }
    ElementKind kind = supervision->spec().kind;
    if (kind == ElementKind::F32 || kind == ElementKind::F64) {
      // A target (batch x classes): the one-hot encoding of the label.
      int64_t classes = supervision->spec().numElements() / batch;
      for (int64_t c = 0; c < classes; ++c)
        store(*supervision, b * classes + c,
              e >= 0 && c == ds.labels[e] ? 1.0 : 0.0);
      continue;
    }
    if (e >= 0)
      store(*supervision, b, ds.labels[e]);
  }
}
