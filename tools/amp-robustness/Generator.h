//===- Generator.h - random valid MLIR for robustness tests ----*- C++ -*-===//
//
// Deterministic (seeded) generators of MLIR text:
//  - generateRandomFunction: a random but valid func.func over linalg,
//    tensor, arith, math, scf and tosa ops; element types f32, f16, bf16,
//    f64, i8, i32; static and dynamic dimensions; scf.for / scf.if regions
//    nested up to two deep; sometimes marked amp.train_step with random
//    roles and amp markers (mostly contract violations: the passes must
//    refuse them with a diagnostic); ops of an unregistered dialect
//    ("unknown.op"; parse with allowUnregisteredDialects).
//  - generateTrainingStep: a training step that follows the contract of
//    docs/training-step.md (linear layers, quadratic loss, analytic
//    backward from amp.loss_grad, amp.grad per parameter, SGD / momentum /
//    RMSprop update), so that autocast and loss scaling really transform it.
//  - generateEdgeCase (EdgeCases.cpp): the input classes that broke passes.
//  - generateForwardModel (ForwardModels.cpp): torch-mlir-style forward
//    models for amp-differentiate and amp-build-train-step.
// All return a whole module; the same seed gives the same text.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ROBUSTNESS_GENERATOR_H
#define AMP_ROBUSTNESS_GENERATOR_H

#include <cstdint>
#include <string>

namespace mlir::amp::robustness {

std::string generateRandomFunction(uint64_t seed);

struct TrainingStepOptions {
  /// Fixed shapes for execution (no dynamic batch dimension).
  bool staticShapes = false;
  /// One extra `opt_state` argument per parameter, attribute
  /// `amp_test.poke_of = <param arg index>`, same type as the parameter,
  /// added to its raw gradient before `amp.grad` (times the seed, so that it
  /// is a backward term: `raw + poke * seed`) and returned unchanged: lets a
  /// test put +inf/-inf/NaN into exactly one gradient element.
  bool pokes = false;
  /// -1: random; 0: SGD; 1: SGD with momentum; 2: RMSprop-like.
  int optimizer = -1;
};

/// The function is `@train_step`; every argument has `amp.role`, every
/// parameter `amp_test.param` (its index among parameters).
std::string generateTrainingStep(uint64_t seed,
                                 const TrainingStepOptions &options = {});

/// The number of classes of generateEdgeCase (seed % this picks one).
constexpr uint64_t kNumEdgeCaseClasses = 5;

/// One module of an input class that the generators above never produce and
/// that broke passes (EdgeCases.cpp): dynamic parameter shapes,
/// dense_resource constants (real, elided, wrong size), static shapes of
/// 2^64 elements, gradients mixing seed-derived and seed-free terms, and
/// expand_shape groups of several dynamic sizes (an upstream crash class).
/// Every amp pass must succeed or fail with a located error on each.
std::string generateEdgeCase(uint64_t seed);

/// A small forward model (ForwardModels.cpp) in torch-mlir's form, the
/// input of amp-differentiate and amp-build-train-step: `@forward(%x)`
/// returning batch x classes logits (or, for some seeds, a scalar loss),
/// with convolutions, pooling, eval-form batch norm, linear layers and
/// activations, weights as dense, dense_resource or elided constants.
std::string generateForwardModel(uint64_t seed);

} // namespace mlir::amp::robustness

#endif // AMP_ROBUSTNESS_GENERATOR_H
