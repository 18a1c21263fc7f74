#!/usr/bin/env python3
"""PyTorch eager reference for scripts/gpu-check.sh.

The same training steps as examples/fashion-mnist/mlp.mlir (MLP
784-256-128-10, ReLU, batch 128) and transformer.mlir (the transformer block
of benchmarks/cpu-step/torch_peer.py, batch 64), and the models of
examples/pytorch/gen_models.py that scripts/gpu-check.sh builds into steps
with amp-build-train-step: the CNN (re-batched to 128; BatchNorm in eval
form, as the built step trains it: weight and bias learn, the running
statistics stay) and the pre-norm transformer block (batch 64). Softmax
cross-entropy averaged over the batch, SGD with momentum 0.9 and lr 0.05, PyTorch
nn.Linear init, in PyTorch eager on the GPU:
fp32, f16 with torch.autocast + torch.cuda.amp.GradScaler (init scale 2^15
like amp-run), and bf16 with torch.autocast. Like amp-run --device=cuda, each
step uploads one batch from host memory and reads the loss back.

Prints one line per run: TORCH|<run>|<ms per step>|<final loss> for the
MLP and TORCH|<model>/<run>|... for the others (transformer, cnn,
pytorch-transformer).
"""
import argparse
import contextlib
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "cpu-step"))
from torch_peer import TransformerBlock  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "pytorch"))
import gen_models  # noqa: E402

# Batch and the shape of one example, per model.
SHAPES = {"mlp": (128, (784,)), "transformer": (64, (784,)),
          "cnn": (128, (1, 28, 28)), "pytorch-transformer": (64, (28, 28))}


def make_model(model, device):
    torch.manual_seed(0)
    if model == "transformer":
        return TransformerBlock().to(device)
    if model == "cnn":
        return gen_models.CNN().to(device).eval()  # eval-form BatchNorm
    if model == "pytorch-transformer":
        return gen_models.Transformer().to(device)
    return torch.nn.Sequential(
        torch.nn.Linear(784, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 128), torch.nn.ReLU(),
        torch.nn.Linear(128, 10)).to(device)


def run(model_name, name, steps, warmup, device):
    model = make_model(model_name, device)
    batch, example = SHAPES[model_name]
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    dtype = {"f32": None, "f16+dynamic": torch.float16, "bf16": torch.bfloat16}[name]
    scaler = None
    if name == "f16+dynamic":
        scaler = torch.amp.GradScaler(device, init_scale=32768.0)
    gen = torch.Generator().manual_seed(1)
    xs = torch.rand(steps + warmup, batch, *example, generator=gen)
    ys = torch.randint(0, 10, (steps + warmup, batch), generator=gen)
    loss_value = float("nan")
    for i in range(steps + warmup):
        if i == warmup:
            sync(device)
            start = time.perf_counter()
        x = xs[i].to(device)
        y = ys[i].to(device)
        with (torch.autocast(device, dtype=dtype) if dtype
              else contextlib.nullcontext()):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        if scaler:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        loss_value = loss.item()  # amp-run reads the loss back every step too
    sync(device)
    ms = (time.perf_counter() - start) * 1e3 / steps
    prefix = "" if model_name == "mlp" else model_name + "/"
    print(f"TORCH|{prefix}{name}|{ms:.4f}|{loss_value:.4f}", flush=True)


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--models", default=",".join(SHAPES))
    parser.add_argument("--runs", default="f32,f16+dynamic,bf16")
    parser.add_argument("--device", default="cuda",
                        help="cuda; cpu only to check the script itself")
    args = parser.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("torch_mlp.py: no CUDA device visible to PyTorch", file=sys.stderr)
        return 1
    for model in args.models.split(","):
        for name in args.runs.split(","):
            run(model, name, args.steps, args.warmup, args.device)
    return 0


if __name__ == "__main__":
    sys.exit(main())
