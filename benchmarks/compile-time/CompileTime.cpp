//===- CompileTime.cpp - compile-time scaling of amp-mixed-precision ------===//
//
// Generates fp32 training steps of an MLP with N hidden layers (width 64,
// input 784, batch 32, 10 classes) that satisfy the training-step contract
// (docs/training-step.md), in the style of examples/fashion-mnist/mlp.mlir:
//
//   forward   per hidden layer: linalg.matmul, bias-add generic, GELU (tanh
//             approximation) generic; an output layer without activation;
//             stable softmax cross-entropy, mean over the batch;
//   backward  from `amp.loss_grad`, hand-written: GELU-derivative generic,
//             weight gradient (A^T B) and input gradient (A B^T) contraction
//             generics, bias gradient (column sum); `amp.grad` per parameter;
//   update    Adam (moments and a step counter as opt_state, bias
//             correction), one generic per moment and per parameter.
//
// For N in {1, 10, 100, 1000} it parses the step, counts its ops, and times
// (best of 3, each run on a fresh clone of the parsed module, single-threaded
// context) the `amp-mixed-precision` pipeline (f16, dynamic loss scaling)
// and upstream `canonicalize,cse` alone on the same input IR. Results are
// printed as a table and as ROW lines (benchmarks/README.md).
//
// Each measurement runs in a forked child with a time limit (--timeout, 20 s):
// a pipeline that does not finish reports a lower bound (">=") and an
// extrapolation from the smaller sizes, so the whole program stays under a
// minute even when scaling is far from linear.
//
// Options: --layers=1,10,100,1000  --reps=3  --timeout=20  --no-verify
// (no verifier after each pass, for both pipelines)  --dump=N (print the
// generated step with N hidden layers and exit).
//
//===----------------------------------------------------------------------===//

#include "amp/AmpMLIR.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

namespace {

constexpr int kBatch = 32;
constexpr int kInput = 784;
constexpr int kWidth = 64;
constexpr int kClasses = 10;

std::string t2(int a, int b) {
  return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "xf32>";
}
std::string t1(int a) { return "tensor<" + std::to_string(a) + "xf32>"; }

/// Shape of one parameter (rank 1 or 2).
struct Param {
  std::string name; // SSA name without '%'
  std::vector<int> shape;
  std::string type() const {
    return shape.size() == 2 ? t2(shape[0], shape[1]) : t1(shape[0]);
  }
};

/// The training step with `hidden` hidden layers as MLIR text.
/// Emits `%<empty> = tensor.empty` of `type` and `%<name> = linalg.fill 0`
/// into it: the zero accumulator every contraction and reduction starts from.
static void emitZeros(std::ostream &os, const std::string &empty,
                      const std::string &name, const std::string &type) {
  os << "  %" << empty << " = tensor.empty() : " << type << "\n";
  os << "  %" << name << " = linalg.fill ins(%zero : f32) outs(%" << empty
     << " : " << type << ") -> " << type << "\n";
}

std::string generateStep(int hidden) {
  const int layers = hidden + 1; // linear layers, the last one gives logits
  auto inDim = [&](int l) { return l == 1 ? kInput : kWidth; };
  auto outDim = [&](int l) { return l == layers ? kClasses : kWidth; };
  auto act = [&](int l) -> std::string {
    return l == 0 ? "%x" : "%h" + std::to_string(l);
  };

  std::vector<Param> params;
  for (int l = 1; l <= layers; ++l) {
    params.push_back({"w" + std::to_string(l), {inDim(l), outDim(l)}});
    params.push_back({"b" + std::to_string(l), {outDim(l)}});
  }

  std::ostringstream os;
  os << R"(#id1     = affine_map<(d0) -> (d0)>
#id2     = affine_map<(d0, d1) -> (d0, d1)>
#rows    = affine_map<(d0, d1) -> (d0)>
#cols    = affine_map<(d0, d1) -> (d1)>
#scalar0 = affine_map<() -> ()>
#scalar1 = affine_map<(d0) -> ()>
#scalar2 = affine_map<(d0, d1) -> ()>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#tn_b = affine_map<(i, j, k) -> (k, j)>
#nt_a = affine_map<(i, j, k) -> (i, k)>
#nt_b = affine_map<(i, j, k) -> (j, k)>
#c_ij = affine_map<(i, j, k) -> (i, j)>
module {
func.func @train_step(
)";
  // Arguments: params, first moments, second moments, step counter, x, y.
  for (const Param &p : params)
    os << "    %" << p.name << ": " << p.type() << " {amp.role = \"param\"},\n";
  for (const char *prefix : {"m_", "v_"})
    for (const Param &p : params)
      os << "    %" << prefix << p.name << ": " << p.type()
         << " {amp.role = \"opt_state\"},\n";
  os << "    %t: tensor<f32> {amp.role = \"opt_state\"},\n";
  os << "    %x: " << t2(kBatch, kInput) << " {amp.role = \"input\"},\n";
  os << "    %y: tensor<" << kBatch << "xi32> {amp.role = \"label\"})\n";
  os << "  -> (tensor<f32> {amp.role = \"loss\"}";
  int idx = 0;
  for (int rep = 0; rep < 3; ++rep)
    for (const Param &p : params)
      os << ",\n      " << p.type() << " {amp.updates = " << idx++ << " : i64}";
  os << ",\n      tensor<f32> {amp.updates = " << idx++ << " : i64})\n";
  os << "  attributes {amp.train_step} {\n";
  os << "  %zero = arith.constant 0.0 : f32\n";
  os << "  %neg_inf = arith.constant 0xFF800000 : f32\n";

  // ------------------------------- forward ---------------------------------
  for (int l = 1; l <= layers; ++l) {
    const std::string L = std::to_string(l);
    const std::string T = t2(kBatch, outDim(l));
    os << "  // layer " << l << "\n";
    emitZeros(os, "e_f" + L, "acc" + L, T);
    os << "  %mm" << L << " = linalg.matmul ins(" << act(l - 1) << ", %w" << L
       << " : " << t2(kBatch, inDim(l)) << ", " << t2(inDim(l), outDim(l))
       << ") outs(%acc" << L << " : " << T << ") -> " << T << "\n";
    os << "  %z" << L
       << " = linalg.generic {indexing_maps = [#id2, #cols, #id2], "
          "iterator_types = [\"parallel\", \"parallel\"]}\n"
       << "      ins(%mm" << L << ", %b" << L << " : " << T << ", "
       << t1(outDim(l)) << ") outs(%e_f" << L << " : " << T << ") {\n"
       << "  ^bb0(%a: f32, %b: f32, %o: f32):\n"
       << "    %r = arith.addf %a, %b : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << T << "\n";
    if (l == layers)
      break;
    // GELU, tanh approximation: 0.5 x (1 + tanh(k (x + a x^3))).
    os << "  %h" << L
       << " = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = "
          "[\"parallel\", \"parallel\"]}\n"
       << "      ins(%z" << L << " : " << T << ") outs(%e_f" << L << " : " << T
       << ") {\n"
       << "  ^bb0(%a: f32, %o: f32):\n"
       << "    %c_half = arith.constant 0.5 : f32\n"
       << "    %c_one = arith.constant 1.0 : f32\n"
       << "    %c_k = arith.constant 0.797884583 : f32\n"
       << "    %c_a = arith.constant 0.044715 : f32\n"
       << "    %x2 = arith.mulf %a, %a : f32\n"
       << "    %x3 = arith.mulf %x2, %a : f32\n"
       << "    %ax3 = arith.mulf %c_a, %x3 : f32\n"
       << "    %in = arith.addf %a, %ax3 : f32\n"
       << "    %u = arith.mulf %c_k, %in : f32\n"
       << "    %th = math.tanh %u : f32\n"
       << "    %opt = arith.addf %c_one, %th : f32\n"
       << "    %hx = arith.mulf %c_half, %a : f32\n"
       << "    %r = arith.mulf %hx, %opt : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << T << "\n";
  }

  // ------------------------------- loss ------------------------------------
  const std::string Z = "%z" + std::to_string(layers);
  const std::string TL = t2(kBatch, kClasses);
  const std::string TB = t1(kBatch);
  os << "  // loss: stable softmax cross-entropy, mean over the batch\n";
  os << "  %e_l = tensor.empty() : " << TL << "\n";
  os << "  %e_b = tensor.empty() : " << TB << "\n";
  os << "  %max_init = linalg.fill ins(%neg_inf : f32) outs(%e_b : " << TB
     << ") -> " << TB << "\n";
  os << "  %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types "
        "= [\"parallel\", \"reduction\"]}\n"
     << "      ins(" << Z << " : " << TL << ") outs(%max_init : " << TB
     << ") {\n"
     << "  ^bb0(%a: f32, %acc: f32):\n"
     << "    %r = arith.maximumf %a, %acc : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TB << "\n";
  os << "  %ez = linalg.generic {indexing_maps = [#id2, #rows, #id2], "
        "iterator_types = [\"parallel\", \"parallel\"]}\n"
     << "      ins(" << Z << ", %m : " << TL << ", " << TB
     << ") outs(%e_l : " << TL << ") {\n"
     << "  ^bb0(%a: f32, %mx: f32, %o: f32):\n"
     << "    %d = arith.subf %a, %mx : f32\n"
     << "    %r = math.exp %d : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TL << "\n";
  os << "  %sum_init = linalg.fill ins(%zero : f32) outs(%e_b : " << TB
     << ") -> " << TB << "\n";
  os << "  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types "
        "= [\"parallel\", \"reduction\"]}\n"
     << "      ins(%ez : " << TL << ") outs(%sum_init : " << TB << ") {\n"
     << "  ^bb0(%a: f32, %acc: f32):\n"
     << "    %r = arith.addf %a, %acc : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TB << "\n";
  os << "  %onehot = linalg.generic {indexing_maps = [#rows, #id2], "
        "iterator_types = [\"parallel\", \"parallel\"]}\n"
     << "      ins(%y : tensor<" << kBatch << "xi32>) outs(%e_l : " << TL
     << ") {\n"
     << "  ^bb0(%lbl: i32, %o: f32):\n"
     << "    %c0 = arith.constant 0.0 : f32\n"
     << "    %one = arith.constant 1.0 : f32\n"
     << "    %j = linalg.index 1 : index\n"
     << "    %lbl_idx = arith.index_cast %lbl : i32 to index\n"
     << "    %eq = arith.cmpi eq, %j, %lbl_idx : index\n"
     << "    %r = arith.select %eq, %one, %c0 : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TL << "\n";
  os << "  %zy_init = linalg.fill ins(%zero : f32) outs(%e_b : " << TB
     << ") -> " << TB << "\n";
  os << "  %zy = linalg.generic {indexing_maps = [#id2, #id2, #rows], "
        "iterator_types = [\"parallel\", \"reduction\"]}\n"
     << "      ins(" << Z << ", %onehot : " << TL << ", " << TL
     << ") outs(%zy_init : " << TB << ") {\n"
     << "  ^bb0(%a: f32, %oh: f32, %acc: f32):\n"
     << "    %p = arith.mulf %a, %oh : f32\n"
     << "    %r = arith.addf %p, %acc : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TB << "\n";
  os << "  %e_0d = tensor.empty() : tensor<f32>\n";
  os << "  %loss_init = linalg.fill ins(%zero : f32) outs(%e_0d : "
        "tensor<f32>) -> tensor<f32>\n";
  os << "  %loss = linalg.generic {indexing_maps = [#id1, #id1, #id1, "
        "#scalar1], iterator_types = [\"reduction\"]}\n"
     << "      ins(%m, %s, %zy : " << TB << ", " << TB << ", " << TB
     << ") outs(%loss_init : tensor<f32>) {\n"
     << "  ^bb0(%mx: f32, %sm: f32, %zt: f32, %acc: f32):\n"
     << "    %c_inv_b = arith.constant 0.03125 : f32\n"
     << "    %ls = math.log %sm : f32\n"
     << "    %lse = arith.addf %mx, %ls : f32\n"
     << "    %nll = arith.subf %lse, %zt : f32\n"
     << "    %nll_b = arith.mulf %nll, %c_inv_b : f32\n"
     << "    %r = arith.addf %nll_b, %acc : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> tensor<f32>\n";

  // ------------------------------- backward --------------------------------
  os << "  %seed = amp.loss_grad %loss : tensor<f32>\n";
  // dz_L = (softmax(z_L) - onehot) * (seed / B), the seed scaled in fp32.
  os << "  %dz" << layers
     << " = linalg.generic {indexing_maps = [#id2, #rows, #id2, #scalar2, "
        "#id2], iterator_types = [\"parallel\", \"parallel\"]}\n"
     << "      ins(%ez, %s, %onehot, %seed : " << TL << ", " << TB << ", " << TL
     << ", tensor<f32>) outs(%e_l : " << TL << ") {\n"
     << "  ^bb0(%a: f32, %sm: f32, %oh: f32, %sd: f32, %o: f32):\n"
     << "    %c_inv_b = arith.constant 0.03125 : f32\n"
     << "    %p = arith.divf %a, %sm : f32\n"
     << "    %d = arith.subf %p, %oh : f32\n"
     << "    %scale = arith.mulf %sd, %c_inv_b : f32\n"
     << "    %r = arith.mulf %d, %scale : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> " << TL << "\n";
  for (int l = layers; l >= 1; --l) {
    const std::string L = std::to_string(l);
    const std::string T = t2(kBatch, outDim(l));
    const std::string TW = t2(inDim(l), outDim(l));
    const std::string TBias = t1(outDim(l));
    os << "  // backward layer " << l << "\n";
    if (l < layers) {
      // dz_l = dh_l * gelu'(z_l).
      os << "  %e_d" << L << " = tensor.empty() : " << T << "\n";
      os << "  %dz" << L
         << " = linalg.generic {indexing_maps = [#id2, #id2, #id2], "
            "iterator_types = [\"parallel\", \"parallel\"]}\n"
         << "      ins(%dh" << L << ", %z" << L << " : " << T << ", " << T
         << ") outs(%e_d" << L << " : " << T << ") {\n"
         << "  ^bb0(%g: f32, %a: f32, %o: f32):\n"
         << "    %c_half = arith.constant 0.5 : f32\n"
         << "    %c_one = arith.constant 1.0 : f32\n"
         << "    %c_k = arith.constant 0.797884583 : f32\n"
         << "    %c_a = arith.constant 0.044715 : f32\n"
         << "    %c_3a = arith.constant 0.134145 : f32\n"
         << "    %x2 = arith.mulf %a, %a : f32\n"
         << "    %x3 = arith.mulf %x2, %a : f32\n"
         << "    %ax3 = arith.mulf %c_a, %x3 : f32\n"
         << "    %in = arith.addf %a, %ax3 : f32\n"
         << "    %u = arith.mulf %c_k, %in : f32\n"
         << "    %th = math.tanh %u : f32\n"
         << "    %opt = arith.addf %c_one, %th : f32\n"
         << "    %left = arith.mulf %c_half, %opt : f32\n"
         << "    %th2 = arith.mulf %th, %th : f32\n"
         << "    %sech2 = arith.subf %c_one, %th2 : f32\n"
         << "    %a3x2 = arith.mulf %c_3a, %x2 : f32\n"
         << "    %dp = arith.addf %c_one, %a3x2 : f32\n"
         << "    %kdp = arith.mulf %c_k, %dp : f32\n"
         << "    %hx = arith.mulf %c_half, %a : f32\n"
         << "    %r1 = arith.mulf %hx, %sech2 : f32\n"
         << "    %r2 = arith.mulf %r1, %kdp : f32\n"
         << "    %d = arith.addf %left, %r2 : f32\n"
         << "    %r = arith.mulf %g, %d : f32\n"
         << "    linalg.yield %r : f32\n"
         << "  } -> " << T << "\n";
    }
    // gw_l = act_{l-1}^T * dz_l.
    emitZeros(os, "e_gw" + L, "gw_init" + L, TW);
    os << "  %gw_raw" << L
       << " = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], "
          "iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}\n"
       << "      ins(" << act(l - 1) << ", %dz" << L << " : "
       << t2(kBatch, inDim(l)) << ", " << T << ") outs(%gw_init" << L << " : "
       << TW << ") {\n"
       << "  ^bb0(%a: f32, %b: f32, %acc: f32):\n"
       << "    %p = arith.mulf %a, %b : f32\n"
       << "    %r = arith.addf %p, %acc : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << TW << "\n";
    // gb_l = column sum of dz_l.
    emitZeros(os, "e_gb" + L, "gb_init" + L, TBias);
    os << "  %gb_raw" << L
       << " = linalg.generic {indexing_maps = [#id2, #cols], iterator_types "
          "= [\"reduction\", \"parallel\"]}\n"
       << "      ins(%dz" << L << " : " << T << ") outs(%gb_init" << L << " : "
       << TBias << ") {\n"
       << "  ^bb0(%a: f32, %acc: f32):\n"
       << "    %r = arith.addf %a, %acc : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << TBias << "\n";
    if (l > 1) {
      // dh_{l-1} = dz_l * W_l^T.
      const std::string P = std::to_string(l - 1);
      const std::string TH = t2(kBatch, inDim(l));
      emitZeros(os, "e_dh" + P, "dh_init" + P, TH);
      os << "  %dh" << P
         << " = linalg.generic {indexing_maps = [#nt_a, #nt_b, #c_ij], "
            "iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}\n"
         << "      ins(%dz" << L << ", %w" << L << " : " << T << ", " << TW
         << ") outs(%dh_init" << P << " : " << TH << ") {\n"
         << "  ^bb0(%a: f32, %b: f32, %acc: f32):\n"
         << "    %p = arith.mulf %a, %b : f32\n"
         << "    %r = arith.addf %p, %acc : f32\n"
         << "    linalg.yield %r : f32\n"
         << "  } -> " << TH << "\n";
    }
  }

  // ------------------------------- gradients -------------------------------
  for (const Param &p : params)
    os << "  %g" << p.name << " = amp.grad %g" << p.name.substr(0, 1) << "_raw"
       << p.name.substr(1) << ", %" << p.name << " : " << p.type() << "\n";

  // ------------------------------- Adam ------------------------------------
  // t' = t + 1; bias corrections bc1 = 1 - b1^t', bc2 = 1 - b2^t'.
  os << "  %t_new = linalg.generic {indexing_maps = [#scalar0, #scalar0], "
        "iterator_types = []}\n"
     << "      ins(%t : tensor<f32>) outs(%e_0d : tensor<f32>) {\n"
     << "  ^bb0(%a: f32, %o: f32):\n"
     << "    %c_one = arith.constant 1.0 : f32\n"
     << "    %r = arith.addf %a, %c_one : f32\n"
     << "    linalg.yield %r : f32\n"
     << "  } -> tensor<f32>\n";
  for (int k = 1; k <= 2; ++k) {
    os << "  %bc" << k
       << " = linalg.generic {indexing_maps = [#scalar0, #scalar0], "
          "iterator_types = []}\n"
       << "      ins(%t_new : tensor<f32>) outs(%e_0d : tensor<f32>) {\n"
       << "  ^bb0(%a: f32, %o: f32):\n"
       << "    %c_one = arith.constant 1.0 : f32\n"
       << "    %c_beta = arith.constant " << (k == 1 ? "0.9" : "0.999")
       << " : f32\n"
       << "    %pw = math.powf %c_beta, %a : f32\n"
       << "    %r = arith.subf %c_one, %pw : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> tensor<f32>\n";
  }
  for (const Param &p : params) {
    const std::string T = p.type();
    const bool two = p.shape.size() == 2;
    const std::string id = two ? "#id2" : "#id1";
    const std::string sc = two ? "#scalar2" : "#scalar1";
    const std::string it =
        two ? "[\"parallel\", \"parallel\"]" : "[\"parallel\"]";
    const std::string &n = p.name;
    os << "  %e_u" << n << " = tensor.empty() : " << T << "\n";
    // m' = b1 m + (1 - b1) g.
    os << "  %m_new_" << n << " = linalg.generic {indexing_maps = [" << id
       << ", " << id << ", " << id << "], iterator_types = " << it << "}\n"
       << "      ins(%m_" << n << ", %g" << n << " : " << T << ", " << T
       << ") outs(%e_u" << n << " : " << T << ") {\n"
       << "  ^bb0(%mo: f32, %g: f32, %o: f32):\n"
       << "    %c_b1 = arith.constant 0.9 : f32\n"
       << "    %c_1mb1 = arith.constant 0.1 : f32\n"
       << "    %bm = arith.mulf %c_b1, %mo : f32\n"
       << "    %bg = arith.mulf %c_1mb1, %g : f32\n"
       << "    %r = arith.addf %bm, %bg : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << T << "\n";
    // v' = b2 v + (1 - b2) g^2.
    os << "  %v_new_" << n << " = linalg.generic {indexing_maps = [" << id
       << ", " << id << ", " << id << "], iterator_types = " << it << "}\n"
       << "      ins(%v_" << n << ", %g" << n << " : " << T << ", " << T
       << ") outs(%e_u" << n << " : " << T << ") {\n"
       << "  ^bb0(%v: f32, %g: f32, %o: f32):\n"
       << "    %c_b2 = arith.constant 0.999 : f32\n"
       << "    %c_1mb2 = arith.constant 0.001 : f32\n"
       << "    %g2 = arith.mulf %g, %g : f32\n"
       << "    %bv = arith.mulf %c_b2, %v : f32\n"
       << "    %bg = arith.mulf %c_1mb2, %g2 : f32\n"
       << "    %r = arith.addf %bv, %bg : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << T << "\n";
    // w' = w - lr * (m'/bc1) / (sqrt(v'/bc2) + eps).
    os << "  %" << n << "_new = linalg.generic {indexing_maps = [" << id << ", "
       << id << ", " << id << ", " << sc << ", " << sc << ", " << id
       << "], iterator_types = " << it << "}\n"
       << "      ins(%" << n << ", %m_new_" << n << ", %v_new_" << n
       << ", %bc1, %bc2 : " << T << ", " << T << ", " << T
       << ", tensor<f32>, tensor<f32>) outs(%e_u" << n << " : " << T << ") {\n"
       << "  ^bb0(%w: f32, %mo: f32, %v: f32, %c1: f32, %c2: f32, %o: f32):\n"
       << "    %c_lr = arith.constant 0.001 : f32\n"
       << "    %c_eps = arith.constant 1.0e-08 : f32\n"
       << "    %mh = arith.divf %mo, %c1 : f32\n"
       << "    %vh = arith.divf %v, %c2 : f32\n"
       << "    %sq = math.sqrt %vh : f32\n"
       << "    %den = arith.addf %sq, %c_eps : f32\n"
       << "    %st = arith.divf %mh, %den : f32\n"
       << "    %ls = arith.mulf %c_lr, %st : f32\n"
       << "    %r = arith.subf %w, %ls : f32\n"
       << "    linalg.yield %r : f32\n"
       << "  } -> " << T << "\n";
  }

  os << "  return %loss";
  for (const Param &p : params)
    os << ", %" << p.name << "_new";
  for (const Param &p : params)
    os << ", %m_new_" << p.name;
  for (const Param &p : params)
    os << ", %v_new_" << p.name;
  os << ", %t_new\n    : tensor<f32>";
  for (int rep = 0; rep < 3; ++rep)
    for (const Param &p : params)
      os << ", " << p.type();
  os << ", tensor<f32>\n";
  os << "}\n}\n";
  return os.str();
}

int64_t countOps(Operation *root) {
  int64_t n = 0;
  root->walk([&](Operation *) { ++n; });
  return n;
}

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// One timed pipeline run, as the measuring child process reports it.
struct RunRecord {
  double ms;
  long long opsAfter;
  int status; // 0 ok, 1 the pass manager failed, 2 the output check failed
};

/// The best of up to `reps` runs of one pass pipeline.
struct Timing {
  double bestMs = 0; // best run; a lower bound when `timedOut` and no run
  long long opsAfter = 0;
  int runs = 0; // runs completed
  bool timedOut = false;
  int status = 0; // as RunRecord::status
};

/// Times `reps` runs of the pipeline built by `build`, each on a fresh clone
/// of `module` (the clone is not timed), with one PassManager for all runs
/// (so that pattern sets are built once and the best run shows the per-op
/// cost). No run is started once `budgetMs` of runs have been spent. The
/// runs happen in a forked child that is killed after `timeoutS` seconds, so
/// that a pipeline that scales badly cannot hang the benchmark. `check`, if
/// given, validates the output of the first run.
Timing measure(ModuleOp module, int reps, bool verifyEach, double budgetMs,
               double timeoutS,
               const std::function<void(OpPassManager &)> &build,
               const std::function<bool(ModuleOp)> &check = nullptr) {
  Timing timing;
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("pipe");
    std::exit(1);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(1);
  }
  if (pid == 0) {
    close(fds[0]);
    PassManager pm(module->getContext());
    pm.enableVerifier(verifyEach);
    build(pm);
    double spent = 0;
    for (int r = 0; r < reps && (r == 0 || spent < budgetMs); ++r) {
      OwningOpRef<ModuleOp> clone = module.clone();
      auto start = Clock::now();
      LogicalResult result = pm.run(*clone);
      RunRecord record{msSince(start), 0, 0};
      spent += record.ms;
      if (failed(result))
        record.status = 1;
      else if (r == 0 && check && !check(*clone))
        record.status = 2;
      else
        record.opsAfter = countOps(*clone);
      if (write(fds[1], &record, sizeof(record)) != sizeof(record) ||
          record.status != 0)
        break;
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  auto start = Clock::now();
  char buffer[sizeof(RunRecord)];
  size_t have = 0;
  for (;;) {
    double left = timeoutS * 1000.0 - msSince(start);
    if (left <= 0) {
      timing.timedOut = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>(std::min(left, 1.0e9)) + 1);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // re-check the deadline
    ssize_t n = read(fds[0], buffer + have, sizeof(buffer) - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // child finished
    have += static_cast<size_t>(n);
    if (have < sizeof(buffer))
      continue;
    have = 0;
    RunRecord record;
    std::memcpy(&record, buffer, sizeof(record));
    if (record.status != 0) {
      timing.status = record.status;
      break;
    }
    if (timing.runs == 0 || record.ms < timing.bestMs) {
      timing.bestMs = record.ms;
      timing.opsAfter = record.opsAfter;
    }
    ++timing.runs;
  }
  if (timing.timedOut)
    kill(pid, SIGKILL);
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (timing.runs == 0 && !timing.timedOut && timing.status == 0)
    timing.status = 1; // the child died without reporting
  if (timing.timedOut && timing.runs == 0)
    timing.bestMs = timeoutS * 1000.0; // lower bound
  return timing;
}

std::vector<int> parseList(const char *s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    out.push_back(std::atoi(item.c_str()));
  return out;
}

/// "123.45" or ">=123.45" for a lower bound.
std::string fmt(double value, bool lowerBound, int decimals = 2) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%.*f", lowerBound ? ">=" : "", decimals,
                value);
  return buf;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> layerCounts = {1, 10, 100, 1000};
  int reps = 3;
  int dump = -1;
  bool verifyEach = true;
  double timeoutS = 20.0; // per pipeline measurement (all its runs)
  double budgetMs = 4000; // no further run once this much has been spent
  for (int i = 1; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--layers=", 9))
      layerCounts = parseList(argv[i] + 9);
    else if (!std::strncmp(argv[i], "--reps=", 7))
      reps = std::max(1, std::atoi(argv[i] + 7));
    else if (!std::strncmp(argv[i], "--dump=", 7))
      dump = std::atoi(argv[i] + 7);
    else if (!std::strncmp(argv[i], "--timeout=", 10))
      timeoutS = std::max(1.0, std::atof(argv[i] + 10));
    else if (!std::strcmp(argv[i], "--no-verify"))
      verifyEach = false;
    else {
      std::fprintf(stderr,
                   "usage: %s [--layers=1,10,100,1000] [--reps=3] "
                   "[--timeout=20] [--no-verify] [--dump=N]\n"
                   "  --dump=N     print the generated step with N hidden "
                   "layers and exit\n"
                   "  --timeout=S  limit per pipeline measurement; a "
                   "pipeline killed there reports a lower bound (>=)\n",
                   argv[0]);
      return 2;
    }
  }
  if (dump >= 1) {
    std::fputs(generateStep(dump).c_str(), stdout);
    return 0;
  }

  DialectRegistry registry;
  amp::registerAmpDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  amp::MixedPrecisionConfig mpOptions; // f16 + dynamic
  mpOptions.precision = amp::Precision::F16;
  mpOptions.lossScale = amp::LossScaleMode::Dynamic;
  auto buildAmp = [&](OpPassManager &pm) {
    amp::buildMixedPrecisionPipeline(pm, mpOptions);
  };
  auto buildUpstream = [](OpPassManager &pm) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  };
  struct Result {
    int layers;
    int64_t ops;
    double parseMs;
    Timing amp, upstream;
    double usPerOp() const { return amp.bestMs * 1000.0 / ops; }
  };
  std::vector<Result> results;

  std::printf("amp-mixed-precision (f16, dynamic loss scaling) vs "
              "canonicalize,cse on generated MLP training steps (width %d, "
              "input %d, batch %d, %d classes, GELU, Adam); best of %d "
              "(fewer once a run passes %.0f s), single-threaded, verifier "
              "%s, %.0f s limit per measurement\n",
              kWidth, kInput, kBatch, kClasses, reps, budgetMs / 1000,
              verifyEach ? "on" : "off", timeoutS);
  for (int n : layerCounts) {
    std::string text = generateStep(n);
    auto parseStart = Clock::now();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&context));
    double parseMs = msSince(parseStart);
    if (!module) {
      std::fprintf(stderr,
                   "error: generated step with %d layers does not parse\n", n);
      return 1;
    }
    Result r{};
    r.layers = n;
    r.ops = countOps(*module);
    r.parseMs = parseMs;
    // The pipeline must have rewritten the step: dynamic loss scaling adds
    // the loss_scale / growth_tracker / hysteresis_tracker /
    // consecutive_skips arguments and one unscale-and-check.
    unsigned argsBefore =
        module->lookupSymbol<func::FuncOp>("train_step").getNumArguments();
    auto check = [argsBefore](ModuleOp out) {
      int checks = 0;
      out->walk([&](Operation *op) {
        if (op->getName().getStringRef() == "amp.unscale_and_check")
          ++checks;
      });
      auto func = out.lookupSymbol<func::FuncOp>("train_step");
      return checks == 1 && func && func.getNumArguments() == argsBefore + 4;
    };
    r.amp =
        measure(*module, reps, verifyEach, budgetMs, timeoutS, buildAmp, check);
    if (r.amp.status != 0) {
      std::fprintf(stderr, "error: amp-mixed-precision %s on %d layers\n",
                   r.amp.status == 2 ? "did not rewrite the step" : "failed",
                   n);
      return 1;
    }
    r.upstream =
        measure(*module, reps, verifyEach, budgetMs, timeoutS, buildUpstream);
    if (r.upstream.status != 0) {
      std::fprintf(stderr, "error: canonicalize,cse failed on %d layers\n", n);
      return 1;
    }
    std::printf("  N=%d: %lld ops, parsed in %.0f ms, pipeline %s ms (%d "
                "runs), canonicalize+cse %.1f ms\n",
                n, static_cast<long long>(r.ops), r.parseMs,
                fmt(r.amp.bestMs, r.amp.timedOut && !r.amp.runs, 1).c_str(),
                r.amp.runs, r.upstream.bestMs);
    results.push_back(r);
  }

  std::printf("\n%7s %8s %8s %9s %13s %11s %13s %9s\n", "layers", "ops",
              "ops out", "parse ms", "pipeline ms", "us/op", "canon+cse ms",
              "ratio");
  for (const Result &r : results) {
    bool lb = r.amp.timedOut && !r.amp.runs;
    std::printf("%7d %8lld %8s %9.1f %13s %11s %13.2f %8sx\n", r.layers,
                static_cast<long long>(r.ops),
                lb ? "-" : std::to_string(r.amp.opsAfter).c_str(), r.parseMs,
                fmt(r.amp.bestMs, lb).c_str(), fmt(r.usPerOp(), lb, 3).c_str(),
                r.upstream.bestMs,
                fmt(r.amp.bestMs / r.upstream.bestMs, lb).c_str());
  }
  // Growth exponent between the two largest completed sizes, and what it
  // predicts for the largest.
  for (size_t i = 1; i < results.size(); ++i) {
    const Result &a = results[i - 1], &b = results[i];
    if (!a.amp.runs || !b.amp.runs)
      continue;
    double k = std::log(b.amp.bestMs / a.amp.bestMs) /
               std::log(static_cast<double>(b.ops) / a.ops);
    std::printf("pipeline time ~ ops^%.2f from N=%d to N=%d\n", k, a.layers,
                b.layers);
    // A size that hit the limit: extrapolate with this exponent.
    if (i + 1 < results.size() && !results[i + 1].amp.runs) {
      const Result &c = results[i + 1];
      double predicted =
          b.amp.bestMs * std::pow(static_cast<double>(c.ops) / b.ops, k);
      std::printf("  extrapolated pipeline time at N=%d: ~%.0f s (%.0fx "
                  "canonicalize+cse); measured only >= %.0f s\n",
                  c.layers, predicted / 1000, predicted / c.upstream.bestMs,
                  c.amp.bestMs / 1000);
    }
  }
  std::printf("\n");

  const Result *first = nullptr, *last = nullptr;
  for (const Result &r : results) {
    if (r.layers == 1)
      first = &r;
    if (r.layers == 1000)
      last = &r;
  }
  if (first && last) {
    bool lb = last->amp.timedOut && !last->amp.runs;
    double scaling = last->usPerOp() / first->usPerOp();
    std::printf("ROW|compile time per op, N=1000 vs N=1 layers|%sx|linear "
                "scaling|<= 1.5x|%s\n",
                fmt(scaling, lb).c_str(),
                !lb && scaling <= 1.5 ? "met" : "missed");
  }
  if (last) {
    bool lb = last->amp.timedOut && !last->amp.runs;
    double ratio = last->amp.bestMs / last->upstream.bestMs;
    std::printf("ROW|amp-mixed-precision vs canonicalize+cse, N=1000|%sx|"
                "upstream canonicalize+cse on the same IR|<= 2x|%s\n",
                fmt(ratio, lb).c_str(), !lb && ratio <= 2.0 ? "met" : "missed");
  }
  for (const Result &r : results) {
    bool lb = r.amp.timedOut && !r.amp.runs;
    std::printf("ROW|amp-mixed-precision per op, N=%d (%lld ops)|%s "
                "us/op|-|-|-\n",
                r.layers, static_cast<long long>(r.ops),
                fmt(r.usPerOp(), lb, 3).c_str());
  }
  return 0;
}
