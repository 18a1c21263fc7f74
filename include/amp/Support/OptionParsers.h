//===- OptionParsers.h - llvm::cl parsers of amp's enum options -*- C++ -*-===//
//
// `llvm::cl::parser` specializations for the enums of
// amp/Support/MixedPrecisionConfig.h, so that pass options
// (`Option<::mlir::amp::Precision>` in Passes.td), pipeline options and
// command-line flags parse them with the one parser (`parsePrecision`,
// `parseLossScaleMode`) and reject a bad value with the one message
// (`describeBadPrecision`, ...), which llvm::cl prefixes with the option.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_OPTIONPARSERS_H
#define AMP_SUPPORT_OPTIONPARSERS_H

#include "amp/Support/MixedPrecisionConfig.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::amp::optparse {
/// A cl parser for an enum with `parse`, `stringify` and `describeBad`.
template <typename Enum, std::optional<Enum> (*parseFn)(llvm::StringRef),
          llvm::StringRef (*stringifyFn)(Enum),
          std::string (*describeBadFn)(llvm::StringRef)>
class EnumOptionParser : public llvm::cl::basic_parser<Enum> {
public:
  EnumOptionParser(llvm::cl::Option &option, llvm::StringRef valueName)
      : llvm::cl::basic_parser<Enum>(option), valueName(valueName) {}

  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             Enum &value) {
    if (std::optional<Enum> parsed = parseFn(arg)) {
      value = *parsed;
      return false;
    }
    return option.error(describeBadFn(arg));
  }
  llvm::StringRef getValueName() const override { return valueName; }
  void printOptionDiff(const llvm::cl::Option &option, Enum value,
                       const llvm::cl::OptionValue<Enum> &defaultValue,
                       size_t globalWidth) const {
    this->printOptionName(option, globalWidth);
    llvm::outs() << "= " << stringifyFn(value) << " (default: ";
    if (defaultValue.hasValue())
      llvm::outs() << stringifyFn(defaultValue.getValue());
    else
      llvm::outs() << "*no default*";
    llvm::outs() << ")\n";
  }
  static void print(llvm::raw_ostream &os, Enum value) {
    os << stringifyFn(value);
  }

private:
  llvm::StringRef valueName;
};
} // namespace mlir::amp::optparse

namespace llvm::cl {
template <>
class parser<mlir::amp::Precision>
    : public mlir::amp::optparse::EnumOptionParser<
          mlir::amp::Precision, mlir::amp::parsePrecision,
          mlir::amp::stringifyPrecision, mlir::amp::describeBadPrecision> {
public:
  parser(Option &option) : EnumOptionParser(option, "f16|bf16|f32") {}
};

template <>
class parser<mlir::amp::LossScaleMode>
    : public mlir::amp::optparse::EnumOptionParser<
          mlir::amp::LossScaleMode, mlir::amp::parseLossScaleMode,
          mlir::amp::stringifyLossScaleMode,
          mlir::amp::describeBadLossScaleMode> {
public:
  parser(Option &option)
      : EnumOptionParser(option, "auto|dynamic|static|none") {}
};

template <>
class parser<mlir::amp::MasterWeights>
    : public mlir::amp::optparse::EnumOptionParser<
          mlir::amp::MasterWeights, mlir::amp::parseMasterWeights,
          mlir::amp::stringifyMasterWeights,
          mlir::amp::describeBadMasterWeights> {
public:
  parser(Option &option)
      : EnumOptionParser(option, "f32|bf16|bf16-kahan|bf16-stochastic") {}
};
} // namespace llvm::cl

#endif // AMP_SUPPORT_OPTIONPARSERS_H
