#!/usr/bin/env python3
"""PyTorch eager reference for scripts/gpu-check.sh.

The same training step as examples/fashion-mnist/mlp.mlir (MLP 784-256-128-10,
ReLU, softmax cross-entropy averaged over a batch of 128, SGD with momentum
0.9 and lr 0.05, PyTorch nn.Linear init) in PyTorch eager on the GPU:
fp32, f16 with torch.autocast + torch.cuda.amp.GradScaler (init scale 2^15
like amp-run), and bf16 with torch.autocast. Like amp-run --device=cuda, each
step uploads one batch from host memory and reads the loss back.

Prints one line per run: TORCH|<run>|<ms per step>|<final loss>
"""
import argparse
import sys
import time

import torch


def make_model(device):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(784, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 128), torch.nn.ReLU(),
        torch.nn.Linear(128, 10)).to(device)


def run(name, steps, warmup, device):
    model = make_model(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    dtype = {"f32": None, "f16+dynamic": torch.float16, "bf16": torch.bfloat16}[name]
    scaler = torch.amp.GradScaler("cuda", init_scale=32768.0,
                                  enabled=(name == "f16+dynamic"))
    gen = torch.Generator().manual_seed(1)
    xs = torch.rand(steps + warmup, 128, 784, generator=gen)
    ys = torch.randint(0, 10, (steps + warmup, 128), generator=gen)
    loss_value = float("nan")
    for i in range(steps + warmup):
        if i == warmup:
            torch.cuda.synchronize()
            start = time.perf_counter()
        x = xs[i].to(device)
        y = ys[i].to(device)
        with torch.autocast("cuda", dtype=dtype or torch.float32,
                            enabled=dtype is not None):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        loss_value = loss.item()  # amp-run reads the loss back every step too
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3 / steps
    print(f"TORCH|{name}|{ms:.4f}|{loss_value:.4f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_mlp.py: no CUDA device visible to PyTorch", file=sys.stderr)
        return 1
    for name in ("f32", "f16+dynamic", "bf16"):
        run(name, args.steps, args.warmup, "cuda")
    return 0


if __name__ == "__main__":
    sys.exit(main())
