#!/usr/bin/env python3
"""Overwrites element POS of a checkpoint's data.order (safetensors, I64) with
VALUE, or with element 0's value for 'same-as-0': a corrupted checkpoint for
amp-run-checkpoint-refusals.mlir."""
import json
import struct
import sys

path, pos, value = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "r+b") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
    begin = 8 + n + header["data.order"]["data_offsets"][0]
    if value == "same-as-0":
        f.seek(begin)
        value = struct.unpack("<q", f.read(8))[0]
    f.seek(begin + 8 * pos)
    f.write(struct.pack("<q", int(value)))
