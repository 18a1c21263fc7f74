//===- NpySource.cpp - NumPy .npy files -----------------------------------===//
//
// `--data=npy:TRAIN_X,TRAIN_Y[,TEST_X,TEST_Y]`: NumPy's .npy format, versions
// 1.0 to 3.0 (numpy.lib.format: the magic "\x93NUMPY", a version, a header
// length, a Python dict literal with 'descr', 'fortran_order' and 'shape',
// then the raw C-order data). Inputs: float32, float64 or uint8 (scaled by
// 1/255, as IdxDataset.h scales IDX pixels, so that a .npy of the same
// bytes trains bit for bit as the IDX files do); labels: int32, int64 or
// uint8 of shape (N,); targets of a regression step: float32 or float64 of
// shape (N, <the target's shape>).
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/Data/DataSource.h"

#include "amp/Support/Counts.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>

using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// One .npy array.
struct NpyArray {
  std::string path;
  std::string descr; ///< e.g. "<f4", "|u1"
  std::vector<int64_t> shape;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  const char *data = nullptr;

  /// Elements, saturating at INT64_MAX (a header may claim any shape;
  /// readNpy refuses one whose data the file does not hold).
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n = mlir::amp::saturatingMul(n, d);
    return n;
  }
  /// Elements per example: the dimensions after the first, saturating.
  int64_t perExample() const {
    if (shape.empty())
      return 0;
    int64_t n = 1;
    for (int64_t d : llvm::drop_begin(shape))
      n = mlir::amp::saturatingMul(n, d);
    return n;
  }
  std::string shapeText() const {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
  }
  bool isFloat() const { return descr == "<f4" || descr == "<f8"; }
  bool isInt() const {
    return descr == "<i4" || descr == "<i8" || descr == "|u1";
  }
  /// Element `i` of an integer array (isInt).
  int64_t intAt(int64_t i) const {
    if (descr == "<i4") {
      int32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
    if (descr == "<i8") {
      int64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      return v;
    }
    return static_cast<unsigned char>(data[i]);
  }
  /// Element `i` as a double.
  double at(int64_t i) const {
    if (descr == "<f4") {
      float v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
    if (descr == "<f8") {
      double v;
      std::memcpy(&v, data + 8 * i, 8);
      return v;
    }
    return static_cast<double>(intAt(i));
  }
};
} // namespace

/// The value of `'key':` (or `"key":`, which numpy reads too) in the header
/// dict, up to the next top-level ','; nullopt when the key is missing, an
/// error when it is there twice (numpy would take the last value silently;
/// such a header is hand-made or damaged).
static llvm::Expected<std::optional<llvm::StringRef>>
headerField(llvm::StringRef header, llvm::StringRef key,
            const std::string &path) {
  std::optional<llvm::StringRef> value;
  for (char quote : {'\'', '"'}) {
    std::string quoted = quote + key.str() + quote;
    for (size_t at = header.find(quoted); at != llvm::StringRef::npos;
         at = header.find(quoted, at + 1)) {
      llvm::StringRef rest = header.drop_front(at + quoted.size()).ltrim();
      if (!rest.consume_front(":"))
        continue; // the text inside a value, not a key
      if (value)
        return makeError(path + ": the .npy header names '" + key +
                         "' twice: " + header.trim());
      value = rest.ltrim();
    }
  }
  if (!value)
    return std::nullopt;
  llvm::StringRef rest = *value;
  if (rest.starts_with("(") || rest.starts_with("[")) {
    // A tuple (the shape) or a list (a structured dtype's fields, which
    // nest tuples): up to the bracket that closes the first one.
    int depth = 0;
    for (size_t i = 0; i < rest.size(); ++i) {
      if (rest[i] == '(' || rest[i] == '[')
        ++depth;
      else if ((rest[i] == ')' || rest[i] == ']') && --depth == 0)
        return std::optional<llvm::StringRef>(rest.take_front(i + 1));
    }
    return std::nullopt;
  }
  return std::optional<llvm::StringRef>(
      rest.take_until([](char c) { return c == ',' || c == '}'; }).trim());
}

static llvm::Expected<NpyArray> readNpy(const std::string &path) {
  NpyArray a;
  a.path = path;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path + ": cannot read it: " + buffer.getError().message());
  a.buffer = std::move(*buffer);
  llvm::StringRef bytes = a.buffer->getBuffer();
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return makeError(path + ": not a .npy file (no \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLength = 0, headerStart = 0;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(bytes[8]) |
                   static_cast<size_t>(static_cast<unsigned char>(bytes[9]))
                       << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError(path + ": truncated .npy header");
    for (int k = 3; k >= 0; --k)
      headerLength = headerLength << 8 | static_cast<unsigned char>(
                                             bytes[8 + static_cast<size_t>(k)]);
    headerStart = 12;
  } else {
    return makeError(path + ": .npy version " + llvm::Twine(major) +
                     " is not 1, 2 or 3");
  }
  if (bytes.size() < headerStart + headerLength)
    return makeError(path + ": truncated .npy header");
  llvm::StringRef header = bytes.slice(headerStart, headerStart + headerLength);
  auto descrField = headerField(header, "descr", path);
  auto fortranField = headerField(header, "fortran_order", path);
  auto shapeField = headerField(header, "shape", path);
  for (auto *field : {&descrField, &fortranField, &shapeField})
    if (!*field)
      return field->takeError();
  std::optional<llvm::StringRef> descr = *descrField, fortran = *fortranField,
                                 shape = *shapeField;
  if (!descr || !fortran || !shape)
    return makeError(path +
                     ": the .npy header lacks descr, fortran_order or "
                     "shape: " +
                     header.trim());
  a.descr = descr->trim("'\"").str();
  if (a.descr == "<u1" || a.descr == "u1")
    a.descr = "|u1";
  if (*fortran != "False")
    return makeError(path + ": a Fortran-order array; save it in C order "
                            "(numpy.ascontiguousarray)");
  llvm::SmallVector<llvm::StringRef> dims;
  shape->trim("()").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef d : dims) {
    int64_t v;
    if (d.trim().getAsInteger(10, v) || v < 0)
      return makeError(path + ": bad shape " + *shape);
    a.shape.push_back(v);
  }
  size_t element = a.descr == "|u1"                       ? 1
                   : a.descr == "<f4" || a.descr == "<i4" ? 4
                   : a.descr == "<f8" || a.descr == "<i8" ? 8
                                                          : 0;
  if (element == 0)
    return makeError(path + ": element type '" + a.descr +
                     "' is not read; use float32, float64 or uint8 inputs, "
                     "int32, int64 or uint8 labels (little-endian)");
  if (a.shape.empty())
    return makeError(path + ": a 0-d array; the first dimension counts the "
                            "examples");
  // The bytes the shape needs, exactly (a header may claim more elements
  // than int64_t counts): 64 bits per dimension and for the element size.
  unsigned bits = 64 * static_cast<unsigned>(a.shape.size() + 1);
  llvm::APInt need(bits, element);
  for (int64_t d : a.shape)
    need *= llvm::APInt(bits, static_cast<uint64_t>(d));
  size_t have = bytes.size() - headerStart - headerLength;
  if (need.ugt(have))
    return makeError(path + ": " +
                     (need.getActiveBits() > 63 ? "too large" : "truncated") +
                     ": shape " + a.shapeText() + " of '" + a.descr +
                     "' needs " + llvm::toString(need, 10, /*Signed=*/false) +
                     " data bytes, the file has " + llvm::Twine(have));
  a.data = bytes.data() + headerStart + headerLength;
  return a;
}

namespace {
class NpySource : public DataSource {
public:
  explicit NpySource(std::vector<std::string> files)
      : files(std::move(files)) {}
  llvm::Expected<DataSplits> load(const RunPlan &plan,
                                  llvm::raw_ostream &log) override;

private:
  llvm::Expected<Dataset> split(const RunPlan &plan, const std::string &xPath,
                                const std::string &yPath);
  std::vector<std::string> files;
};
} // namespace

llvm::Expected<Dataset> NpySource::split(const RunPlan &plan,
                                         const std::string &xPath,
                                         const std::string &yPath) {
  auto x = readNpy(xPath);
  if (!x)
    return x.takeError();
  if (x->shape[0] == 0)
    return makeError(xPath + ": no examples (shape " + x->shapeText() +
                     "); the first dimension counts the examples");
  auto y = readNpy(yPath);
  if (!y)
    return y.takeError();
  if (plan.inputs.size() != 1 || plan.inputs.front().integer)
    return makeError(xPath +
                     ": a .npy input feeds one f32 input, but the "
                     "step has " +
                     llvm::Twine(plan.inputs.size()) +
                     " inputs or an integer one (--data=synthetic feeds any)");
  const RunPlan::Input &in = plan.inputs.front();
  if (!x->isFloat() && x->descr != "|u1")
    return makeError(xPath + ": inputs of type '" + x->descr +
                     "'; the input takes float32, float64 or uint8 values");
  if (x->perExample() != in.valuesPerExample)
    return makeError(xPath + ": shape " + x->shapeText() + " has " +
                     llvm::Twine(x->perExample()) +
                     " values per example, the step's input " + in.type +
                     " takes " + llvm::Twine(in.valuesPerExample));
  if (y->shape[0] != x->shape[0])
    return makeError(yPath + ": " + llvm::Twine(y->shape[0]) +
                     " examples, but " + xPath + " has " +
                     llvm::Twine(x->shape[0]));
  Dataset ds;
  ds.numExamples = x->shape[0];
  ds.exampleSize = in.valuesPerExample;
  std::vector<float> values(static_cast<size_t>(x->count()));
  for (int64_t i = 0, n = x->count(); i < n; ++i) {
    double v = x->at(i);
    if (!std::isfinite(v))
      return makeError(xPath + ": value " + llvm::Twine(i % x->perExample()) +
                       " of example " + llvm::Twine(i / x->perExample()) +
                       " is not finite (" + (std::isnan(v) ? "nan" : "inf") +
                       ")");
    if (!std::isfinite(static_cast<float>(v)))
      return makeError(xPath + ": value " + llvm::Twine(i % x->perExample()) +
                       " of example " + llvm::Twine(i / x->perExample()) +
                       " (" + llvm::formatv("{0:e3}", v).str() +
                       ") is beyond float32's range (3.403e+38): the step "
                       "reads float32");
    values[static_cast<size_t>(i)] =
        x->descr == "|u1"
            ? static_cast<float>(static_cast<unsigned char>(x->data[i])) /
                  255.0f
            : static_cast<float>(v);
  }
  // The labels decide what a batch x K target is fed: float values are
  // regression targets, integers class labels (one-hot encoded). Any other
  // target takes regression targets only.
  std::optional<int64_t> width = plan.regressionValues();
  const char *orLabels =
      plan.targetClasses ? "; or int32, int64 or uint8 class labels of shape "
                           "(N,), fed one-hot"
                         : "";
  if (plan.targetValues || (width && y->isFloat())) {
    if (!y->isFloat())
      return makeError(yPath + ": '" + y->descr + "' of shape " +
                       y->shapeText() + ", but the step's target " +
                       plan.targetType + " takes " + llvm::Twine(*width) +
                       " float values per example (float32 or float64 "
                       "regression targets)");
    if (y->perExample() != *width)
      return makeError(yPath + ": regression targets of shape " +
                       y->shapeText() + ", " + llvm::Twine(y->perExample()) +
                       (y->perExample() == 1 ? " value" : " values") +
                       " per example, but the step's target " +
                       plan.targetType + " takes " + llvm::Twine(*width) +
                       " per example: give targets of shape (N, " +
                       llvm::Twine(*width) + ")" + orLabels);
    DataField input, target;
    input.valuesPerExample = in.valuesPerExample;
    input.floats = std::move(values);
    target.valuesPerExample = *width;
    target.floats.resize(static_cast<size_t>(y->count()));
    for (int64_t i = 0, n = y->count(); i < n; ++i) {
      double v = y->at(i);
      if (!std::isfinite(v))
        return makeError(yPath + ": target value " +
                         llvm::Twine(i % y->perExample()) + " of example " +
                         llvm::Twine(i / y->perExample()) + " is not finite");
      if (!std::isfinite(static_cast<float>(v)))
        return makeError(yPath + ": target value " +
                         llvm::Twine(i % y->perExample()) + " of example " +
                         llvm::Twine(i / y->perExample()) + " (" +
                         llvm::formatv("{0:e3}", v).str() +
                         ") is beyond float32's range (3.403e+38): the step "
                         "reads float32");
      target.floats[static_cast<size_t>(i)] = static_cast<float>(v);
    }
    ds.inputs.push_back(std::move(input));
    ds.target = std::move(target);
    ds.labels.assign(static_cast<size_t>(ds.numExamples), 0);
    ds.numClasses = 1;
    return ds;
  }
  if (!y->isInt() || y->perExample() != 1)
    return makeError(
        yPath + ": '" + y->descr + "' of shape " + y->shapeText() +
        "; class labels are int32, int64 or uint8 of shape (N,)" +
        (width ? "; the step's target " + plan.targetType +
                     " also takes float32 or float64 regression targets "
                     "of shape (N, " +
                     std::to_string(*width) + ")"
               : std::string()));
  ds.images = std::move(values);
  ds.labels.resize(static_cast<size_t>(ds.numExamples));
  for (int64_t i = 0; i < ds.numExamples; ++i) {
    int64_t l = y->intAt(i);
    if (l < 0 || l > INT32_MAX)
      return labelOutOfRange(plan, yPath, l, i);
    ds.labels[static_cast<size_t>(i)] = static_cast<int32_t>(l);
    ds.numClasses =
        std::max(ds.numClasses, ds.labels[static_cast<size_t>(i)] + 1);
  }
  if (llvm::Error e = checkLabels(plan, ds, yPath))
    return std::move(e);
  return ds;
}

llvm::Expected<DataSplits> NpySource::load(const RunPlan &plan,
                                           llvm::raw_ostream &log) {
  DataSplits splits;
  auto train = split(plan, files[0], files[1]);
  if (!train)
    return train.takeError();
  splits.train = std::move(*train);
  log << "amp-run: loaded " << files[0] << ", " << files[1] << ": "
      << splits.train.numExamples << " training examples\n";
  if (files.size() == 4) {
    auto test = split(plan, files[2], files[3]);
    if (!test)
      return test.takeError();
    splits.test = std::move(*test);
    log << "amp-run: loaded " << files[2] << ", " << files[3] << ": "
        << splits.test.numExamples << " test examples\n";
    if (splits.train.target.has_value() != splits.test.target.has_value())
      return makeError(files[1] + " holds " + splits.train.supervision() +
                       ", " + files[3] + " " + splits.test.supervision() +
                       ": give both splits the same kind");
  } else {
    splits.test = splits.train;
  }
  // A step without an eval step evaluates nothing; with regression targets
  // its accuracy has no class labels to count.
  if (plan.classes && splits.train.target)
    log << "amp-run: note: " << files[1]
        << " holds regression targets: the eval step's accuracy (argmax "
           "against class labels) is not computed, the table's test acc "
           "is -\n";
  else if (plan.classes && files.size() == 2)
    log << "amp-run: note: no test files given; the eval step runs on the "
           "training set\n";
  return splits;
}

std::unique_ptr<DataSource>
mlir::amp::runtime::createNpySource(std::vector<std::string> files) {
  return std::make_unique<NpySource>(std::move(files));
}
