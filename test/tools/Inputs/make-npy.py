"""Writes the .npy files of amp-run's data tests into DIR: good ones and one
of each malformed kind.

usage: make-npy.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)


def save(name, a):
    np.save(os.path.join(out, name), a)


n = 512
x = rng.random((n, 784), dtype=np.float32)
save("x.npy", x)
save("x64.npy", x.astype(np.float64))
save("y.npy", (np.arange(n) % 10).astype(np.int64))
save("y32.npy", (np.arange(n) % 10).astype(np.int32))
# Malformed: a wrong shape, a wrong dtype, fewer labels than inputs, NaN
# and inf, a truncated file, labels out of range, float labels, negative.
save("x-shape.npy", rng.random((n, 28, 27), dtype=np.float32))
save("x-int16.npy", np.zeros((n, 784), np.int16))
save("y-short.npy", (np.arange(n - 1) % 10).astype(np.int64))
xn = x.copy()
xn[7, 3] = np.nan
save("x-nan.npy", xn)
xi = x.copy()
xi[9, 0] = np.inf
save("x-inf.npy", xi)
xb = x.astype(np.float64)
xb[4, 2] = 1e300
save("x-f64-big.npy", xb)
with open(os.path.join(out, "x.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(out, "x-truncated.npy"), "wb") as f:
    f.write(data[: len(data) - 100])
yr = (np.arange(n) % 10).astype(np.int64)
yr[5] = 12
save("y-range.npy", yr)
yneg = (np.arange(n) % 10).astype(np.int64)
yneg[3] = -1
save("y-negative.npy", yneg)
save("y-float.npy", (np.arange(n) % 10).astype(np.float32))
save("x-fortran.npy", np.asfortranarray(rng.random((n, 784), dtype=np.float32)))
with open(os.path.join(out, "not-npy.npy"), "wb") as f:
    f.write(b"hello")


def raw_npy(name, header, payload):
    """A version 1.0 .npy file with the header dict text `header` as given."""
    h = header.encode("latin1")
    pad = (64 - (10 + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + payload)


# A header naming a key twice (numpy keeps the last value silently), and
# one with double-quoted keys and values (numpy reads it).
raw_npy("x-dup.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 784), "
        "'shape': (%d, 28, 28), }" % (n, n), x.astype("<f4").tobytes())
raw_npy("x-dq.npy", '{"descr": "<f4", "fortran_order": False, "shape": (%d, 784), }' % n,
        x.astype("<f4").tobytes())
assert np.array_equal(np.load(os.path.join(out, "x-dq.npy")), x)
