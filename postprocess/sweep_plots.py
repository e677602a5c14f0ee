#!/usr/bin/python3
"""The two plots of a pimdse sweep file (docs/output.md), as PNG:

  <stem>_best_cost.png       the lowest NicePIM Eq. 1 cost found against evaluations done
  <stem>_latency_energy.png  every ok candidate's total latency and energy, the candidates on
                             the Pareto front of the sweep's objectives highlighted, and the
                             latency-energy trade-off curve

usage: /usr/bin/python3 postprocess/sweep_plots.py OUT.h5 [-o DIR]   (default DIR: next to OUT.h5)

Reads only what the commit record covers, so a running or killed sweep can be plotted.
"""
import argparse
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def read(path):
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") != b"pimdse sweep":
            sys.exit(f"sweep_plots: {path}: not a pimdse sweep file")
        commit = f["commit"][()]
        batches, n_candidates, n_tuner, n_pareto = commit[0], commit[1], commit[6], commit[7]
        c = pd.DataFrame(f["candidates"][:n_candidates])
        b = pd.DataFrame(f["tuner/batches"][:n_tuner])
        p = pd.DataFrame(f["pareto"][:n_pareto])
        status = {v: k for k, v in h5py.check_enum_dtype(f["candidates"].dtype["status"]).items()}
        info = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    c["status"] = c["status"].map(status)
    p.loc[p.left_batch >= batches, "left_batch"] = -1  # left in an uncommitted batch
    return c, b, p, info


def title(info, what):
    return f"{what}\nproposer {info.get('proposer', '?')}, seed {info.get('seed', '?')}"


def plot_best_cost(c, b, info, out):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    cost = c["cost"].where(c["status"] == "ok", np.inf).to_numpy()
    best = np.minimum.accumulate(cost) if len(cost) else cost
    finite = np.isfinite(best)
    ax.step(np.arange(1, len(best) + 1)[finite], best[finite], where="post", color="tab:blue",
            label="best so far (per evaluation)")
    ok_b = b[np.isfinite(b["best_cost"])]
    ax.plot(ok_b["evaluations"], ok_b["best_cost"], "o", ms=3, color="tab:orange", label="end of a batch")
    ax.set_xlabel("evaluations")
    ax.set_ylabel("best NicePIM Eq. 1 cost (J^alpha s^beta)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title(title(info, "Best cost against evaluations"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def staircase(latency, energy):
    """The latency-energy non-dominated points, by increasing latency."""
    order = np.lexsort((energy, latency))
    xs, ys, best = [], [], np.inf
    for i in order:
        if energy[i] < best:
            best = energy[i]
            xs.append(latency[i])
            ys.append(energy[i])
    return np.array(xs), np.array(ys)


def plot_latency_energy(c, p, info, out):
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ok = c[c["status"] == "ok"]
    lat, en = ok["latency_s"].to_numpy() * 1e3, ok["energy_j"].to_numpy() * 1e3
    ax.scatter(lat, en, s=8, color="0.7", label=f"ok candidates ({len(ok)})")
    front = p[p.left_batch < 0]
    if len(front):
        sc = ax.scatter(front["latency_s"] * 1e3, front["energy_j"] * 1e3, s=28, c=front["area_mm2"],
                        cmap="viridis", edgecolors="k", linewidths=0.4,
                        label=f"Pareto front over {info.get('objectives', '?')} ({len(front)})")
        fig.colorbar(sc, ax=ax, label="NN-engine area (mm²)")
    if len(ok):
        xs, ys = staircase(lat, en)
        ax.step(xs, ys, where="post", color="tab:red", lw=1, label="latency-energy trade-off")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("latency summed over the workloads (ms)")
    ax.set_ylabel("energy summed over the workloads (mJ)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title(info, "Latency and energy of the candidates"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="a pimdse sweep file")
    ap.add_argument("-o", "--outdir", help="where to write the PNGs (default: the file's directory)")
    args = ap.parse_args()
    if not os.path.isfile(args.file):
        sys.exit(f"sweep_plots: {args.file}: no such file")
    c, b, p, info = read(args.file)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.file))
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.file))[0]
    paths = [os.path.join(outdir, f"{stem}_best_cost.png"), os.path.join(outdir, f"{stem}_latency_energy.png")]
    plot_best_cost(c, b, info, paths[0])
    plot_latency_energy(c, p, info, paths[1])
    ok = int((c["status"] == "ok").sum())
    print(f"{args.file}: {len(c)} candidates ({ok} ok), {len(b)} batches")
    for path in paths:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
