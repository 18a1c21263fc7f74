"""Writes a tiny Fashion-MNIST-shaped IDX data directory (the 4 .gz files
amp-run --data-dir reads) for amp-run tests: 28x28 zero images, example i
labelled i % classes.

usage: make-idx.py DIR TRAIN_EXAMPLES TRAIN_CLASSES TEST_EXAMPLES TEST_CLASSES
"""
import gzip
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
sets = (("train", int(sys.argv[2]), int(sys.argv[3])),
        ("t10k", int(sys.argv[4]), int(sys.argv[5])))
for prefix, count, classes in sets:
    labels = bytes(i % classes for i in range(count))
    with gzip.open(os.path.join(out, prefix + "-images-idx3-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, count, 28, 28))
        f.write(bytes(28 * 28 * count))
    with gzip.open(os.path.join(out, prefix + "-labels-idx1-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">II", 0x801, count))
        f.write(labels)
