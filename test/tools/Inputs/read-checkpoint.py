# Reads an amp-run checkpoint (a safetensors file) with numpy alone, the way
# docs/data-and-checkpoints.md shows, and checks every state tensor against
# the --dump-state digest written at the same step: FNV-1a 64 of its bytes,
# and the value of each scalar. Usage: read-checkpoint.py CKPT DIGEST
import json
import struct
import sys

import numpy as np

with open(sys.argv[1], "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
    data = f.read()
meta = header.pop("__metadata__")
dtypes = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "BF16": "<u2",
          "I64": "<i8", "I32": "<i4", "I8": "i1", "U8": "u1", "BOOL": "?"}
tensors = {
    name: np.frombuffer(data[e["data_offsets"][0]:e["data_offsets"][1]],
                        dtypes[e["dtype"]]).reshape(e["shape"])
    for name, e in header.items()}


def fnv1a(b):
    h = 0xcbf29ce484222325
    for byte in b:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


checked = 0
for line in open(sys.argv[2]):
    words = line.split()
    if words[0] != "arg":
        continue
    t = tensors["arg" + words[1]]
    assert meta["arg" + words[1] + ".role"] == words[2], line
    digest = int(words[4].split("=")[1], 16)
    # The type, e.g. 784x256xf32 or f32 for a scalar.
    assert "x".join(map(str, t.shape + (words[3].split("x")[-1],))) == \
        words[3], (line, t.shape)
    # FNV-1a in Python is slow: the tensors up to 64 KiB (biases, scalars,
    # the loss-scale state) byte for byte.
    raw = t.tobytes()
    if len(raw) <= 65536:
        assert fnv1a(raw) == digest, (line, hex(fnv1a(raw)))
    if len(words) > 5 and words[5].startswith("value="):
        assert float(t) == float(words[5][6:]), (line, t)
    checked += 1
print("checked", checked, "state tensors; step", meta["steps"],
      "epoch", meta["epoch"], "order", tensors["data.order"].shape)
