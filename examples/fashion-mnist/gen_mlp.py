#!/usr/bin/env python3
"""Writes the Fashion-MNIST MLP training step and eval step of mlp.mlir
(784-256-128-10, ReLU, softmax cross-entropy, SGD with momentum) for any
static batch size: the same ops in the same order, so that with --batch=128
it trains bit for bit like the hand-written mlp.mlir
(test/Distributed/Execution/gen-mlp.mlir checks it). The data-parallel
tests compare a run of N ranks with batch B against one process with batch
N x B (docs/distributed.md); --lr changes the learning rate (default 0.05,
mlp.mlir's). Usage:
  python3 examples/fashion-mnist/gen_mlp.py --batch=256 [--lr=0.01] [-o FILE]"""
import argparse
import sys

IN, H1, H2, C = 784, 256, 128, 10


def t(*shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


class Writer:
    def __init__(self):
        self.lines, self.empties = [], set()

    def w(self, s=""):
        self.lines.append(s)

    def empty(self, *shape):
        """%e_<shape>, defined before its first use."""
        name = "e_" + "x".join(map(str, shape))
        if name not in self.empties:
            self.empties.add(name)
            self.w(f"  %{name} = tensor.empty() : {t(*shape)}")
        return "%" + name

    def fill(self, name, value, *shape):
        e = self.empty(*shape)
        self.w(f"  %{name} = linalg.fill ins({value} : f32) outs({e} : {t(*shape)}) -> {t(*shape)}")

    def generic(self, name, maps, iters, ins, outs, args, body, out_shape):
        """ins: [(value, shape)], outs: the init value; body: lines."""
        values = ", ".join(v for v, _ in ins)
        types = ", ".join(t(*s) if s else "tensor<f32>" for _, s in ins)
        it = ", ".join(f'"{i}"' for i in iters)
        res = t(*out_shape) if out_shape else "tensor<f32>"
        self.w(f"  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{it}]}}")
        self.w(f"      ins({values} : {types}) outs({outs} : {res}) {{")
        self.w(f"  ^bb0({args}):")
        for line in body:
            self.w("    " + line)
        self.w(f"  }} -> {res}")

    def matmul(self, name, a, ash, b, bsh, acc, out):
        self.w(f"  %{name} = linalg.matmul ins({a}, {b} : {t(*ash)}, {t(*bsh)})")
        self.w(f"                       outs({acc} : {t(*out)}) -> {t(*out)}")

    def contraction(self, name, kind, a, ash, b, bsh, out):
        self.fill(name.replace("_raw", "") + "_init", "%zero", *out)
        maps = {"tn": "#tn_a, #tn_b, #c_ij", "nt": "#nt_a, #nt_b, #c_ij"}[kind]
        self.generic(name, maps, ["parallel", "parallel", "reduction"],
                     [(a, ash), (b, bsh)], "%" + name.replace("_raw", "") + "_init",
                     "%a: f32, %b: f32, %acc: f32",
                     ["%p = arith.mulf %a, %b : f32", "%r = arith.addf %p, %acc : f32",
                      "linalg.yield %r : f32"], out)


def bias(w, name, src, batch, width, layer, relu=False):
    body = ["%r = arith.addf %a, %b : f32"]
    if relu:
        body = ["%c0 = arith.constant 0.0 : f32", "%z = arith.addf %a, %b : f32",
                "%r = arith.maximumf %z, %c0 : f32"]
    w.generic(name, "#id2, #cols, #id2", ["parallel", "parallel"],
              [(src, (batch, width)), (f"%b{layer}", (width,))],
              w.empty(batch, width), "%a: f32, %b: f32, %o: f32",
              body + ["linalg.yield %r : f32"], (batch, width))


def relu(w, name, src, batch, width):
    w.generic(name, "#id2, #id2", ["parallel", "parallel"], [(src, (batch, width))],
              w.empty(batch, width), "%a: f32, %o: f32",
              ["%c0 = arith.constant 0.0 : f32", "%r = arith.maximumf %a, %c0 : f32",
               "linalg.yield %r : f32"], (batch, width))


def relu_backward(w, name, grad, z, batch, width):
    w.generic(name, "#id2, #id2, #id2", ["parallel", "parallel"],
              [(grad, (batch, width)), (z, (batch, width))], w.empty(batch, width),
              "%g: f32, %z: f32, %o: f32",
              ["%c0 = arith.constant 0.0 : f32", "%pos = arith.cmpf ogt, %z, %c0 : f32",
               "%r = arith.select %pos, %g, %c0 : f32", "linalg.yield %r : f32"],
              (batch, width))


def column_sum(w, name, src, batch, width):
    w.fill(name.replace("_raw", "_init"), "%zero", width)
    w.generic(name, "#id2, #cols", ["reduction", "parallel"], [(src, (batch, width))],
              "%" + name.replace("_raw", "_init"), "%a: f32, %acc: f32",
              ["%r = arith.addf %a, %acc : f32", "linalg.yield %r : f32"], (width,))


def sgd(w, p, shape, lr):
    maps = "#id2, #id2, #id2" if len(shape) == 2 else "#id1, #id1, #id1"
    iters = ["parallel"] * len(shape)
    w.generic(f"v_{p}_new", maps, iters, [(f"%v_{p}", shape), (f"%g{p}", shape)],
              w.empty(*shape), "%v: f32, %g: f32, %o: f32",
              ["%c_mu = arith.constant 0.9 : f32", "%mv = arith.mulf %c_mu, %v : f32",
               "%r = arith.addf %mv, %g : f32", "linalg.yield %r : f32"], shape)
    w.generic(f"{p}_new", maps, iters, [(f"%{p}", shape), (f"%v_{p}_new", shape)],
              w.empty(*shape), "%w: f32, %v: f32, %o: f32",
              [f"%c_lr = arith.constant {lr!r} : f32", "%lv = arith.mulf %c_lr, %v : f32",
               "%r = arith.subf %w, %lv : f32", "linalg.yield %r : f32"], shape)


PARAMS = [("w1", (IN, H1)), ("b1", (H1,)), ("w2", (H1, H2)), ("b2", (H2,)),
          ("w3", (H2, C)), ("b3", (C,))]


def train_step(w, B, lr):
    inv_b = 1.0 / B
    args = [f"    %{p}: {t(*s)} {{amp.role = \"param\"}}" for p, s in PARAMS]
    args += [f"    %v_{p}: {t(*s)} {{amp.role = \"opt_state\"}}" for p, s in PARAMS]
    args += [f"    %x: {t(B, IN)} {{amp.role = \"input\"}}",
             f"    %y: tensor<{B}xi32> {{amp.role = \"label\"}}"]
    results = ["tensor<f32> {amp.role = \"loss\"}"]
    results += [f"{t(*s)} {{amp.updates = {i} : i64}}" for i, (_, s) in enumerate(PARAMS + PARAMS)]
    w.w("func.func @train_step(")
    w.w(",\n".join(args) + ")")
    w.w("  -> (" + ",\n      ".join(results) + ")")
    w.w("  attributes {amp.train_step} {")
    w.w("  %zero = arith.constant 0.0 : f32")
    w.w("  %neg_inf = arith.constant 0xFF800000 : f32")
    # Forward.
    w.fill("acc1", "%zero", B, H1)
    w.matmul("xw1", "%x", (B, IN), "%w1", (IN, H1), "%acc1", (B, H1))
    bias(w, "z1", "%xw1", B, H1, 1)
    relu(w, "h1", "%z1", B, H1)
    w.fill("acc2", "%zero", B, H2)
    w.matmul("h1w2", "%h1", (B, H1), "%w2", (H1, H2), "%acc2", (B, H2))
    bias(w, "z2", "%h1w2", B, H2, 2)
    relu(w, "h2", "%z2", B, H2)
    w.fill("acc3", "%zero", B, C)
    w.matmul("h2w3", "%h2", (B, H2), "%w3", (H2, C), "%acc3", (B, C))
    bias(w, "z3", "%h2w3", B, C, 3)
    # Loss: stable softmax cross-entropy, mean over the batch.
    w.fill("max_init", "%neg_inf", B)
    w.generic("m", "#id2, #rows", ["parallel", "reduction"], [("%z3", (B, C))], "%max_init",
              "%a: f32, %acc: f32", ["%r = arith.maximumf %a, %acc : f32", "linalg.yield %r : f32"], (B,))
    w.generic("ez", "#id2, #rows, #id2", ["parallel", "parallel"], [("%z3", (B, C)), ("%m", (B,))],
              w.empty(B, C), "%a: f32, %mx: f32, %o: f32",
              ["%d = arith.subf %a, %mx : f32", "%r = math.exp %d : f32", "linalg.yield %r : f32"], (B, C))
    w.fill("sum_init", "%zero", B)
    w.generic("s", "#id2, #rows", ["parallel", "reduction"], [("%ez", (B, C))], "%sum_init",
              "%a: f32, %acc: f32", ["%r = arith.addf %a, %acc : f32", "linalg.yield %r : f32"], (B,))
    w.w(f"  %onehot = linalg.generic {{indexing_maps = [#rows, #id2], iterator_types = [\"parallel\", \"parallel\"]}}")
    w.w(f"      ins(%y : tensor<{B}xi32>) outs({w.empty(B, C)} : {t(B, C)}) {{")
    w.w("  ^bb0(%lbl: i32, %o: f32):")
    for line in ["%c0 = arith.constant 0.0 : f32", "%one = arith.constant 1.0 : f32",
                 "%j = linalg.index 1 : index", "%lbl_idx = arith.index_cast %lbl : i32 to index",
                 "%eq = arith.cmpi eq, %j, %lbl_idx : index", "%r = arith.select %eq, %one, %c0 : f32",
                 "linalg.yield %r : f32"]:
        w.w("    " + line)
    w.w(f"  }} -> {t(B, C)}")
    w.fill("zy_init", "%zero", B)
    w.generic("zy", "#id2, #id2, #rows", ["parallel", "reduction"], [("%z3", (B, C)), ("%onehot", (B, C))],
              "%zy_init", "%a: f32, %oh: f32, %acc: f32",
              ["%p = arith.mulf %a, %oh : f32", "%r = arith.addf %p, %acc : f32", "linalg.yield %r : f32"], (B,))
    w.w("  %e_0d = tensor.empty() : tensor<f32>")
    w.w("  %loss_init = linalg.fill ins(%zero : f32) outs(%e_0d : tensor<f32>) -> tensor<f32>")
    w.generic("loss", "#id1, #id1, #id1, #scalar1", ["reduction"], [("%m", (B,)), ("%s", (B,)), ("%zy", (B,))],
              "%loss_init", "%mx: f32, %sm: f32, %zt: f32, %acc: f32",
              [f"%c_inv_b = arith.constant {inv_b!r} : f32", "%ls = math.log %sm : f32",
               "%lse = arith.addf %mx, %ls : f32", "%nll = arith.subf %lse, %zt : f32",
               "%nll_b = arith.mulf %nll, %c_inv_b : f32", "%r = arith.addf %nll_b, %acc : f32",
               "linalg.yield %r : f32"], ())
    w.w("  %seed = amp.loss_grad %loss : tensor<f32>")
    # Backward.
    w.generic("dz3", "#id2, #rows, #id2, #scalar2, #id2", ["parallel", "parallel"],
              [("%ez", (B, C)), ("%s", (B,)), ("%onehot", (B, C)), ("%seed", ())], w.empty(B, C),
              "%a: f32, %sm: f32, %oh: f32, %sd: f32, %o: f32",
              [f"%c_inv_b = arith.constant {inv_b!r} : f32", "%p = arith.divf %a, %sm : f32",
               "%d = arith.subf %p, %oh : f32", "%scale = arith.mulf %sd, %c_inv_b : f32",
               "%r = arith.mulf %d, %scale : f32", "linalg.yield %r : f32"], (B, C))
    w.contraction("gw3_raw", "tn", "%h2", (B, H2), "%dz3", (B, C), (H2, C))
    column_sum(w, "gb3_raw", "%dz3", B, C)
    w.contraction("dh2", "nt", "%dz3", (B, C), "%w3", (H2, C), (B, H2))
    relu_backward(w, "dz2", "%dh2", "%z2", B, H2)
    w.contraction("gw2_raw", "tn", "%h1", (B, H1), "%dz2", (B, H2), (H1, H2))
    column_sum(w, "gb2_raw", "%dz2", B, H2)
    w.contraction("dh1", "nt", "%dz2", (B, H2), "%w2", (H1, H2), (B, H1))
    relu_backward(w, "dz1", "%dh1", "%z1", B, H1)
    w.contraction("gw1_raw", "tn", "%x", (B, IN), "%dz1", (B, H1), (IN, H1))
    column_sum(w, "gb1_raw", "%dz1", B, H1)
    for p, s in PARAMS:
        w.w(f"  %g{p} = amp.grad %g{p}_raw, %{p} : {t(*s)}")
    for p, s in PARAMS:
        sgd(w, p, s, lr)
    names = ["%loss"] + [f"%{p}_new" for p, _ in PARAMS] + [f"%v_{p}_new" for p, _ in PARAMS]
    types = ["tensor<f32>"] + [t(*s) for _, s in PARAMS + PARAMS]
    w.w(f"  return {', '.join(names)}")
    w.w(f"    : {', '.join(types)}")
    w.w("}")


def eval_step(w, B):
    w.empties = set()
    args = [f"    %{p}: {t(*s)} {{amp.role = \"param\"}}" for p, s in PARAMS]
    args.append(f"    %x: {t(B, IN)} {{amp.role = \"input\"}}")
    w.w("func.func @eval_step(")
    w.w(",\n".join(args) + ")")
    w.w(f"  -> ({t(B, C)} {{amp.role = \"logits\"}})")
    w.w("  attributes {amp.eval_step} {")
    w.w("  %zero = arith.constant 0.0 : f32")
    w.fill("acc1", "%zero", B, H1)
    w.matmul("xw1", "%x", (B, IN), "%w1", (IN, H1), "%acc1", (B, H1))
    bias(w, "h1", "%xw1", B, H1, 1, relu=True)
    w.fill("acc2", "%zero", B, H2)
    w.matmul("h1w2", "%h1", (B, H1), "%w2", (H1, H2), "%acc2", (B, H2))
    bias(w, "h2", "%h1w2", B, H2, 2, relu=True)
    w.fill("acc3", "%zero", B, C)
    w.matmul("h2w3", "%h2", (B, H2), "%w3", (H2, C), "%acc3", (B, C))
    bias(w, "logits", "%h2w3", B, C, 3)
    w.w(f"  return %logits : {t(B, C)}")
    w.w("}")


MAPS = """#id1     = affine_map<(d0) -> (d0)>
#id2     = affine_map<(d0, d1) -> (d0, d1)>
#rows    = affine_map<(d0, d1) -> (d0)>
#cols    = affine_map<(d0, d1) -> (d1)>
#scalar1 = affine_map<(d0) -> ()>
#scalar2 = affine_map<(d0, d1) -> ()>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#tn_b = affine_map<(i, j, k) -> (k, j)>
#nt_a = affine_map<(i, j, k) -> (i, k)>
#nt_b = affine_map<(i, j, k) -> (j, k)>
#c_ij = affine_map<(i, j, k) -> (i, j)>"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("-o", dest="output", default="-")
    args = parser.parse_args()
    if args.batch < 1:
        sys.exit("gen_mlp.py: --batch must be >= 1")
    w = Writer()
    w.w(f"// Generated by examples/fashion-mnist/gen_mlp.py --batch={args.batch} --lr={args.lr!r}:")
    w.w("// the MLP of mlp.mlir (784-256-128-10) at this batch size and learning rate.")
    w.w(MAPS)
    w.w("module {")
    train_step(w, args.batch, args.lr)
    eval_step(w, args.batch)
    w.w("}")
    text = "\n".join(w.lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
