//===- Generator.cpp - random valid MLIR for robustness tests -------------===//

#include "Generator.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

using namespace mlir::amp::robustness;

namespace {

constexpr int64_t kDyn = -1;

struct TensorTy {
  std::vector<int64_t> shape;
  std::string elem;
  bool isFloat() const { return elem[0] == 'f' || elem[0] == 'b'; }
  bool isStatic() const {
    return std::none_of(shape.begin(), shape.end(),
                        [](int64_t d) { return d == kDyn; });
  }
  std::string str() const {
    std::string s = "tensor<";
    for (int64_t d : shape)
      s += (d == kDyn ? std::string("?") : std::to_string(d)) + "x";
    return s + elem + ">";
  }
  bool operator==(const TensorTy &o) const {
    return shape == o.shape && elem == o.elem;
  }
};

struct Val {
  std::string name;
  TensorTy type;
};

/// Identity / projection affine maps as text, e.g. "(d0, d1) -> (d0)".
std::string affineMap(unsigned rank, unsigned keep) {
  std::string s = "affine_map<(";
  for (unsigned i = 0; i < rank; ++i)
    s += (i ? ", d" : "d") + std::to_string(i);
  s += ") -> (";
  for (unsigned i = 0; i < keep; ++i)
    s += (i ? ", d" : "d") + std::to_string(i);
  return s + ")>";
}

std::string iterators(unsigned parallel, unsigned reduction) {
  std::string s = "[";
  for (unsigned i = 0; i < parallel + reduction; ++i)
    s += std::string(i ? ", " : "") +
         (i < parallel ? "\"parallel\"" : "\"reduction\"");
  return s + "]";
}

std::string floatLiteral(const std::string &elem, double v) {
  std::ostringstream os;
  os.precision(6);
  os << std::fixed << v;
  (void)elem;
  return os.str();
}

class FunctionGenerator {
public:
  explicit FunctionGenerator(uint64_t seed) : rng(seed) {}

  std::string run() {
    static const char *const floats[] = {"f32", "f32",  "f32",
                                         "f16", "bf16", "f64"};
    mainElem = floats[pick(6)];
    trainStep = chance(0.25);
    // Seed values: one or two arguments.
    int numSeeds = 1 + pick(2);
    for (int i = 0; i < numSeeds; ++i)
      pool.push_back(newArg(randomType(mainElem)));
    if (chance(0.3))
      pool.push_back(newArg(randomType(chance(0.5) ? "i8" : "i32")));
    int numOps = 2 + pick(10);
    for (int i = 0; i < numOps; ++i)
      emitOp(/*depth=*/0);
    if (trainStep)
      emitMarkers();
    // Return one to three of the last values.
    int numResults = 1 + pick(std::min<int>(3, pool.size()));
    std::vector<Val> results(pool.end() - numResults, pool.end());

    std::ostringstream os;
    os << "func.func @f" << "(";
    for (size_t i = 0; i < args.size(); ++i) {
      os << (i ? ", " : "") << args[i].name << ": " << args[i].type.str();
      if (trainStep)
        os << " {amp.role = \"" << randomRole() << "\"}";
    }
    os << ") -> (";
    for (size_t i = 0; i < results.size(); ++i) {
      os << (i ? ", " : "") << results[i].type.str();
      if (trainStep && chance(0.5))
        os << " {amp.updates = " << pick(args.size() + 1) << " : i64}";
      else if (trainStep && i == 0)
        os << " {amp.role = \"loss\"}";
    }
    os << ")";
    if (trainStep)
      os << " attributes {amp.train_step}";
    os << " {\n" << body << "  return ";
    for (size_t i = 0; i < results.size(); ++i)
      os << (i ? ", " : "") << results[i].name;
    os << " : ";
    for (size_t i = 0; i < results.size(); ++i)
      os << (i ? ", " : "") << results[i].type.str();
    os << "\n}\n";
    return os.str();
  }

private:
  std::mt19937_64 rng;
  std::string mainElem;
  bool trainStep = false;
  std::vector<Val> args, pool;
  std::string body;
  int counter = 0;
  std::string indent = "  ";

  unsigned pick(size_t n) {
    return n <= 1 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }
  std::string fresh() { return "%v" + std::to_string(counter++); }
  void line(const std::string &s) { body += indent + s + "\n"; }

  const char *randomRole() {
    static const char *const roles[] = {"param", "opt_state", "input",
                                        "label", "param",     "bogus"};
    return roles[pick(6)];
  }

  TensorTy randomType(const std::string &elem) {
    TensorTy t;
    t.elem = elem;
    int rank = pick(4); // 0..3
    for (int i = 0; i < rank; ++i)
      t.shape.push_back(chance(0.15) ? kDyn : 1 + pick(6));
    return t;
  }

  Val newArg(const TensorTy &t) {
    Val v{"%a" + std::to_string(args.size()), t};
    args.push_back(v);
    return v;
  }

  /// A value of type `t` in scope, or a new function argument.
  Val valueOfType(const TensorTy &t) {
    std::vector<Val> candidates;
    for (const Val &v : pool)
      if (v.type == t)
        candidates.push_back(v);
    if (!candidates.empty() && chance(0.7))
      return candidates[pick(candidates.size())];
    Val a = newArg(t);
    return a;
  }

  /// `tensor.empty` of type `t`; dynamic dimension i is read from `like`
  /// (dimension likeDims[i]).
  std::string empty(const TensorTy &t, const Val &like,
                    const std::vector<unsigned> &likeDims) {
    std::string dims;
    for (size_t i = 0; i < t.shape.size(); ++i) {
      if (t.shape[i] != kDyn)
        continue;
      std::string c = fresh(), d = fresh();
      line(c + " = arith.constant " + std::to_string(likeDims[i]) + " : index");
      line(d + " = tensor.dim " + like.name + ", " + c + " : " +
           like.type.str());
      dims += (dims.empty() ? "" : ", ") + d;
    }
    std::string e = fresh();
    line(e + " = tensor.empty(" + dims + ") : " + t.str());
    return e;
  }

  std::vector<unsigned> identityDims(size_t rank) {
    std::vector<unsigned> d(rank);
    for (size_t i = 0; i < rank; ++i)
      d[i] = i;
    return d;
  }

  std::string zeroFilled(const TensorTy &t, const Val &like,
                         const std::vector<unsigned> &likeDims) {
    std::string e = empty(t, like, likeDims);
    std::string z = fresh(), f = fresh();
    line(z + " = arith.constant " +
         (t.isFloat() ? std::string("0.0") : std::string("0")) + " : " +
         t.elem);
    line(f + " = linalg.fill ins(" + z + " : " + t.elem + ") outs(" + e +
         " : " + t.str() + ") -> " + t.str());
    return f;
  }

  Val pickValue(bool wantFloat) {
    std::vector<Val> c;
    for (const Val &v : pool)
      if (v.type.isFloat() == wantFloat)
        c.push_back(v);
    if (c.empty())
      return newArg(randomType(wantFloat ? mainElem : "i32"));
    return c[pick(c.size())];
  }

  void push(const std::string &name, const TensorTy &t) {
    pool.push_back({name, t});
  }

  /// One type-preserving float op on `v`; returns the new value.
  Val elementwise(const Val &v) {
    static const char *const binary[] = {"arith.addf",     "arith.subf",
                                         "arith.mulf",     "arith.maximumf",
                                         "arith.minimumf", "arith.divf"};
    static const char *const unary[] = {"math.exp",  "math.tanh", "math.absf",
                                        "math.sqrt", "math.log",  "math.erf",
                                        "arith.negf"};
    std::string r = fresh();
    switch (pick(3)) {
    case 0: {
      Val w = valueOfType(v.type);
      line(r + " = " + binary[pick(6)] + " " + v.name + ", " + w.name + " : " +
           v.type.str());
      break;
    }
    case 1:
      line(r + " = " + unary[pick(7)] + " " + v.name + " : " + v.type.str());
      break;
    default: {
      // linalg.generic, elementwise, with a two-op body.
      unsigned rank = v.type.shape.size();
      std::string id = affineMap(rank, rank);
      std::string e = empty(v.type, v, identityDims(rank));
      Val w = valueOfType(v.type);
      const std::string &el = v.type.elem;
      line(r + " = linalg.generic {indexing_maps = [" + id + ", " + id + ", " +
           id + "], iterator_types = " + iterators(rank, 0) + "} ins(" +
           v.name + ", " + w.name + " : " + v.type.str() + ", " + w.type.str() +
           ") outs(" + e + " : " + v.type.str() + ") {");
      line("^bb0(%in0: " + el + ", %in1: " + el + ", %out: " + el + "):");
      line("  %p = arith.mulf %in0, %in1 : " + el);
      line("  %q = math.tanh %p : " + el);
      line("  linalg.yield %q : " + el);
      line("} -> " + v.type.str());
      break;
    }
    }
    return {r, v.type};
  }

  void emitOp(int depth) {
    Val v = pickValue(/*wantFloat=*/!chance(0.1));
    const TensorTy &t = v.type;
    unsigned rank = t.shape.size();
    if (!t.isFloat()) {
      std::string r = fresh();
      if (chance(0.5)) {
        Val w = valueOfType(t);
        line(r + " = arith." + std::string(chance(0.5) ? "addi" : "muli") +
             " " + v.name + ", " + w.name + " : " + t.str());
        push(r, t);
      } else {
        TensorTy f = t;
        f.elem = mainElem;
        line(r + " = arith.sitofp " + v.name + " : " + t.str() + " to " +
             f.str());
        push(r, f);
      }
      return;
    }
    switch (pick(14)) {
    case 0:
    case 1:
      pool.push_back(elementwise(v));
      return;
    case 2: { // reduction over the last dimension
      if (rank == 0)
        return pool.push_back(elementwise(v));
      TensorTy rt{{t.shape.begin(), t.shape.end() - 1}, t.elem};
      std::string init = zeroFilled(rt, v, identityDims(rank - 1));
      std::string r = fresh();
      line(r + " = linalg.reduce ins(" + v.name + " : " + t.str() + ") outs(" +
           init + " : " + rt.str() + ") dimensions = [" +
           std::to_string(rank - 1) + "]");
      line("  (%in: " + t.elem + ", %acc: " + t.elem + ") {");
      line("    %s = arith.addf %in, %acc : " + t.elem);
      line("    linalg.yield %s : " + t.elem);
      line("  }");
      return push(r, rt);
    }
    case 3: { // matmul (static 2-D) or batch_matmul (static 3-D)
      if (!t.isStatic() || (rank != 2 && rank != 3))
        return pool.push_back(elementwise(v));
      int64_t n = 1 + pick(6);
      TensorTy bt = t, ct = t;
      bt.shape[rank - 2] = t.shape[rank - 1];
      bt.shape[rank - 1] = n;
      ct.shape[rank - 1] = n;
      Val b = valueOfType(bt);
      std::string init = zeroFilled(ct, v, identityDims(rank));
      std::string r = fresh();
      line(r + " = linalg." + (rank == 2 ? "matmul" : "batch_matmul") +
           " ins(" + v.name + ", " + b.name + " : " + t.str() + ", " +
           bt.str() + ") outs(" + init + " : " + ct.str() + ") -> " + ct.str());
      return push(r, ct);
    }
    case 4: { // transpose
      if (rank != 2)
        return pool.push_back(elementwise(v));
      TensorTy tt{{t.shape[1], t.shape[0]}, t.elem};
      std::string e = empty(tt, v, {1, 0});
      std::string r = fresh();
      line(r + " = linalg.transpose ins(" + v.name + " : " + t.str() +
           ") outs(" + e + " : " + tt.str() + ") permutation = [1, 0]");
      return push(r, tt);
    }
    case 5: { // softmax over the last dimension
      if (rank == 0)
        return pool.push_back(elementwise(v));
      std::string e = empty(t, v, identityDims(rank));
      std::string r = fresh();
      line(r + " = linalg.softmax dimension(" + std::to_string(rank - 1) +
           ") ins(" + v.name + " : " + t.str() + ") outs(" + e + " : " +
           t.str() + ") -> " + t.str());
      return push(r, t);
    }
    case 6: { // float conversion
      static const char *const floats[] = {"f32", "f16", "bf16", "f64"};
      TensorTy nt = t;
      nt.elem = floats[pick(4)];
      if (nt.elem == t.elem)
        return pool.push_back(elementwise(v));
      auto width = [](const std::string &e) {
        return e == "f64" ? 64 : e == "f32" ? 32 : 16;
      };
      std::string op;
      if (width(nt.elem) > width(t.elem))
        op = "arith.extf";
      else if (width(nt.elem) < width(t.elem))
        op = "arith.truncf";
      else
        return pool.push_back(elementwise(v)); // f16 <-> bf16
      std::string r = fresh();
      line(r + " = " + op + " " + v.name + " : " + t.str() + " to " + nt.str());
      return push(r, nt);
    }
    case 7: { // static slice or reshape
      if (!t.isStatic() || rank == 0)
        return pool.push_back(elementwise(v));
      std::string r = fresh();
      if (rank == 2 && chance(0.5)) {
        TensorTy ct{{t.shape[0] * t.shape[1]}, t.elem};
        line(r + " = tensor.collapse_shape " + v.name +
             " [[0, 1]] : " + t.str() + " into " + ct.str());
        return push(r, ct);
      }
      TensorTy st = t;
      std::string offsets, sizes, strides;
      for (unsigned i = 0; i < rank; ++i) {
        st.shape[i] = std::max<int64_t>(1, t.shape[i] / 2);
        offsets += (i ? ", " : "") + std::to_string(t.shape[i] - st.shape[i]);
        sizes += (i ? ", " : "") + std::to_string(st.shape[i]);
        strides += i ? ", 1" : "1";
      }
      line(r + " = tensor.extract_slice " + v.name + "[" + offsets + "] [" +
           sizes + "] [" + strides + "] : " + t.str() + " to " + st.str());
      return push(r, st);
    }
    case 8: { // tosa elementwise (f32/f16/bf16, rank >= 1)
      if (rank == 0 || t.elem == "f64")
        return pool.push_back(elementwise(v));
      static const char *const binary[] = {"tosa.add", "tosa.sub",
                                           "tosa.maximum", "tosa.minimum"};
      static const char *const unary[] = {"tosa.exp", "tosa.tanh", "tosa.abs",
                                          "tosa.sigmoid"};
      std::string r = fresh();
      if (chance(0.5)) {
        Val w = valueOfType(t);
        line(r + " = " + binary[pick(4)] + " " + v.name + ", " + w.name +
             " : (" + t.str() + ", " + t.str() + ") -> " + t.str());
      } else {
        line(r + " = " + unary[pick(4)] + " " + v.name + " : (" + t.str() +
             ") -> " + t.str());
      }
      return push(r, t);
    }
    case 9:
    case 10: { // scf.for with an iter_arg
      if (depth >= 2)
        return pool.push_back(elementwise(v));
      std::string lb = fresh(), ub = fresh(), st = fresh(), r = fresh();
      line(lb + " = arith.constant 0 : index");
      line(ub + " = arith.constant " + std::to_string(1 + pick(3)) +
           " : index");
      line(st + " = arith.constant 1 : index");
      std::string iv = fresh(), acc = fresh();
      line(r + " = scf.for " + iv + " = " + lb + " to " + ub + " step " + st +
           " iter_args(" + acc + " = " + v.name + ") -> (" + t.str() + ") {");
      nested(depth, {acc, t});
      line("}");
      return push(r, t);
    }
    case 11: { // scf.if on an i1 argument
      if (depth >= 2)
        return pool.push_back(elementwise(v));
      std::string cond = "%c" + std::to_string(counter++);
      // A scalar i1 argument (not a tensor): declared as such.
      scalarFlags.push_back(cond);
      std::string r = fresh();
      line(r + " = scf.if " + cond + " -> (" + t.str() + ") {");
      nested(depth, v);
      line("} else {");
      line("  scf.yield " + v.name + " : " + t.str());
      line("}");
      return push(r, t);
    }
    case 12: { // an op of an unregistered dialect (contexts allow them)
      std::string r = fresh();
      line(r + " = \"unknown.op\"(" + v.name + ") : (" + t.str() + ") -> " +
           t.str());
      return push(r, t);
    }
    default: { // a constant splat combined with v
      std::string c = fresh(), r = fresh();
      if (!t.isStatic())
        return pool.push_back(elementwise(v));
      line(c + " = arith.constant dense<" +
           floatLiteral(t.elem, 0.5 + pick(4)) + "> : " + t.str());
      line(r + " = arith.mulf " + v.name + ", " + c + " : " + t.str());
      return push(r, t);
    }
    }
  }

  /// The body of a region that yields a value of type `seed.type`; the
  /// caller closes the region.
  void nested(int depth, const Val &seed) {
    size_t saved = pool.size();
    std::string savedIndent = indent;
    indent += "  ";
    pool.push_back(seed);
    Val cur = seed;
    int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) {
      if (chance(0.3) && depth + 1 < 2) {
        emitOp(depth + 1);
        // Keep the value chain type-preserving: continue from seed.
      }
      cur = elementwise(cur);
      pool.push_back(cur);
    }
    line("scf.yield " + cur.name + " : " + cur.type.str());
    indent = savedIndent;
    pool.resize(saved);
  }

  /// amp markers on a random train step: mostly contract violations.
  void emitMarkers() {
    std::vector<Val> scalars;
    for (const Val &v : pool)
      if (v.type.shape.empty() && v.type.elem == "f32")
        scalars.push_back(v);
    if (!scalars.empty() && chance(0.7)) {
      std::string s = fresh();
      line(s + " = amp.loss_grad " + scalars[0].name + " : tensor<f32>");
      push(s, scalars[0].type);
    }
    for (const Val &a : std::vector<Val>(args)) {
      if (!a.type.isFloat() || !chance(0.5))
        continue;
      Val g = valueOfType(a.type);
      if (g.name == a.name)
        continue;
      std::string r = fresh();
      line(r + " = amp.grad " + g.name + ", " + a.name + " : " + a.type.str());
      push(r, a.type);
    }
  }

public:
  std::vector<std::string> scalarFlags;
};

} // namespace

std::string mlir::amp::robustness::generateRandomFunction(uint64_t seed) {
  FunctionGenerator gen(seed);
  std::string fn = gen.run();
  // Scalar i1 flags of scf.if become leading arguments.
  if (!gen.scalarFlags.empty()) {
    std::string flags;
    for (const std::string &f : gen.scalarFlags)
      flags += f + ": i1, ";
    size_t open = fn.find('(');
    fn.insert(open + 1, flags);
    // "(%c1: i1, )" when the function had no other arguments cannot happen:
    // there is always at least one tensor argument.
  }
  return "module {\n" + fn + "}\n";
}

namespace {

/// Text of a linear model with a quadratic loss and its analytic backward:
///   h_p = x @ W_p (+ b_p),  loss = sum_p sum_{b,n} 0.5 * c * h_p^2
///   dh_p = c * h_p * seed,  dW_p = x^T @ dh_p,  db_p = sum_b dh_p
/// (c a constant; every backward value is proportional to the seed, as the
/// contract requires), then the optimizer update of every parameter.
class StepGenerator {
public:
  StepGenerator(uint64_t seed, const TrainingStepOptions &options)
      : rng(seed), opts(options) {}

  std::string run() {
    batch = opts.staticShapes || !chance(0.2) ? int64_t(1 + pick(6)) : kDyn;
    features = 1 + pick(6);
    optimizer = opts.optimizer >= 0 ? opts.optimizer : int(pick(3));
    int layers = 1 + pick(3);
    for (int l = 0; l < layers; ++l) {
      int64_t n = 1 + pick(6);
      params.push_back({"%w" + std::to_string(l), {features, n}, l});
      if (chance(0.5))
        params.push_back({"%b" + std::to_string(l), {n}, l});
    }
    return emit();
  }

private:
  struct Param {
    std::string name;
    std::vector<int64_t> shape;
    int layer;
  };
  std::mt19937_64 rng;
  TrainingStepOptions opts;
  int64_t batch = 1, features = 1;
  int optimizer = 0;
  std::vector<Param> params;
  std::ostringstream os;
  int counter = 0;

  unsigned pick(size_t n) {
    return n <= 1 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }
  std::string fresh() { return "%t" + std::to_string(counter++); }
  static std::string ty(std::vector<int64_t> shape) {
    return TensorTy{std::move(shape), "f32"}.str();
  }
  void line(const std::string &s) { os << "  " << s << "\n"; }

  /// Zero-filled f32 tensor; a dynamic dimension is the batch size %nb.
  std::string zeros(const std::vector<int64_t> &shape) {
    std::string e = fresh(), f = fresh();
    bool dyn = std::count(shape.begin(), shape.end(), kDyn) > 0;
    line(e + " = tensor.empty(" + (dyn ? "%nb" : "") + ") : " + ty(shape));
    line(f + " = linalg.fill ins(%zero : f32) outs(" + e + " : " + ty(shape) +
         ") -> " + ty(shape));
    return f;
  }

  std::string emit() {
    // Arguments: params, optimizer state, pokes, input, label.
    std::vector<std::string> argDecls, stateNames;
    std::vector<std::vector<int64_t>> stateShapes;
    int arg = 0;
    std::vector<int> paramArg;
    for (size_t p = 0; p < params.size(); ++p) {
      paramArg.push_back(arg++);
      argDecls.push_back(params[p].name + ": " + ty(params[p].shape) +
                         " {amp.role = \"param\", amp_test.param = " +
                         std::to_string(p) + " : i64}");
    }
    int statesPerParam = optimizer == 0 ? 0 : 1;
    std::vector<int> stateArg;
    for (size_t p = 0; p < params.size(); ++p)
      for (int s = 0; s < statesPerParam; ++s) {
        stateArg.push_back(arg++);
        argDecls.push_back("%s" + std::to_string(p) + ": " +
                           ty(params[p].shape) + " {amp.role = \"opt_state\"}");
      }
    std::vector<int> pokeArg;
    if (opts.pokes)
      for (size_t p = 0; p < params.size(); ++p) {
        pokeArg.push_back(arg++);
        argDecls.push_back("%poke" + std::to_string(p) + ": " +
                           ty(params[p].shape) +
                           " {amp.role = \"opt_state\", amp_test.poke_of = " +
                           std::to_string(paramArg[p]) + " : i64}");
      }
    argDecls.push_back("%x: " + ty({batch, features}) +
                       " {amp.role = \"input\"}");
    argDecls.push_back("%y: " + TensorTy{{batch}, "i32"}.str() +
                       " {amp.role = \"label\"}");

    os << "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
       << "#row = affine_map<(d0, d1) -> (d1)>\n"
       << "#scalar2 = affine_map<(d0, d1) -> ()>\n"
       << "#id1 = affine_map<(d0) -> (d0)>\n"
       << "module {\nfunc.func @train_step(";
    for (size_t i = 0; i < argDecls.size(); ++i)
      os << (i ? ",\n    " : "") << argDecls[i];
    os << ")\n  -> (tensor<f32> {amp.role = \"loss\"}";
    for (size_t p = 0; p < params.size(); ++p)
      os << ", " << ty(params[p].shape) << " {amp.updates = " << paramArg[p]
         << " : i64}";
    for (size_t i = 0; i < stateArg.size(); ++i)
      os << ", " << ty(params[i].shape) << " {amp.updates = " << stateArg[i]
         << " : i64}";
    for (size_t i = 0; i < pokeArg.size(); ++i)
      os << ", " << ty(params[i].shape) << " {amp.updates = " << pokeArg[i]
         << " : i64}";
    os << ")\n  attributes {amp.train_step} {\n";

    line("%zero = arith.constant 0.0 : f32");
    line("%c = arith.constant 0.125 : f32");
    line("%half = arith.constant 0.5 : f32");
    if (batch == kDyn) {
      line("%i0 = arith.constant 0 : index");
      line("%nb = tensor.dim %x, %i0 : " + ty({batch, features}));
    }
    // Forward per layer.
    std::vector<std::string> h;
    std::vector<int64_t> widths;
    std::string loss = zeros({});
    for (size_t p = 0; p < params.size(); ++p) {
      if (params[p].shape.size() != 2)
        continue;
      int64_t n = params[p].shape[1];
      std::string mm = fresh();
      line(mm + " = linalg.matmul ins(%x, " + params[p].name + " : " +
           ty({batch, features}) + ", " + ty(params[p].shape) + ") outs(" +
           zeros({batch, n}) + " : " + ty({batch, n}) + ") -> " +
           ty({batch, n}));
      std::string hv = mm;
      if (p + 1 < params.size() && params[p + 1].shape.size() == 1) {
        hv = fresh();
        std::string e = zeros({batch, n});
        line(hv +
             " = linalg.generic {indexing_maps = [#id2, #row, #id2], "
             "iterator_types = [\"parallel\", \"parallel\"]} ins(" +
             mm + ", " + params[p + 1].name + " : " + ty({batch, n}) + ", " +
             ty({n}) + ") outs(" + e + " : " + ty({batch, n}) + ") {");
        line("^bb0(%a: f32, %b: f32, %o: f32):");
        line("  %s = arith.addf %a, %b : f32");
        line("  linalg.yield %s : f32");
        line("} -> " + ty({batch, n}));
      }
      std::string l = fresh();
      line(l +
           " = linalg.generic {indexing_maps = [#id2, #scalar2], "
           "iterator_types = [\"reduction\", \"reduction\"]} ins(" +
           hv + " : " + ty({batch, n}) + ") outs(" + loss +
           " : tensor<f32>) {");
      line("^bb0(%a: f32, %acc: f32):");
      line("  %sq = arith.mulf %a, %a : f32");
      line("  %hs = arith.mulf %sq, %half : f32");
      line("  %cs = arith.mulf %hs, %c : f32");
      line("  %r = arith.addf %cs, %acc : f32");
      line("  linalg.yield %r : f32");
      line("} -> tensor<f32>");
      loss = l;
      h.resize(p + 1);
      widths.resize(p + 1);
      h[p] = hv;
      widths[p] = n;
    }
    line("%seed = amp.loss_grad " + loss + " : tensor<f32>");
    // x^T once.
    std::string xt = fresh();
    std::string et = zeros({features, batch});
    line(xt + " = linalg.transpose ins(%x : " + ty({batch, features}) +
         ") outs(" + et + " : " + ty({features, batch}) +
         ") permutation = [1, 0]");
    std::vector<std::string> grads(params.size());
    std::string dh;
    for (size_t p = 0; p < params.size(); ++p) {
      if (params[p].shape.size() == 2) {
        int64_t n = widths[p];
        dh = fresh();
        std::string e = zeros({batch, n});
        line(dh +
             " = linalg.generic {indexing_maps = [#id2, #scalar2, #id2], "
             "iterator_types = [\"parallel\", \"parallel\"]} ins(" +
             h[p] + ", %seed : " + ty({batch, n}) + ", tensor<f32>) outs(" + e +
             " : " + ty({batch, n}) + ") {");
        line("^bb0(%a: f32, %s: f32, %o: f32):");
        line("  %m = arith.mulf %a, %s : f32");
        line("  %r = arith.mulf %m, %c : f32");
        line("  linalg.yield %r : f32");
        line("} -> " + ty({batch, n}));
        std::string dw = fresh();
        line(dw + " = linalg.matmul ins(" + xt + ", " + dh + " : " +
             ty({features, batch}) + ", " + ty({batch, n}) + ") outs(" +
             zeros(params[p].shape) + " : " + ty(params[p].shape) + ") -> " +
             ty(params[p].shape));
        grads[p] = dw;
      } else {
        int64_t n = params[p].shape[0];
        std::string db = fresh();
        std::string init = zeros({n});
        line(db +
             " = linalg.generic {indexing_maps = [#id2, #row], "
             "iterator_types = [\"reduction\", \"parallel\"]} ins(" +
             dh + " : " + ty({batch, n}) + ") outs(" + init + " : " + ty({n}) +
             ") {");
        line("^bb0(%a: f32, %acc: f32):");
        line("  %r = arith.addf %a, %acc : f32");
        line("  linalg.yield %r : f32");
        line("} -> " + ty({n}));
        grads[p] = db;
      }
    }
    // amp.grad (after the optional poke) and the optimizer.
    std::vector<std::string> newParams, newStates;
    for (size_t p = 0; p < params.size(); ++p) {
      std::string t = ty(params[p].shape);
      std::string raw = grads[p];
      if (opts.pokes) {
        // raw + poke * seed: the poke is a term of the backward (scaled by S
        // and unscaled with the gradient), so the contract accepts it; a
        // seed-free term would be a mix that it rejects.
        std::string seedValue = fresh(), seedTensor = fresh(), scaled = fresh(),
                    poked = fresh();
        line(seedValue + " = tensor.extract %seed[] : tensor<f32>");
        line(seedTensor + " = linalg.fill ins(" + seedValue + " : f32) outs(" +
             zeros(params[p].shape) + " : " + t + ") -> " + t);
        line(scaled + " = arith.mulf %poke" + std::to_string(p) + ", " +
             seedTensor + " : " + t);
        line(poked + " = arith.addf " + raw + ", " + scaled + " : " + t);
        raw = poked;
      }
      std::string g = fresh();
      line(g + " = amp.grad " + raw + ", " + params[p].name + " : " + t);
      newParams.push_back(fresh());
      std::string state = "%s" + std::to_string(p);
      std::string lr = "0.0625";
      if (optimizer == 0) {
        line(newParams.back() + " = arith.mulf " + g + ", " + lrSplat(t, lr) +
             " : " + t);
        std::string w = fresh();
        line(w + " = arith.subf " + params[p].name + ", " + newParams.back() +
             " : " + t);
        newParams.back() = w;
        continue;
      }
      std::string s = fresh();
      if (optimizer == 1) { // v' = 0.9 v + g; w' = w - lr v'
        std::string mv = fresh();
        line(mv + " = arith.mulf " + state + ", " + lrSplat(t, "0.9") + " : " +
             t);
        line(s + " = arith.addf " + mv + ", " + g + " : " + t);
        std::string step = fresh();
        line(step + " = arith.mulf " + s + ", " + lrSplat(t, lr) + " : " + t);
        line(newParams.back() + " = arith.subf " + params[p].name + ", " +
             step + " : " + t);
      } else { // s' = 0.9 s + 0.1 g^2; w' = w - lr g / (sqrt(s') + 1e-3)
        std::string g2 = fresh(), a = fresh(), b = fresh(), rt = fresh(),
                    den = fresh(), q = fresh(), step = fresh();
        line(g2 + " = arith.mulf " + g + ", " + g + " : " + t);
        line(a + " = arith.mulf " + state + ", " + lrSplat(t, "0.9") + " : " +
             t);
        line(b + " = arith.mulf " + g2 + ", " + lrSplat(t, "0.1") + " : " + t);
        line(s + " = arith.addf " + a + ", " + b + " : " + t);
        line(rt + " = math.sqrt " + s + " : " + t);
        line(den + " = arith.addf " + rt + ", " + lrSplat(t, "0.001") + " : " +
             t);
        line(q + " = arith.divf " + g + ", " + den + " : " + t);
        line(step + " = arith.mulf " + q + ", " + lrSplat(t, lr) + " : " + t);
        line(newParams.back() + " = arith.subf " + params[p].name + ", " +
             step + " : " + t);
      }
      newStates.push_back(s);
    }
    std::string ret = "return " + loss, types = "tensor<f32>";
    for (size_t p = 0; p < params.size(); ++p) {
      ret += ", " + newParams[p];
      types += ", " + ty(params[p].shape);
    }
    for (size_t i = 0; i < newStates.size(); ++i) {
      ret += ", " + newStates[i];
      types += ", " + ty(params[i].shape);
    }
    if (opts.pokes)
      for (size_t p = 0; p < params.size(); ++p) {
        ret += ", %poke" + std::to_string(p);
        types += ", " + ty(params[p].shape);
      }
    line(ret + " : " + types);
    os << "}\n}\n";
    return os.str();
  }

  /// A splat constant of tensor type `t` (static shapes only: parameters).
  std::string lrSplat(const std::string &t, const std::string &value) {
    std::string c = fresh();
    line(c + " = arith.constant dense<" + value + "> : " + t);
    return c;
  }
};

} // namespace

std::string mlir::amp::robustness::generateTrainingStep(
    uint64_t seed, const TrainingStepOptions &options) {
  return StepGenerator(seed, options).run();
}
