"""Writes the .npy files of amp-run-mse-targets.mlir into DIR: inputs x of
8 features and float targets of a fixed linear teacher, y = x W + b with 4
values per example (train: 512 examples, test: 128), and the malformed or
other kinds of supervision the test feeds the same step.

usage: make-regression-npy.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.standard_normal((8, 4))
b = rng.standard_normal(4)


def save(name, a):
    np.save(os.path.join(out, name), a)


for split, n in (("train", 512), ("test", 128)):
    x = rng.standard_normal((n, 8)).astype(np.float32)
    save(split + "_x.npy", x)
    save(split + "_y.npy", (x @ w + b).astype(np.float32))
    # Integer class labels: the teacher's largest output (4 classes).
    save(split + "_cls.npy", np.argmax(x @ w + b, axis=1).astype(np.int64))
# Float targets of 3 values per example (the step's target takes 4);
# float64 targets; integer labels of the target's shape.
x = np.load(os.path.join(out, "train_x.npy"))
save("y3.npy", (x @ w[:, :3]).astype(np.float32))
save("y64.npy", (x @ w + b).astype(np.float64))
save("cls-2d.npy", np.zeros((512, 4), np.int64))
