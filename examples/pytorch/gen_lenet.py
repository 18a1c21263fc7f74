#!/usr/bin/python3
"""Writes lenet_trained.mlir: a LeNet-5 for 1x28x28 Fashion-MNIST images,
trained in PyTorch, exported the way torch-mlir exports a model traced on one
example (batch 1), with its trained weights in the file.

What makes it a torch-mlir export rather than a model written for this
project (the idioms that stopped the tools on real exports):
  - batch 1, so every size-1 batch dimension is broadcast with a constant
    index in the indexing map: `(d0, d1, d2, d3) -> (0, d1, d2, d3)` for the
    ReLUs, `(d0, d1) -> (0, d1)` for the linear layers' bias adds;
  - the bias of a convolution broadcast into its init through `(d1)`;
  - `tensor.pad` before the padded convolution, `linalg.pooling_nchw_max`
    into a -inf fill, `tensor.collapse_shape` to flatten;
  - weights as `dense_resource` blobs keyed by PyTorch's state_dict names.

The network: conv5x5(1->6, pad 2) + ReLU + max-pool 2, conv5x5(6->16) + ReLU
+ max-pool 2, flatten (400), linear 120 + ReLU, linear 84 + ReLU, linear 10.
Trained with SGD (lr 0.05, momentum 0.9, batch 64) for one pass over the
first TRAIN_IMAGES training images (torch.manual_seed(0)), so the weights
are real and the model is far from converged: fine-tuning it on the whole
set still gains (test/Examples/lenet-finetune.test).

Usage (Debian's PyTorch: /usr/bin/python3 with python3-torch):
  gen_lenet.py [-o FILE] [--data-dir D]
"""
import argparse
import gzip
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_models import DATA_DIR, Emitter, ty  # noqa: E402

TRAIN_IMAGES = 12000


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(400, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def load(data_dir, kind, count):
    with gzip.open(os.path.join(data_dir, f"{kind}-images-idx3-ubyte.gz")) as f:
        _, n, _, _ = struct.unpack(">IIII", f.read(16))
        n = min(n, count)
        images = torch.frombuffer(bytearray(f.read(n * 784)), dtype=torch.uint8)
    with gzip.open(os.path.join(data_dir, f"{kind}-labels-idx1-ubyte.gz")) as f:
        f.read(8)
        labels = torch.frombuffer(bytearray(f.read(n)), dtype=torch.uint8)
    return images.float().div(255.0).reshape(n, 1, 28, 28), labels.long()


class TorchMlirEmitter(Emitter):
    """The layers as torch-mlir writes them for a batch-1 trace."""

    def relu_b1(self, x, shape):
        rank = len(shape)
        first = self.amap(rank, ["0"] + [f"d{i}" for i in range(1, rank)])
        return self.generic([(x, shape)], shape, [first, self.identity(rank)],
                            ["parallel"] * rank,
                            ["%zero = arith.constant 0.0 : f32",
                             "%pos = arith.cmpf ugt, %in0, %zero : f32",
                             "%r = arith.select %pos, %in0, %zero : f32"],
                            hint="relu")

    def conv(self, x, shape, prefix, pad):
        w, wshape = self.weight(prefix + ".weight")
        b, _ = self.weight(prefix + ".bias")
        n, c, h, wd = shape
        k = wshape[2]
        if pad:
            zero = self.scalar(0.0)
            padded_shape = (n, c, h + 2 * pad, wd + 2 * pad)
            padded = self.fresh("padded")
            self.w(f"{padded} = tensor.pad {x} low[0, 0, {pad}, {pad}] high[0, 0, {pad}, {pad}] {{")
            self.w("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
            self.w(f"  tensor.yield {zero} : f32")
            self.w(f"}} : {ty(shape)} to {ty(padded_shape)}")
            x, shape = padded, padded_shape
        out_shape = (n, wshape[0], shape[2] - k + 1, shape[3] - k + 1)
        init = self.generic([(b, (wshape[0],))], out_shape,
                            [self.amap(4, ["d1"]), self.identity(4)],
                            ["parallel"] * 4, [], result="%in0", hint="bias")
        v = self.fresh("conv")
        self.w(f"{v} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, "
               f"strides = dense<1> : vector<2xi64>}} ins({x}, {w} : "
               f"{ty(shape)}, {ty(wshape)}) outs({init} : {ty(out_shape)}) "
               f"-> {ty(out_shape)}")
        return v, out_shape

    def linear_b1(self, x, shape, prefix):
        w, wshape = self.weight(prefix + ".weight")
        b, _ = self.weight(prefix + ".bias")
        wt_shape = (wshape[1], wshape[0])
        wt = self.generic([(w, wshape)], wt_shape,
                          [self.amap(2, ["d1", "d0"]), self.identity(2)],
                          ["parallel"] * 2, [], result="%in0", hint="wt")
        out_shape = (shape[0], wshape[0])
        acc = self.fill(0.0, out_shape)
        mm = self.fresh("mm")
        self.w(f"{mm} = linalg.matmul ins({x}, {wt} : {ty(shape)}, {ty(wt_shape)}) "
               f"outs({acc} : {ty(out_shape)}) -> {ty(out_shape)}")
        y = self.generic([(mm, out_shape), (b, (wshape[0],))], out_shape,
                         [self.amap(2, ["0", "d1"]), self.amap(2, ["d1"]), self.identity(2)],
                         ["parallel"] * 2, ["%r = arith.addf %in0, %in1 : f32"],
                         hint="linear")
        return y, out_shape


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                               "lenet_trained.mlir"))
    ap.add_argument("--data-dir", default=DATA_DIR)
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = LeNet()
    images, labels = load(args.data_dir, "train", TRAIN_IMAGES)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model.train()
    for i in range(0, len(images), 64):
        opt.zero_grad()
        loss = F.cross_entropy(model(images[i:i + 64]), labels[i:i + 64])
        loss.backward()
        opt.step()
    model.eval()
    test_x, test_y = load(args.data_dir, "t10k", 10000)
    with torch.no_grad():
        acc = (model(test_x).argmax(1) == test_y).float().mean().item()

    e = TorchMlirEmitter(model)
    shape = (1, 1, 28, 28)
    x, s = "%x", shape
    x, s = e.conv(x, s, "conv1", 2)
    x, s = e.max_pool2(e.relu_b1(x, s), s)
    x, s = e.conv(x, s, "conv2", 0)
    x, s = e.max_pool2(e.relu_b1(x, s), s)
    flat = (1, s[1] * s[2] * s[3])
    x = e.reshape(x, s, [[0], [1, 2, 3]], flat)
    for name in ("fc1", "fc2"):
        x, s = e.linear_b1(x, flat if name == "fc1" else s, name)
        x = e.relu_b1(x, s)
    logits, out = e.linear_b1(x, s, "fc3")
    text = e.module(shape, logits, out, [
        "LeNet-5 for 1x28x28 Fashion-MNIST images in torch-mlir's batch-1 export form",
        "(constant-index broadcasts, dense_resource weights keyed by state_dict names),",
        f"trained in PyTorch on the first {TRAIN_IMAGES} training images (one pass, SGD",
        f"momentum): test accuracy {acc:.4f} in PyTorch. Written by gen_lenet.py."])
    text = text.replace("// Generated by examples/pytorch/gen_models.py from the PyTorch model's\n"
                        "// initial weights (torch.manual_seed(0)); edit the script and rerun it.\n",
                        "")
    with open(args.o, "w") as f:
        f.write(text)
    print(f"gen_lenet.py: wrote {args.o} (PyTorch test accuracy {acc:.4f})")


if __name__ == "__main__":
    main()
