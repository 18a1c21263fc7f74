#!/usr/bin/env python3
"""Compares two amp-run runs: the per-step losses of their CSVs
(run,step,epoch,loss,...), the largest relative difference over the first
--steps steps against --rtol; with --tables, also the test accuracy of run
--run in their printed tables against --points (percentage points). Prints
what it measured; exits 1 when a bound is exceeded or a file is short."""
import argparse
import csv
import sys


def losses(path):
    with open(path, newline="") as f:
        return [float(row["loss"]) for row in csv.DictReader(f)]


def accuracy(path, run):
    """The 'test acc' of `run` in amp-run's table (the column after the
    train loss)."""
    with open(path) as f:
        for line in f:
            if line.startswith(run + " ") and len(line.split()) >= 3:
                rest = line[len(run):].split()
                return float(rest[1])
    sys.exit(f"compare-losses: no row '{run}' in {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("other")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--tables", nargs=2, metavar=("REF_OUT", "OTHER_OUT"))
    parser.add_argument("--run", default="f32")
    parser.add_argument("--points", type=float, default=0.2)
    args = parser.parse_args()
    ok = True
    if args.tables:
        x, y = (accuracy(t, args.run) for t in args.tables)
        diff = abs(x - y) * 100
        ok = diff <= args.points
        print(f"test accuracy {x:.4f} vs {y:.4f}: {diff:.2f} points, "
              f"{'within' if ok else 'ABOVE'} {args.points:g}")
    a, b = losses(args.reference), losses(args.other)
    if len(a) < args.steps or len(b) < args.steps:
        sys.exit(f"compare-losses: {len(a)} and {len(b)} steps, "
                 f"need {args.steps}")
    worst, at = 0.0, 0
    for step, (x, y) in enumerate(zip(a[:args.steps], b[:args.steps]), 1):
        rel = abs(x - y) / abs(x)
        if not rel <= worst:
            worst, at = rel, step
    verdict = "within" if worst <= args.rtol else "ABOVE"
    print(f"largest relative loss difference over {args.steps} steps: "
          f"{worst:.3g} (step {at}), {verdict} {args.rtol:g}")
    sys.exit(0 if ok and worst <= args.rtol else 1)


if __name__ == "__main__":
    main()
