#!/usr/bin/env python3
"""Execution check of amp-rebatch on a forward model.

Usage: scripts/check-rebatch-forward.py MODEL.mlir [BUILD_DIR] [--batch-dim=D]

Builds one module with the model at its traced batch T (@fwd1; usually
1), re-batched to N = 8 T (@fwd8, `amp-opt --amp-rebatch=batch=N`) and to
a dynamic batch (@fwdd, run at N), and a @main that feeds N examples
(sin(0.37 i)) to @fwd8 and @fwdd and each chunk of T examples to @fwd1;
lowers it with upstream passes (mlir-opt-22, naive loops) and runs it with mlir-runner-22. Prints the
largest |fwd1 - fwd8| and |fwd1 - fwdd| over every output element and the
largest |fwd1| (so that a zero output is seen), and exits 1 unless both
differences are 0 (the loops are the same per example, so the numbers are
bit for bit equal). Elided weights (dense_resource<__elided__>) are
replaced by a splat 0.0123. In a file of `// -----` chunks (a lit test)
the model is the first chunk. Exits 0 with a skip message when MODEL does
not exist (../shared/models is not in every checkout).

--batch-dim=D (a sequence-first model, batch_first=False: D = 1): all
three are first moved to the batch in dimension 0 (`amp-rebatch
batch-dim=D`), and @fwd1 is that model at its traced batch.
"""
import os, re, shutil, subprocess, sys, tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--batch-dim=")]
batch_dim = next((int(a.split("=", 1)[1]) for a in sys.argv[1:]
                  if a.startswith("--batch-dim=")), 0)
if not args:
    sys.exit(__doc__)
model = args[0]
build = args[1] if len(args) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build")
amp_opt = os.path.join(build, "bin", "amp-opt")
if not os.path.exists(model):
    print(f"check-rebatch-forward: {model} not found; skipped")
    sys.exit(0)
work = tempfile.mkdtemp(prefix="check-rebatch-")
# A lit test file of --split-input-file chunks: the model is the first.
src = open(model).read().split("\n// -----\n")[0]
src = src.replace("dense_resource<__elided__>", "dense<0.0123>")
src = "\n".join(l for l in src.splitlines() if "ml_program.global" not in l) + "\n"
def refuse(why):
    print(f"check-rebatch-forward: {os.path.basename(model)}: {why} (this "
          f"check feeds one float input; models with several inputs or "
          f"integer ids are checked by --check-gradients and training)")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(2)
header = re.search(r"^  func\.func @\w+\(([^)]*)\)", src, re.M)
if header is None:
    refuse("no func.func at 2-space indent in the first chunk")
if header.group(1).count("%arg") != 1:
    refuse(f"the model takes {header.group(1).count('%arg')} arguments")
if not re.search(r"x(f16|bf16|f32|f64)>", header.group(1)):
    refuse("the model's input is not a float tensor")
def rebatch(b):
    option = f"--amp-rebatch=batch={b} batch-dim={batch_dim} input=0"
    r = subprocess.run([amp_opt, option, "-"], input=src,
                       capture_output=True, text=True)
    if r.returncode != 0:
        # The product refused (or failed): its own diagnostic, not a trace.
        sys.stderr.write(r.stderr)
        print(f"check-rebatch-forward: amp-opt '{option}' failed "
              f"on {os.path.basename(model)} (above)")
        shutil.rmtree(work, ignore_errors=True)
        sys.exit(1)
    return r.stdout
if batch_dim:
    # The model at its traced batch, with the batch moved to dimension 0.
    tail0 = src[src.index("{-#"):] if "{-#" in src else ""
    src = rebatch(0)
    if tail0 and "{-#" not in src:
        src += tail0
    batch_dim = 0  # src holds the batch in dimension 0 now
def funcs(text, name):
    # the func.func @forward ... up to its closing "  }" at module level
    m = re.search(r"^  func\.func @(\w+)\(.*?^  }\n", text, re.S | re.M)
    body = m.group(0)
    return m.group(1), body.replace(f"@{m.group(1)}(", f"@{name}(", 1)
def maps(text):
    found = [l for l in text.splitlines() if re.match(r"^#\w+ = ", l)]
    return sorted(found, key=lambda l: -len(l.split(" = ")[0]))
# Traced at batch T: re-batched to N = 8 T and compared on 8 chunks of T.
T = int(re.search(r"^  func\.func @\w+\(%arg0: tensor<(\d+)x", src, re.M).group(1))
N = 8 * T
fname, f1 = funcs(src, "fwd1")
_, f8 = funcs(rebatch(N), "fwd8")
_, fd = funcs(rebatch("dynamic"), "fwdd")
# map aliases differ between the three prints: inline them by renaming.
def inline(text, full):
    for l in maps(full):
        k, v = l.split(" = ", 1)
        text = re.sub(re.escape(k) + r"\b", v, text)
    return text
f1 = inline(f1, src); f8 = inline(f8, rebatch(N)); fd = inline(fd, rebatch("dynamic"))
sig = re.search(r"@fwd1\(%arg0: tensor<" + str(T) + r"x([^>]*)>\) -> tensor<" +
                str(T) + r"x([^>]*)>", f1)
if sig is None:
    refuse("the model does not return one tensor")
ins, outs = sig.group(1), sig.group(2)
dims = lambda s: [int(d) for d in s.split("x")[:-1]]
din, dout = dims(ins), dims(outs)
rin, rout = len(din), len(dout)
idx = lambda r: ", ".join(f"d{k}" for k in range(r + 1))
ones = lambda r: ", ".join(["0"] * (r + 1))
main = f"""
  func.func @main() {{
    %x = tensor.generate {{
    ^bb0({", ".join(f"%i{k}: index" for k in range(rin + 1))}):
      %lin0 = arith.constant 0 : index
""" 
lines = []
acc = "%lin0"
sizes = [N] + din
for k in range(rin + 1):
    lines.append(f"      %s{k} = arith.constant {sizes[k]} : index")
    lines.append(f"      %m{k} = arith.muli {acc}, %s{k} : index")
    lines.append(f"      %a{k} = arith.addi %m{k}, %i{k} : index")
    acc = f"%a{k}"
main += "\n".join(lines) + f"""
      %ii = arith.index_cast {acc} : index to i64
      %fi = arith.sitofp %ii : i64 to f32
      %sc = arith.constant 0.37 : f32
      %t = arith.mulf %fi, %sc : f32
      %v = math.sin %t : f32
      tensor.yield %v : f32
    }} : tensor<{N}x{ins}>
    %y8 = func.call @fwd8(%x) : (tensor<{N}x{ins}>) -> tensor<{N}x{outs}>
    %xd = tensor.cast %x : tensor<{N}x{ins}> to tensor<?x{ins}>
    %ydd = func.call @fwdd(%xd) : (tensor<?x{ins}>) -> tensor<?x{outs}>
    %yd = tensor.cast %ydd : tensor<?x{outs}> to tensor<{N}x{outs}>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %cT = arith.constant {T} : index
    %z = arith.constant 0.0 : f32
    %r:3 = scf.for %b = %c0 to %c8 step %c1 iter_args(%m8 = %z, %md = %z, %mo = %z) -> (f32, f32, f32) {{
      %off = arith.muli %b, %cT : index
      %xs = tensor.extract_slice %x[%off, {", ".join(["0"] * rin)}] [{T}, {", ".join(map(str, din))}] [{", ".join(["1"] * (rin + 1))}] : tensor<{N}x{ins}> to tensor<{T}x{ins}>
      %y1 = func.call @fwd1(%xs) : (tensor<{T}x{ins}>) -> tensor<{T}x{outs}>
      %s8 = tensor.extract_slice %y8[%off, {", ".join(["0"] * rout)}] [{T}, {", ".join(map(str, dout))}] [{", ".join(["1"] * (rout + 1))}] : tensor<{N}x{outs}> to tensor<{T}x{outs}>
      %sd = tensor.extract_slice %yd[%off, {", ".join(["0"] * rout)}] [{T}, {", ".join(map(str, dout))}] [{", ".join(["1"] * (rout + 1))}] : tensor<{N}x{outs}> to tensor<{T}x{outs}>
      %e = tensor.empty() : tensor<f32>
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
      %red:3 = linalg.generic {{indexing_maps = [affine_map<({idx(rout)}) -> ({idx(rout)})>, affine_map<({idx(rout)}) -> ({idx(rout)})>, affine_map<({idx(rout)}) -> ({idx(rout)})>, affine_map<({idx(rout)}) -> ()>, affine_map<({idx(rout)}) -> ()>, affine_map<({idx(rout)}) -> ()>], iterator_types = [{", ".join(['"reduction"'] * (rout + 1))}]}}
          ins(%y1, %s8, %sd : tensor<{T}x{outs}>, tensor<{T}x{outs}>, tensor<{T}x{outs}>) outs(%f, %f, %f : tensor<f32>, tensor<f32>, tensor<f32>) {{
      ^bb0(%p: f32, %q: f32, %w: f32, %o8: f32, %od: f32, %oo: f32):
        %d8 = arith.subf %p, %q : f32
        %a8 = math.absf %d8 : f32
        %n8 = arith.maximumf %a8, %o8 : f32
        %dd = arith.subf %p, %w : f32
        %ad = math.absf %dd : f32
        %nd = arith.maximumf %ad, %od : f32
        %ap = math.absf %p : f32
        %no = arith.maximumf %ap, %oo : f32
        linalg.yield %n8, %nd, %no : f32, f32, f32
      }} -> (tensor<f32>, tensor<f32>, tensor<f32>)
      %v8 = tensor.extract %red#0[] : tensor<f32>
      %vd = tensor.extract %red#1[] : tensor<f32>
      %vo = tensor.extract %red#2[] : tensor<f32>
      %n8 = arith.maximumf %m8, %v8 : f32
      %nd = arith.maximumf %md, %vd : f32
      %no = arith.maximumf %mo, %vo : f32
      scf.yield %n8, %nd, %no : f32, f32, f32
    }}
    vector.print %r#0 : f32
    vector.print %r#1 : f32
    vector.print %r#2 : f32
    return
  }}
"""
tail = src[src.index("{-#"):] if "{-#" in src else ""
module = "module {\n" + f1 + f8 + fd + main + "}\n" + tail
path = os.path.join(work, "check.mlir")
open(path, "w").write(module)
llvm_lib = "/usr/lib/llvm-22/lib"
subprocess.run(["mlir-opt-22", path,
                "--one-shot-bufferize=bufferize-function-boundaries",
                "--convert-linalg-to-loops", "--expand-strided-metadata",
                "--lower-affine", "--convert-scf-to-cf",
                "--convert-vector-to-llvm", "--convert-math-to-llvm",
                "--convert-math-to-libm",
                "--convert-arith-to-llvm", "--finalize-memref-to-llvm",
                "--convert-func-to-llvm", "--convert-cf-to-llvm",
                "--reconcile-unrealized-casts", "-o", path + ".llvm.mlir"],
               check=True)
out = subprocess.run(["mlir-runner-22", "-O2", path + ".llvm.mlir", "-e", "main",
                      "-entry-point-result=void",
                      f"-shared-libs={llvm_lib}/libmlir_runner_utils.so,"
                      f"{llvm_lib}/libmlir_c_runner_utils.so"],
                     check=True, capture_output=True, text=True).stdout.split()
shutil.rmtree(work)
d8, dd, largest = (float(v) for v in out[:3])
name = os.path.basename(model)
print(f"{name}: max |fwd{T} - fwd{N}| = {d8:g}, max |fwd{T} - fwd(dynamic at {N})| = "
      f"{dd:g}, max |fwd{T}| = {largest:g}")
sys.exit(0 if d8 == 0 and dd == 0 else 1)
