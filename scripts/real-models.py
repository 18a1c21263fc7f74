#!/usr/bin/env python3
"""The corpus of real torch-mlir exports, end to end (docs/real-models.md).

For every model file given (default: ../shared/models/*.mlir beside the
repository; when that folder is absent the driver says so and exits 0, so a
user's clone still passes), runs each stage with the tools of the build and
prints one table:

  autocast f16, autocast bf16   amp-opt --amp-autocast=precision=P MODEL
  build                         amp-opt --amp-build-train-step="loss=L" MODEL
                                (L: softmax-cross-entropy for batch x classes
                                logits, i.e. a rank-2 output with more than
                                one column; mse for anything else)
  batch=8                       the same with batch=8; for a model whose
                                leading dimension is not a batch (attention
                                over it), the expected answer is the located
                                error, and the stage passes when that error
                                names the mixing op
  grad check                    amp-run STEP --check-gradients (f64 central
                                differences, default tolerance)
  train f32/f16/bf16            amp-run STEP --data=synthetic --max-steps=20
                                --run=f32,f16+dynamic,bf16 (finite losses)
  llvm, nvvm                    amp-opt STEP --amp-mixed-precision
                                --amp-lower-to-llvm (and --amp-lower-to-nvvm
                                format=isa), f16 + dynamic loss scaling

Each stage prints ok or its first error line; the driver exits 1 when any
stage fails. Usage:

  scripts/real-models.py [--build=DIR] [--quick] [--md=FILE] [MODEL.mlir ...]

--quick skips the grad check and the training of models whose check would
cost more than --quick-gflop (default 1): the number of parameters times the
forward's GFLOP per example (the check runs 10 forwards per parameter; CI's
time budget), and says so in the table; it also skips the NVVM lowering of models with more
than --quick-nvvm-ops (default 1000) ops (one kernel per op, each compiled
by LLVM's NVPTX back end: MobileNetV3's takes about 3 minutes). --no-check
skips only the grad
check. --md=FILE also writes the table as Markdown.
"""

import argparse
import atexit
import datetime
import glob
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_MODELS = os.path.join(os.path.dirname(ROOT), "shared", "models")

# Models whose leading dimension is not a batch: re-batching them must be
# refused with a located error naming the op that mixes it.
NOT_BATCHED = {"gpt3_layernorm_linear_mha_1head": "linalg.matmul"}


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()[:160]
    lines = [l for l in text.splitlines() if l.strip()]
    return (lines[-1].strip()[:160] if lines else "failed")


def run(cmd, timeout):
    start = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, time.time() - start
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + "\ntimed out after %d s" % timeout, time.time() - start


def tensor_elements(shape):
    n = 1
    for d in shape.split("x"):
        if d == "?":
            return 0
        n *= int(d)
    return n


def model_output(text):
    """The result type of the first public func.func: (dims, element)."""
    m = re.search(r"func\.func @\w+\([^)]*\)\s*->\s*\(?tensor<([0-9x?]+)x(\w+)>", text)
    if not m:
        return None, None
    return [d for d in m.group(1).split("x")], m.group(2)


def count_ops(text):
    return len(re.findall(r"^\s*(?:%[\w:#]+(?:, %[\w:#]+)* = )?\"?[a-z_]+\.[a-z_0-9.]+", text, re.M))


def param_stats(step_text):
    """Number of `param` arguments of @train_step and their elements."""
    m = re.search(r"func\.func @train_step\((.*?)\)\s*->", step_text, re.S)
    if not m:
        return 0, 0
    count, elements = 0, 0
    for arg in re.finditer(r"tensor<([0-9x?]+)x\w+>\s*\{[^}]*amp\.role = \"param\"", m.group(1)):
        count += 1
        elements += tensor_elements(arg.group(1))
    return count, elements


def forward_gflop(step_text):
    """A rough forward cost per example from the conv/matmul shapes (GFLOP),
    used only to decide what --quick skips."""
    flop = 0
    for m in re.finditer(r"linalg\.(conv_2d_nchw_fchw|depthwise_conv_2d_nchw_chw|matmul|batch_matmul)"
                         r"[^\n]*ins\(([^)]*)\)[^\n]*outs\([^:]*: tensor<([0-9x]+)x", step_text):
        kind, ins, out = m.group(1), m.group(2), m.group(3)
        types = re.findall(r"tensor<([0-9x]+)x", ins)
        if len(types) < 2:
            continue
        w = [int(d) for d in types[1].split("x")]
        o = tensor_elements(out)
        if kind == "conv_2d_nchw_fchw":
            flop += 2 * o * w[1] * w[2] * w[3]
        elif kind == "depthwise_conv_2d_nchw_chw":
            flop += 2 * o * w[1] * w[2]
        else:
            a = [int(d) for d in types[0].split("x")]
            flop += 2 * o * a[-1]
    return flop / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--build", default=os.environ.get("AMP_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--quick-gflop", type=float, default=1.0)
    ap.add_argument("--quick-nvvm-ops", type=int, default=1000)
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--md", default="")
    ap.add_argument("--timeout", type=int, default=1800)
    args = ap.parse_args()

    models = args.models
    if not models:
        if not os.path.isdir(DEFAULT_MODELS):
            print("real-models: skipped: %s is absent (the corpus of public "
                  "exports lives beside the repository, not in it)" % DEFAULT_MODELS)
            return 0
        models = sorted(glob.glob(os.path.join(DEFAULT_MODELS, "*.mlir")))
    opt = os.path.join(args.build, "bin", "amp-opt")
    amprun = os.path.join(args.build, "bin", "amp-run")
    for tool in (opt, amprun):
        if not os.access(tool, os.X_OK):
            print("real-models: %s is missing; build first (scripts/build.sh)" % tool)
            return 1

    stages = ["autocast f16", "autocast bf16", "build", "batch=8", "grad check",
              "train 20", "llvm", "nvvm"]
    rows, failures = [], 0
    work = tempfile.mkdtemp(prefix="amp-real-models-")
    atexit.register(shutil.rmtree, work, True)
    for path in models:
        name = os.path.splitext(os.path.basename(path))[0]
        text = open(path).read()
        dims, _ = model_output(text)
        logits = dims is not None and len(dims) == 2 and dims[1] not in ("?", "1")
        loss = "softmax-cross-entropy" if logits else "mse"
        row = {"model": name, "ops": count_ops(text), "loss": loss, "notes": []}
        results = {}
        times = {}

        for prec in ("f16", "bf16"):
            rc, out, _ = run([opt, path, "--amp-autocast=precision=%s" % prec, "-o", os.devnull], args.timeout)
            results["autocast " + prec] = "ok" if rc == 0 else first_error(out)

        step = os.path.join(work, name + ".step.mlir")
        rc, out, t = run([opt, path, "--amp-build-train-step=loss=%s" % loss, "-o", step], args.timeout)
        times["build"] = t
        results["build"] = "ok" if rc == 0 else first_error(out)
        built = rc == 0

        step8 = os.path.join(work, name + ".step8.mlir")
        rc, out, _ = run([opt, path, "--amp-build-train-step=loss=%s batch=8" % loss, "-o", step8], args.timeout)
        if name in NOT_BATCHED:
            expected = NOT_BATCHED[name]
            ok = rc != 0 and "error:" in out and expected in out
            results["batch=8"] = ("ok (refused: %s mixes the batch)" % expected) if ok else (
                "built, but the leading dimension is mixed" if rc == 0 else first_error(out))
        else:
            results["batch=8"] = "ok" if rc == 0 else first_error(out)

        if built:
            step_text = open(step).read()
            row["params"], row["elements"] = param_stats(step_text)
            gflop = forward_gflop(step_text)
            cost = gflop * row["params"]
            heavy = args.quick and cost > args.quick_gflop
            if heavy:
                for s in ("grad check", "train 20"):
                    results[s] = "skipped (--quick: %d params x %.2f GFLOP)" % (row["params"], gflop)
            else:
                if args.no_check:
                    results["grad check"] = "skipped (--no-check)"
                else:
                    rc, out, t = run([amprun, step, "--check-gradients", "--data=synthetic"], args.timeout)
                    times["grad check"] = t
                    results["grad check"] = "ok" if rc == 0 else first_error(out)
                rc, out, t = run([amprun, step, "--data=synthetic", "--max-steps=20",
                                  "--epochs=1", "--progress=false",
                                  "--run=f32,f16+dynamic,bf16"], args.timeout)
                times["train 20"] = t
                results["train 20"] = "ok" if rc == 0 else first_error(out)
            rc, out, t = run([opt, step, "--amp-mixed-precision", "--amp-lower-to-llvm", "-o", os.devnull], args.timeout)
            times["llvm"] = t
            results["llvm"] = "ok" if rc == 0 else first_error(out)
            if args.quick and row["ops"] > args.quick_nvvm_ops:
                results["nvvm"] = "skipped (--quick: %d ops)" % row["ops"]
            else:
                rc, out, t = run([opt, step, "--amp-mixed-precision",
                                  "--amp-lower-to-nvvm=chip=sm_90 format=isa", "-o", os.devnull],
                                 args.timeout)
                times["nvvm"] = t
                results["nvvm"] = "ok" if rc == 0 else first_error(out)
        else:
            row["params"], row["elements"] = 0, 0
            for s in ("grad check", "train 20", "llvm", "nvvm"):
                results[s] = "not built"
        for s in stages:
            if not (results[s].startswith("ok") or results[s].startswith("skipped")):
                failures += 1
        row["results"], row["times"] = results, times
        rows.append(row)
        print("%-45s %s" % (name, "  ".join("%s: %s" % (s, results[s]) for s in stages)), flush=True)

    cpu = platform.processor() or "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    header = ["model", "ops", "params (elements)", "loss"] + stages + ["build s", "check s", "train s", "llvm s", "nvvm s"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        t = r["times"]
        cells = [r["model"], str(r["ops"]), "%d (%d)" % (r["params"], r["elements"]), r["loss"]]
        cells += [r["results"][s].replace("|", "/") for s in stages]
        cells += ["%.1f" % t[k] if k in t else "-" for k in ("build", "grad check", "train 20", "llvm", "nvvm")]
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    stamp = "%s, %s, %s" % (datetime.date.today().isoformat(), cpu, "quick" if args.quick else "full")
    print()
    print("real models (%s):" % stamp)
    print(table)
    if args.md:
        with open(args.md, "w") as f:
            f.write("Measured %s with `scripts/real-models.py%s`.\n\n%s\n" % (
                stamp, " --quick" if args.quick else "", table))
    print("%d passed, %d failed" % (len(rows) * len(stages) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
