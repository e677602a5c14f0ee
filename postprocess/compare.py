#!/usr/bin/python3
"""Two (or more) sweeps side by side: the lowest NicePIM Eq. 1 cost found against evaluations
done, one curve per sweep, as compare_best_cost.png, .pdf and .svg. The numbers behind it
(best cost, front size, hypervolume against a common reference point, evaluations to reach
a cost) are what `pimdse compare A.h5 B.h5` prints (docs/cli.md).

usage: /usr/bin/python3 postprocess/compare.py A.h5 B.h5 [MORE.h5...] [--out DIR] [--labels a,b]
       (default DIR: the first file's directory; labels: proposer and seed of each sweep, with
       the file name where two sweeps would share a label)

The x-axis is logarithmic when the longest sweep has more than 4 times the evaluations of
the shortest, so that a short sweep is not squashed against the axis.
"""
import argparse
import os
import sys

import plotstyle  # noqa: F401  (the package path, the style)
import matplotlib.pyplot as plt
import numpy as np

import pimdse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="pimdse sweep files (at least two)")
    ap.add_argument("--out", help="output directory (default: the first file's)")
    ap.add_argument("--labels", help="comma-separated legend labels, one per file")
    a = ap.parse_args()
    if len(a.files) < 2:
        ap.error("give at least two sweep files")
    labels = a.labels.split(",") if a.labels else None
    if labels and len(labels) != len(a.files):
        ap.error(f"--labels: {len(labels)} labels for {len(a.files)} files")
    sweeps = []
    for path in a.files:
        if not os.path.isfile(path):
            sys.exit(f"compare.py: {path}: no such file")
        try:
            sweeps.append(pimdse.Sweep(path))
        except pimdse.SweepError as e:
            sys.exit(f"compare.py: {e}")
    units = {s.cost_unit() for s in sweeps}
    if len(units) > 1:
        sys.exit(f"compare.py: the sweeps' costs have different units ({', '.join(sorted(units))}): "
                 "NicePIM Eq. 1 with different alpha and beta cannot be compared")

    if not labels:
        labels = [f"{s.info.get('proposer', '?')}, seed {s.info.get('seed', '?')}" for s in sweeps]
    labels = [f"{label} ({os.path.basename(s.path)})" if labels.count(label) > 1 else label
              for label, s in zip(labels, sweeps)]
    curves = [s.best_so_far() for s in sweeps]
    lengths = [max(len(c), 1) for c in curves]
    log_x = max(lengths) > 4 * min(lengths)
    print(f"x axis: {'log' if log_x else 'linear'} ({min(lengths)} to {max(lengths)} evaluations)")

    fig, ax = plt.subplots(figsize=(5.0, 3.2))
    for i, (s, curve, label) in enumerate(zip(sweeps, curves, labels)):
        finite = np.isfinite(curve.to_numpy())
        best = curve.iloc[-1] if len(curve) else np.inf
        ax.step(curve.index[finite], curve.to_numpy()[finite], where="post", lw=1.5,
                label=f"{chr(ord('A') + i)}: {label} (best {best:.3g})")
        print(f"{chr(ord('A') + i)}: {label}: {s.path}: {len(curve)} evaluations, best cost {best:.6g} "
              f"{units.copy().pop()}, front {len(s.front())}")
    ax.set_xlabel("evaluations")
    ax.set_ylabel(f"best NicePIM Eq. 1 cost ({units.pop()})")
    ax.set_yscale("log")
    if log_x:
        ax.set_xscale("log")
        ax.set_xlim(left=1, right=max(lengths))
    else:
        ax.set_xlim(left=0, right=max(lengths))
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper right", frameon=False)
    ax.set_title("Best cost against evaluations")
    out = a.out or os.path.dirname(os.path.abspath(a.files[0]))
    os.makedirs(out, exist_ok=True)
    for path in plotstyle.save(fig, os.path.join(out, "compare_best_cost")):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
