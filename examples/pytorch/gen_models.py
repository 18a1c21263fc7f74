#!/usr/bin/python3
"""Builds two PyTorch models for Fashion-MNIST and writes their forward
functions as MLIR in the linalg-on-tensors form torch-mlir exports, with the
PyTorch models' initial weights in the file (README.md next to this file):

  cnn.mlir          conv3x3(1->C1, pad 1) + bias, batch norm (eval form),
                    ReLU, max-pool 2x2, conv3x3(C1->C2, pad 1) + bias, batch
                    norm, ReLU, max-pool 2x2, flatten, linear -> 128,
                    ReLU, linear -> 10
  transformer.mlir  the 28 image rows as tokens: linear 28 -> D plus a
                    learned position embedding, one pre-norm encoder block
                    (layer norm, H-head self-attention with softmax, output
                    projection, residual; layer norm, linear D -> F, GELU,
                    linear F -> D, residual), mean over the tokens, linear
                    D -> 10

Usage (Debian's PyTorch: /usr/bin/python3 with python3-torch):
  gen_models.py [-o DIR] [--data-dir D]  write cnn.mlir, transformer.mlir
                                         (the CNN's BatchNorm statistics are
                                         calibrated on Fashion-MNIST, D)
  gen_models.py --oracle MODEL FILE      write PyTorch's loss and gradients
                                         for a fixed batch on the weights of
                                         DIR/MODEL.mlir (test oracle; no
                                         data set needed)

The MLIR follows torch-mlir's conventions: weights are `arith.constant
dense_resource<key>` with the little-endian f32 bytes, after a 4-byte
alignment header, in the `{-# dialect_resources #-}` section (the key is the
PyTorch state_dict name, so `conv1.weight` in the IR is `conv1.weight` in
torch); convolutions are `tensor.pad` + `linalg.conv_2d_nchw_fchw` into the
broadcast bias; linear layers are `linalg.matmul` against the
`linalg.transpose`d weight (PyTorch's out x in layout) plus a broadcast
bias; batch norm in eval form is one elementwise generic over the constant
running statistics with `math.rsqrt`; reshapes are `tensor.collapse_shape`
/ `tensor.expand_shape`.
"""
import argparse
import gzip
import math
import os
import re
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

# Shapes (static, as torch-mlir exports them for a fixed example input).
CNN_BATCH, C1, C2, HIDDEN = 16, 8, 16, 128
TF_BATCH, T, P, D, H, FF = 64, 28, 28, 32, 2, 64
CLASSES = 10
BN_EPS = 1e-5
LN_EPS = 1e-5


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, C1, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(C1, eps=BN_EPS)
        self.conv2 = nn.Conv2d(C1, C2, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(C2, eps=BN_EPS)
        self.fc1 = nn.Linear(C2 * 7 * 7, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, CLASSES)

        # He initialization (kaiming_normal_, fan-in, ReLU gain) for the
        # layers before a ReLU: PyTorch's default (kaiming_uniform_ with
        # a = sqrt(5)) is 1/sqrt(3) of it and learns slower in one epoch.
        for layer in (self.conv1, self.conv2, self.fc1):
            nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(P, D)
        self.pos = nn.Parameter(0.02 * torch.randn(T, D))
        self.ln1 = nn.LayerNorm(D, eps=LN_EPS)
        self.q = nn.Linear(D, D)
        self.k = nn.Linear(D, D)
        self.v = nn.Linear(D, D)
        self.proj = nn.Linear(D, D)
        self.ln2 = nn.LayerNorm(D, eps=LN_EPS)
        self.fc1 = nn.Linear(D, FF)
        self.fc2 = nn.Linear(FF, D)
        self.head = nn.Linear(D, CLASSES)

    def forward(self, x):
        b = x.shape[0]
        h = self.embed(x) + self.pos
        a = self.ln1(h)

        def heads(t):
            return t.view(b, T, H, D // H).transpose(1, 2)

        q, k, v = heads(self.q(a)), heads(self.k(a)), heads(self.v(a))
        s = q @ k.transpose(-2, -1) / math.sqrt(D // H)
        o = (torch.softmax(s, dim=-1) @ v).transpose(1, 2).reshape(b, T, D)
        h = h + self.proj(o)
        h = h + self.fc2(F.gelu(self.fc1(self.ln2(h))))
        return self.head(h.mean(dim=1))


DATA_DIR = "/usr/share/datasets/fashion-mnist"  # Debian's IDX files
CALIBRATION_IMAGES = 2000


def load_images(data_dir, count):
    """The first `count` Fashion-MNIST training images (file order), pixels
    / 255 as amp-run reads them, as a count x 1 x 28 x 28 f32 tensor."""
    with gzip.open(os.path.join(data_dir, "train-images-idx3-ubyte.gz")) as f:
        magic, n, rows, cols = struct.unpack(">IIII", f.read(16))
        if magic != 2051 or rows != 28 or cols != 28:
            sys.exit(f"gen_models.py: {data_dir}: not a 28x28 IDX image file")
        count = min(count, n)
        data = f.read(count * 28 * 28)
    pixels = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    return pixels.to(torch.float32).div(255.0).reshape(count, 1, 28, 28)


def make_model(name, data_dir=DATA_DIR):
    """The model with its initial weights (seeded: the same every run). The
    CNN's BatchNorm running statistics are calibrated, as after a PyTorch
    `model.train()` pass with no gradient: the cumulative mean and (unbiased)
    variance of each channel over the first CALIBRATION_IMAGES training
    images; the eval-form batch norm then normalizes what the initial
    convolutions produce (the weights stay PyTorch's initial ones)."""
    torch.manual_seed(0)
    model = CNN() if name == "cnn" else Transformer()
    if name == "cnn":
        images = load_images(data_dir, CALIBRATION_IMAGES)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.momentum = None  # cumulative average over the batches
        model.train()
        with torch.no_grad():
            for batch in images.split(500):
                model(batch)
    return model.eval()


def read_weights(model, path):
    """Loads the dense_resource blobs of the generated `path` into `model`
    (keys are state_dict names): the oracle runs the model of the file."""
    with open(path) as f:
        text = f.read()
    blobs = dict(re.findall(r'^\s*([\w.]+): "0x04000000([0-9A-F]*)"', text,
                            re.MULTILINE))
    state = model.state_dict()
    for key, value in state.items():
        if key.endswith("num_batches_tracked"):
            continue
        if key not in blobs:
            sys.exit(f"gen_models.py: {path} has no blob for {key}")
        data = torch.frombuffer(bytearray(bytes.fromhex(blobs[key])),
                                dtype=torch.float32)
        state[key] = data.reshape(value.shape).clone()
    model.load_state_dict(state)
    return model.eval()


def input_shape(name):
    return (CNN_BATCH, 1, 28, 28) if name == "cnn" else (TF_BATCH, T, P)


# ---------------------------------------------------------------- emitter


def ty(shape):
    return "tensor<" + "".join(f"{s}x" for s in shape) + "f32>"


def f32(v):
    """An f32 constant's text that parses back to the same float."""
    return repr(float(torch.tensor(v, dtype=torch.float32)))


class Emitter:
    """Writes one function in torch-mlir's linalg-on-tensors form."""

    def __init__(self, model):
        self.lines = []
        self.count = 0
        self.state = {k: v.detach() for k, v in model.state_dict().items()}
        self.blobs = {}
        self.maps = {}
        self.notes = []

    def w(self, line):
        self.lines.append("  " + line)

    def fresh(self, hint):
        self.count += 1
        return f"%{hint}{self.count}"

    def amap(self, dims, results):
        text = f"affine_map<({', '.join(f'd{i}' for i in range(dims))}) -> ({', '.join(results)})>"
        if text not in self.maps:
            self.maps[text] = f"#map{len(self.maps)}"
        return self.maps[text]

    def identity(self, rank):
        return self.amap(rank, [f"d{i}" for i in range(rank)])

    def weight(self, key):
        """arith.constant dense_resource<key> holding state_dict[key]."""
        t = self.state[key].to(torch.float32).contiguous()
        self.blobs[key] = t
        v = self.fresh(key.replace(".", "_").replace("running_", "r") + "_")
        self.w(f"{v} = arith.constant dense_resource<{key}> : {ty(t.shape)}")
        return v, tuple(t.shape)

    def scalar(self, value):
        v = self.fresh("cst")
        self.w(f"{v} = arith.constant {f32(value)} : f32")
        return v

    def empty(self, shape):
        v = self.fresh("empty")
        self.w(f"{v} = tensor.empty() : {ty(shape)}")
        return v

    def fill(self, value, shape):
        c = self.scalar(value)
        e = self.empty(shape)
        v = self.fresh("fill")
        self.w(f"{v} = linalg.fill ins({c} : f32) outs({e} : {ty(shape)}) -> {ty(shape)}")
        return v

    def scalar_text(self, text):
        v = self.fresh("cst")
        self.w(f"{v} = arith.constant {text} : f32")
        return v

    def generic(self, ins, shape, maps, iters, body, init=None, result="%r",
                hint="g"):
        """A linalg.generic over `ins` ((value, shape) pairs) into `init` (or
        a tensor.empty of `shape`); `body` lists the body's lines, with %in0,
        %in1, ... and %out the block arguments, and yields `result`."""
        out = init if init is not None else self.empty(shape)
        v = self.fresh(hint)
        iters_text = ", ".join(f'"{i}"' for i in iters)
        ins_text = ", ".join(x for x, _ in ins)
        ins_types = ", ".join(ty(s) for _, s in ins)
        args = "".join(f"%in{i}: f32, " for i in range(len(ins)))
        self.w(f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
               f"iterator_types = [{iters_text}]}} ins({ins_text} : {ins_types}) "
               f"outs({out} : {ty(shape)}) {{")
        self.w(f"^bb0({args}%out: f32):")
        for line in body:
            self.w("  " + line)
        self.w(f"  linalg.yield {result} : f32")
        self.w(f"}} -> {ty(shape)}")
        return v

    def elementwise(self, ins, shape, body, hint="g"):
        rank = len(shape)
        maps = [self.identity(rank)] * (len(ins) + 1)
        return self.generic(ins, shape, maps, ["parallel"] * rank, body,
                            hint=hint)

    def reduce_last(self, x, shape, combiner, init):
        """Reduces the last dimension of `x` (an add or a max reduction)."""
        rank = len(shape)
        out_shape = shape[:-1]
        start = self.fill(init, out_shape) if init != "-inf" else self.fill_text(
            "0xFF800000", out_shape)
        return self.generic(
            [(x, shape)], out_shape,
            [self.identity(rank), self.amap(rank, [f"d{i}" for i in range(rank - 1)])],
            ["parallel"] * (rank - 1) + ["reduction"],
            [f"%r = {combiner} %in0, %out : f32"], init=start, hint="red")

    def fill_text(self, text, shape):
        c = self.scalar_text(text)
        e = self.empty(shape)
        v = self.fresh("fill")
        self.w(f"{v} = linalg.fill ins({c} : f32) outs({e} : {ty(shape)}) -> {ty(shape)}")
        return v

    # ---- layers, as torch-mlir lowers the aten ops

    def conv3x3(self, x, shape, prefix):
        """aten.convolution, padding 1: tensor.pad, then the convolution
        accumulating into the broadcast bias."""
        w, wshape = self.weight(prefix + ".weight")
        b, _ = self.weight(prefix + ".bias")
        n, c, h, wd = shape
        zero = self.scalar(0.0)
        padded_shape = (n, c, h + 2, wd + 2)
        padded = self.fresh("padded")
        self.w(f"{padded} = tensor.pad {x} low[0, 0, 1, 1] high[0, 0, 1, 1] {{")
        self.w("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        self.w(f"  tensor.yield {zero} : f32")
        self.w(f"}} : {ty(shape)} to {ty(padded_shape)}")
        out_shape = (n, wshape[0], h, wd)
        init = self.generic([(b, (wshape[0],))], out_shape,
                            [self.amap(4, ["d1"]), self.identity(4)],
                            ["parallel"] * 4, [], result="%in0", hint="bias")
        v = self.fresh("conv")
        self.w(f"{v} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, "
               f"strides = dense<1> : vector<2xi64>}} ins({padded}, {w} : "
               f"{ty(padded_shape)}, {ty(wshape)}) outs({init} : {ty(out_shape)}) "
               f"-> {ty(out_shape)}")
        return v, out_shape

    def batch_norm_eval(self, x, shape, prefix):
        """aten.batch_norm in eval mode: one generic over the running
        statistics (constants) and the affine weight and bias."""
        mean, _ = self.weight(prefix + ".running_mean")
        var, _ = self.weight(prefix + ".running_var")
        gamma, _ = self.weight(prefix + ".weight")
        beta, _ = self.weight(prefix + ".bias")
        ch = (shape[1],)
        chan = self.amap(4, ["d1"])
        ident = self.identity(4)
        return self.generic(
            [(x, shape), (mean, ch), (var, ch), (gamma, ch), (beta, ch)], shape,
            [ident, chan, chan, chan, chan, ident], ["parallel"] * 4,
            ["%d = arith.subf %in0, %in1 : f32",
             f"%eps = arith.constant {f32(BN_EPS)} : f32",
             "%ve = arith.addf %in2, %eps : f32",
             "%rs = math.rsqrt %ve : f32",
             "%nrm = arith.mulf %d, %rs : f32",
             "%s = arith.mulf %nrm, %in3 : f32",
             "%r = arith.addf %s, %in4 : f32"], hint="bn")

    def relu(self, x, shape):
        return self.elementwise(
            [(x, shape)], shape,
            ["%zero = arith.constant 0.0 : f32",
             "%pos = arith.cmpf ugt, %in0, %zero : f32",
             "%r = arith.select %pos, %in0, %zero : f32"], hint="relu")

    def max_pool2(self, x, shape):
        n, c, h, wd = shape
        out_shape = (n, c, h // 2, wd // 2)
        init = self.fill_text("0xFF800000", out_shape)
        window = self.empty((2, 2))
        v = self.fresh("pool")
        self.w(f"{v} = linalg.pooling_nchw_max {{dilations = dense<1> : vector<2xi64>, "
               f"strides = dense<2> : vector<2xi64>}} ins({x}, {window} : {ty(shape)}, "
               f"{ty((2, 2))}) outs({init} : {ty(out_shape)}) -> {ty(out_shape)}")
        return v, out_shape

    def reshape(self, x, shape, groups, new_shape):
        """tensor.collapse_shape or tensor.expand_shape with `groups`."""
        v = self.fresh("view")
        assoc = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        if len(new_shape) < len(shape):
            self.w(f"{v} = tensor.collapse_shape {x} {assoc} : {ty(shape)} into {ty(new_shape)}")
        else:
            self.w(f"{v} = tensor.expand_shape {x} {assoc} output_shape "
                   f"[{', '.join(map(str, new_shape))}] : {ty(shape)} into {ty(new_shape)}")
        return v

    def transpose(self, x, shape, perm):
        new_shape = tuple(shape[p] for p in perm)
        e = self.empty(new_shape)
        v = self.fresh("transposed")
        self.w(f"{v} = linalg.transpose ins({x} : {ty(shape)}) outs({e} : {ty(new_shape)}) "
               f"permutation = [{', '.join(map(str, perm))}]")
        return v, new_shape

    def linear(self, x, shape, prefix):
        """aten.linear: the matmul with the transposed weight, then the
        broadcast bias."""
        w, wshape = self.weight(prefix + ".weight")
        b, _ = self.weight(prefix + ".bias")
        wt, wt_shape = self.transpose(w, wshape, [1, 0])
        out_shape = (shape[0], wshape[0])
        acc = self.fill(0.0, out_shape)
        mm = self.fresh("mm")
        self.w(f"{mm} = linalg.matmul ins({x}, {wt} : {ty(shape)}, {ty(wt_shape)}) "
               f"outs({acc} : {ty(out_shape)}) -> {ty(out_shape)}")
        y = self.generic([(mm, out_shape), (b, (wshape[0],))], out_shape,
                         [self.identity(2), self.amap(2, ["d1"]), self.identity(2)],
                         ["parallel"] * 2, ["%r = arith.addf %in0, %in1 : f32"],
                         hint="linear")
        return y, out_shape

    def batch_matmul(self, a, ashape, b, bshape):
        out_shape = (ashape[0], ashape[1], bshape[2])
        acc = self.fill(0.0, out_shape)
        v = self.fresh("bmm")
        self.w(f"{v} = linalg.batch_matmul ins({a}, {b} : {ty(ashape)}, {ty(bshape)}) "
               f"outs({acc} : {ty(out_shape)}) -> {ty(out_shape)}")
        return v, out_shape

    def add(self, a, b, shape):
        return self.elementwise([(a, shape), (b, shape)], shape,
                                ["%r = arith.addf %in0, %in1 : f32"], hint="add")

    def divide(self, x, shape, by):
        return self.elementwise([(x, shape)], shape,
                                [f"%c = arith.constant {f32(by)} : f32",
                                 "%r = arith.divf %in0, %c : f32"], hint="div")

    def layer_norm(self, x, shape, prefix):
        """aten.native_layer_norm over the last dimension: mean, variance
        and rsqrt in f32, then the affine weight and bias."""
        n, d = shape
        mean = self.divide(self.reduce_last(x, shape, "arith.addf", 0.0), (n,), d)
        rows = self.amap(2, ["d0"])
        sq = self.generic([(x, shape), (mean, (n,))], (n,),
                          [self.identity(2), rows, rows], ["parallel", "reduction"],
                          ["%d = arith.subf %in0, %in1 : f32",
                           "%d2 = arith.mulf %d, %d : f32",
                           "%r = arith.addf %d2, %out : f32"],
                          init=self.fill(0.0, (n,)), hint="sq")
        var = self.divide(sq, (n,), d)
        gamma, _ = self.weight(prefix + ".weight")
        beta, _ = self.weight(prefix + ".bias")
        cols = self.amap(2, ["d1"])
        return self.generic(
            [(x, shape), (mean, (n,)), (var, (n,)), (gamma, (d,)), (beta, (d,))],
            shape, [self.identity(2), rows, rows, cols, cols, self.identity(2)],
            ["parallel"] * 2,
            ["%d = arith.subf %in0, %in1 : f32",
             f"%eps = arith.constant {f32(LN_EPS)} : f32",
             "%ve = arith.addf %in2, %eps : f32",
             "%rs = math.rsqrt %ve : f32",
             "%nrm = arith.mulf %d, %rs : f32",
             "%s = arith.mulf %nrm, %in3 : f32",
             "%r = arith.addf %s, %in4 : f32"], hint="ln")

    def gelu(self, x, shape):
        """aten.gelu (approximate = "none"): 0.5 x (1 + erf(x / sqrt(2)))."""
        return self.elementwise(
            [(x, shape)], shape,
            [f"%c = arith.constant {f32(1 / math.sqrt(2))} : f32",
             "%xs = arith.mulf %in0, %c : f32",
             "%e = math.erf %xs : f32",
             "%one = arith.constant 1.0 : f32",
             "%p = arith.addf %e, %one : f32",
             "%half = arith.constant 0.5 : f32",
             "%hx = arith.mulf %in0, %half : f32",
             "%r = arith.mulf %hx, %p : f32"], hint="gelu")

    def softmax_last(self, x, shape):
        """aten.softmax over the last dimension, decomposed as torch-mlir
        does: the maximum, exp of the difference, the sum, the quotient."""
        rank = len(shape)
        rows = self.amap(rank, [f"d{i}" for i in range(rank - 1)])
        ident = self.identity(rank)
        mx = self.reduce_last(x, shape, "arith.maximumf", "-inf")
        ex = self.generic([(x, shape), (mx, shape[:-1])], shape, [ident, rows, ident],
                          ["parallel"] * rank,
                          ["%d = arith.subf %in0, %in1 : f32", "%r = math.exp %d : f32"],
                          hint="exp")
        sm = self.reduce_last(ex, shape, "arith.addf", 0.0)
        return self.generic([(ex, shape), (sm, shape[:-1])], shape, [ident, rows, ident],
                            ["parallel"] * rank, ["%r = arith.divf %in0, %in1 : f32"],
                            hint="softmax")

    # ---- the module

    def module(self, arg_shape, out_value, out_shape, comment):
        head = [f"// {line}" if line else "//" for line in comment]
        head.append("// Generated by examples/pytorch/gen_models.py from the PyTorch model's")
        head.append("// initial weights (torch.manual_seed(0)); edit the script and rerun it.")
        head.extend(f"// {line}" for line in self.notes)
        text = "\n".join(head) + "\n"
        for m, name in self.maps.items():
            text += f"{name} = {m}\n"
        text += "module {\n"
        text += f"  func.func @forward(%x: {ty(arg_shape)}) -> {ty(out_shape)} {{\n"
        text += "\n".join("  " + line for line in self.lines) + "\n"
        text += f"    return {out_value} : {ty(out_shape)}\n  }}\n}}\n\n"
        text += "{-#\n  dialect_resources: {\n    builtin: {\n"
        entries = []
        for key, t in self.blobs.items():
            data = t.numpy().astype("<f4").tobytes().hex().upper()
            entries.append(f"      {key}: \"0x04000000{data}\"")
        text += ",\n".join(entries) + "\n    }\n  }\n#-}\n"
        return text


def emit_cnn(model):
    e = Emitter(model)
    e.notes.append(f"BatchNorm running statistics: calibrated on the first {CALIBRATION_IMAGES}")
    e.notes.append("Fashion-MNIST training images (a no-gradient model.train() pass).")
    shape = input_shape("cnn")
    x, s = "%x", shape
    for i in (1, 2):
        x, s = e.conv3x3(x, s, f"conv{i}")
        x = e.relu(e.batch_norm_eval(x, s, f"bn{i}"), s)
        x, s = e.max_pool2(x, s)
    flat = (s[0], s[1] * s[2] * s[3])
    x = e.reshape(x, s, [[0], [1, 2, 3]], flat)
    hidden, hshape = e.linear(x, flat, "fc1")
    logits, out = e.linear(e.relu(hidden, hshape), hshape, "fc2")
    return e.module(shape, logits, out, [
        f"Fashion-MNIST CNN, batch {CNN_BATCH}: conv3x3(1->{C1}, pad 1) + bias, batch norm",
        f"(eval form), ReLU, max-pool 2x2, conv3x3({C1}->{C2}, pad 1) + bias, batch norm,",
        f"ReLU, max-pool 2x2, flatten ({C2}x7x7), linear -> {HIDDEN}, ReLU, linear -> {CLASSES}",
        "logits. The form",
        "torch-mlir exports (linalg on tensors, weights as dense_resource constants",
        "keyed by their PyTorch state_dict names)."])


def emit_transformer(model):
    e = Emitter(model)
    b, n, dh = TF_BATCH, TF_BATCH * T, D // H
    x = e.reshape("%x", (b, T, P), [[0, 1], [2]], (n, P))
    emb, _ = e.linear(x, (n, P), "embed")
    emb3 = e.reshape(emb, (n, D), [[0, 1], [2]], (b, T, D))
    pos, _ = e.weight("pos")
    h = e.generic([(emb3, (b, T, D)), (pos, (T, D))], (b, T, D),
                  [e.identity(3), e.amap(3, ["d1", "d2"]), e.identity(3)],
                  ["parallel"] * 3, ["%r = arith.addf %in0, %in1 : f32"], hint="pos")
    h = e.reshape(h, (b, T, D), [[0, 1], [2]], (n, D))
    a = e.layer_norm(h, (n, D), "ln1")

    def heads(prefix):
        t, _ = e.linear(a, (n, D), prefix)
        t4 = e.reshape(t, (n, D), [[0, 1], [2, 3]], (b, T, H, dh))
        tt, s = e.transpose(t4, (b, T, H, dh), [0, 2, 1, 3])
        return e.reshape(tt, s, [[0, 1], [2], [3]], (b * H, T, dh))

    q, k, v = heads("q"), heads("k"), heads("v")
    kt, kt_shape = e.transpose(k, (b * H, T, dh), [0, 2, 1])
    scores, s_shape = e.batch_matmul(q, (b * H, T, dh), kt, kt_shape)
    scores = e.divide(scores, s_shape, math.sqrt(dh))
    probs = e.softmax_last(scores, s_shape)
    o, o_shape = e.batch_matmul(probs, s_shape, v, (b * H, T, dh))
    o4 = e.reshape(o, o_shape, [[0, 1], [2], [3]], (b, H, T, dh))
    ot, ot_shape = e.transpose(o4, (b, H, T, dh), [0, 2, 1, 3])
    o2 = e.reshape(ot, ot_shape, [[0, 1], [2, 3]], (n, D))
    proj, _ = e.linear(o2, (n, D), "proj")
    h = e.add(h, proj, (n, D))
    f, _ = e.linear(e.layer_norm(h, (n, D), "ln2"), (n, D), "fc1")
    f2, _ = e.linear(e.gelu(f, (n, FF)), (n, FF), "fc2")
    h = e.add(h, f2, (n, D))
    h3 = e.reshape(h, (n, D), [[0, 1], [2]], (b, T, D))
    summed = e.generic([(h3, (b, T, D))], (b, D),
                       [e.identity(3), e.amap(3, ["d0", "d2"])],
                       ["parallel", "reduction", "parallel"],
                       ["%r = arith.addf %in0, %out : f32"],
                       init=e.fill(0.0, (b, D)), hint="tokens")
    pooled = e.divide(summed, (b, D), T)
    logits, out = e.linear(pooled, (b, D), "head")
    return e.module((b, T, P), logits, out, [
        f"Fashion-MNIST transformer block, batch {TF_BATCH}: the {T} image rows are tokens",
        f"of {P} pixels. Linear {P} -> {D} plus a learned position embedding; pre-norm",
        f"encoder block: layer norm, {H}-head self-attention (softmax(q k^T / sqrt({dh})) v),",
        f"output projection, residual; layer norm, linear {D} -> {FF}, GELU (erf), linear",
        f"{FF} -> {D}, residual; mean over the tokens, linear {D} -> {CLASSES} logits. The form",
        "torch-mlir exports (linalg on tensors, weights as dense_resource constants",
        "keyed by their PyTorch state_dict names)."])


def write_oracle(name, model_path, path):
    """For the model of `model_path` (its weights read back from the file),
    PyTorch's cross-entropy loss and gradients (torch.autograd.grad) on a
    fixed batch, in f32 and, for the same weights and batch, in f64:
    `input n v...`, `label n v...`, `loss32 v`, `grad32 <key> n v...` per
    parameter, `loss64 v`, `grad64 <key> n v...`; one line each, floats
    printed to round-trip (f32: 9 digits, f64: 17)."""
    torch.manual_seed(0)
    model = read_weights(CNN() if name == "cnn" else Transformer(), model_path)
    torch.manual_seed(1234)
    x = torch.rand(input_shape(name))
    y = torch.randint(0, CLASSES, (x.shape[0],))

    def line(tag, values, digits):
        flat = values.reshape(-1).tolist()
        return f"{tag} {len(flat)} " + " ".join(f"{v:.{digits}g}" for v in flat) + "\n"

    with open(path, "w") as out:
        out.write(line("input", x, 9))
        out.write(line("label", y, 9))
        for bits, digits in ((32, 9), (64, 17)):
            m = model if bits == 32 else model.double()
            xin = x if bits == 32 else x.double()
            loss = F.cross_entropy(m(xin), y)
            named = list(m.named_parameters())
            grads = torch.autograd.grad(loss, [p for _, p in named])
            out.write(f"loss{bits} {loss.item():.{digits}g}\n")
            for (key, _), g in zip(named, grads):
                out.write(line(f"grad{bits} {key}", g, digits))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--data-dir", default=DATA_DIR,
                        help="Fashion-MNIST IDX files (BatchNorm calibration)")
    parser.add_argument("--oracle", nargs=2, metavar=("MODEL", "FILE"),
                        help="write PyTorch's loss and gradients for the model "
                        "in OUT_DIR/MODEL.mlir to FILE")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.oracle:
        if args.oracle[0] not in ("cnn", "transformer"):
            sys.exit("gen_models.py: --oracle MODEL must be cnn or transformer")
        name = args.oracle[0]
        write_oracle(name, os.path.join(args.out_dir, name + ".mlir"),
                     args.oracle[1])
        return
    for name, emit in (("cnn", emit_cnn), ("transformer", emit_transformer)):
        model = make_model(name, args.data_dir)
        with open(os.path.join(args.out_dir, name + ".mlir"), "w") as out:
            out.write(emit(model))


if __name__ == "__main__":
    main()
