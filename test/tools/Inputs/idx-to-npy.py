"""Converts an MNIST-format IDX directory (the .gz files) to NumPy: DIR/npy/
{train,test}_{x,y}.npy (uint8, the same bytes), and the IDX files
uncompressed under DIR/idx/ (for --data=idx:DIR).

usage: idx-to-npy.py IDX_DIR OUT_DIR
"""
import gzip
import os
import sys

import numpy as np

src, out = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(out, "npy"), exist_ok=True)
os.makedirs(os.path.join(out, "idx"), exist_ok=True)
for prefix, split in (("train", "train"), ("t10k", "test")):
    for kind, name, offset in (("images-idx3-ubyte", "x", 16),
                               ("labels-idx1-ubyte", "y", 8)):
        with gzip.open(os.path.join(src, f"{prefix}-{kind}.gz"), "rb") as f:
            raw = f.read()
        with open(os.path.join(out, "idx", f"{prefix}-{kind}"), "wb") as f:
            f.write(raw)
        data = np.frombuffer(raw, np.uint8, offset=offset)
        if name == "x":
            data = data.reshape(-1, 28, 28)
        np.save(os.path.join(out, "npy", f"{split}_{name}.npy"), data)
