#!/usr/bin/env python3
"""PyTorch eager CPU peer of amp-bench-training (scripts/bench.sh).

The same training steps as examples/fashion-mnist/mlp.mlir (MLP
784-256-128-10, ReLU, batch 128) and transformer.mlir (embedding 28 -> 32 of
the 28 image rows, one self-attention head with a residual, feed-forward
32 -> 64 -> 32 with a residual, mean over the tokens, classifier 32 -> 10,
batch 64), softmax cross-entropy averaged over the batch, SGD with momentum
0.9 and lr 0.05, nn.Linear init, inputs U[0, 1); and the step
amp-build-train-step builds from examples/pytorch/cnn.mlir at batch 128
(examples/pytorch/gen_models.py's CNN: conv3x3 1 -> 8 and 8 -> 16 with
padding 1, each with batch norm in eval form whose weight and bias train,
ReLU and 2x2 max pooling; linear 784 -> 128 -> 10; momentum 0.9, lr 0.01,
the builder's defaults) and from examples/pytorch/transformer.mlir at its
traced batch 64 (gen_models.py's Transformer: linear 28 -> 32 of the image
rows plus a position embedding, pre-norm layer norms, 2-head attention,
linear 32 -> 64, exact GELU, linear 64 -> 32, residuals, mean over the
tokens, linear 32 -> 10; the builder's defaults); all in eager mode on the CPU:
fp32, and bf16 under torch.autocast("cpu") (PyTorch 1.13 autocasts only
bf16 on the CPU). Like amp-run, each step reads the loss back.

It is a server so that the benchmark can interleave it with its own steps
(the machine is shared and noisy): each line on stdin

    RUN <mlp|transformer|cnn|gelu-transformer> <f32|bf16> <threads> <steps>

runs that many steps with torch.set_num_threads(threads) and answers one
line, the milliseconds of each step:

    TIMES <ms> <ms> ...

`QUIT` (or end of input) ends it. The first line it prints is
`READY <torch version>`.
"""
import math
import os
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "pytorch"))
import gen_models  # noqa: E402 (examples/pytorch/gen_models.py)


class Mlp(nn.Module):
    batch = 128

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(784, 256), nn.ReLU(),
                                    nn.Linear(256, 128), nn.ReLU(),
                                    nn.Linear(128, 10))

    def forward(self, x):
        return self.layers(x)


class TransformerBlock(nn.Module):
    batch, tokens, pixels, dim, hidden = 64, 28, 28, 32, 64

    def __init__(self):
        super().__init__()
        d = self.dim
        self.we = nn.Linear(self.pixels, d, bias=False)
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.w1 = nn.Linear(d, self.hidden, bias=False)
        self.w2 = nn.Linear(self.hidden, d, bias=False)
        self.wc = nn.Linear(d, 10)

    def forward(self, x):
        h0 = self.we(x.view(-1, self.tokens, self.pixels))
        q, k, v = self.wq(h0), self.wk(h0), self.wv(h0)
        p = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(self.dim), dim=-1)
        h1 = h0 + self.wo(p @ v)
        h2 = h1 + self.w2(F.relu(self.w1(h1)))
        return self.wc(h2.mean(dim=1))


class Cnn(nn.Module):
    batch = 128
    lr = 0.01

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc1 = nn.Linear(16 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)
        self.eval()  # batch norm in eval form, as the export has it

    def forward(self, x):
        x = x.view(-1, 1, 28, 28)
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


class GeluTransformer(nn.Module):
    """gen_models.py's Transformer, fed the flat images."""
    batch = 64
    lr = 0.01

    def __init__(self):
        super().__init__()
        self.net = gen_models.Transformer()

    def forward(self, x):
        return self.net(x.view(-1, gen_models.T, gen_models.P))


class Peer:
    """One model + optimizer per (model, precision), kept across requests."""

    def __init__(self, model, precision):
        torch.manual_seed(0)
        self.net = {"mlp": Mlp, "transformer": TransformerBlock,
                    "cnn": Cnn, "gelu-transformer": GeluTransformer}[model]()
        self.opt = torch.optim.SGD(self.net.parameters(),
                                   lr=getattr(self.net, "lr", 0.05),
                                   momentum=0.9)
        self.bf16 = precision == "bf16"
        gen = torch.Generator().manual_seed(1)
        batch = self.net.batch
        self.xs = torch.rand(16, batch, 784, generator=gen)
        self.ys = torch.randint(0, 10, (16, batch), generator=gen)
        self.next = 0

    def step(self):
        x = self.xs[self.next % 16]
        y = self.ys[self.next % 16]
        self.next += 1
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            loss = F.cross_entropy(self.net(x), y)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        return loss.item()


def main():
    peers = {}
    print(f"READY {torch.__version__}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "QUIT":
            break
        if words[0] != "RUN" or len(words) != 5:
            print(f"ERROR bad request: {line.strip()}", flush=True)
            continue
        model, precision, threads, steps = (words[1], words[2],
                                            int(words[3]), int(words[4]))
        torch.set_num_threads(threads)
        peer = peers.setdefault((model, precision), Peer(model, precision))
        times = []
        for _ in range(steps):
            t0 = time.perf_counter()
            peer.step()
            times.append((time.perf_counter() - t0) * 1e3)
        print("TIMES " + " ".join(f"{t:.4f}" for t in times), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
