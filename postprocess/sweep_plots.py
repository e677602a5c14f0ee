#!/usr/bin/python3
"""The plots of a pimdse sweep file (docs/output.md), each as PNG, PDF and SVG:

  <stem>_best_cost       the lowest NicePIM Eq. 1 cost found against evaluations done
  <stem>_latency_energy  every ok candidate's total latency and energy, the candidates on the
                         Pareto front of the sweep's objectives highlighted, and the
                         latency-energy trade-off curve
  <stem>_front_pairs     the front of the sweep's objectives seen pairwise (three panels for
                         three objectives), over every ok candidate

usage: /usr/bin/python3 postprocess/sweep_plots.py OUT.h5 [-o DIR]   (default DIR: next to OUT.h5)

Reads the file with the pimdse package (python/pimdse), which returns only what the commit
record covers, so a running or killed sweep can be plotted.
"""
import argparse
import os
import sys

import plotstyle  # noqa: F401  (the package path, the style)
import matplotlib.pyplot as plt
import numpy as np

import pimdse

# How each objective is drawn: candidates' column, factor, axis label with its unit, and the
# axis scale. The scale is fixed per objective, never chosen from the data, so that one
# quantity has the same axis in every panel and every plot: latency and energy span
# decades over a design space (log); area is bounded by the area budget (linear).
AXES = {
    "latency": ("latency_s", 1e3, "latency, sum over workloads (ms)", "log"),
    "energy": ("energy_j", 1e3, "energy, sum over workloads (mJ)", "log"),
    "area": ("area_mm2", 1.0, "NN-engine area (mm²)", "linear"),
    "cost": ("cost", 1.0, "NicePIM Eq. 1 cost ({unit})", "log"),
}


def title(s, what):
    return f"{what}: proposer {s.info.get('proposer', '?')}, seed {s.info.get('seed', '?')}"


def plot_best_cost(s, c, b, stem):
    fig, ax = plt.subplots(figsize=(5.0, 3.2))
    best = s.best_so_far().to_numpy()
    finite = np.isfinite(best)
    ax.step(np.arange(1, len(best) + 1)[finite], best[finite], where="post", color="tab:blue",
            label="best so far (per evaluation)")
    ok_b = b[np.isfinite(b["best_cost"])]
    ax.plot(ok_b["evaluations"], ok_b["best_cost"], "o", ms=3, color="tab:orange", label="end of a batch")
    ax.set_xlabel("evaluations")
    ax.set_ylabel(f"best cost ({s.cost_unit()})")
    ax.set_yscale("log")
    ax.set_xlim(left=0)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper right", frameon=False)
    ax.set_title(title(s, "Best NicePIM Eq. 1 cost"))
    return plotstyle.save(fig, stem)


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


def plot_latency_energy(s, c, front, stem):
    fig, ax = plt.subplots(figsize=(5.0, 4.0))
    ok = c[c["status"] == "ok"]
    lat, en = ok["latency_s"].to_numpy() * 1e3, ok["energy_j"].to_numpy() * 1e3
    ax.scatter(lat, en, s=8, color="0.75", label=f"ok candidates ({len(ok)})", zorder=1)
    if len(ok):
        # Above the candidates, below the front's markers (which it joins), and wide enough
        # to read between them.
        # Extended to the largest latency and energy of the candidates, so that the line
        # shows the region the trade-off dominates even when one design is best in both.
        xs, ys = staircase(lat, en)
        xs = np.concatenate(([xs[0]], xs, [max(lat.max(), xs[-1])]))
        ys = np.concatenate(([max(en.max(), ys[0])], ys, [ys[-1]]))
        ax.step(xs, ys, where="post", color="tab:red", lw=2.2, alpha=0.9, zorder=2,
                label="latency-energy trade-off")
    if len(front):
        sc = ax.scatter(front["latency_s"] * 1e3, front["energy_j"] * 1e3, s=26, c=front["area_mm2"],
                        cmap="viridis", edgecolors="k", linewidths=0.4, zorder=3,
                        label=f"Pareto front over {', '.join(s.objectives)} ({len(front)})")
        fig.colorbar(sc, ax=ax, label="NN-engine area (mm²)", pad=0.02)
    ax.set_xscale(AXES["latency"][3])
    ax.set_yscale(AXES["energy"][3])
    ax.set_xlabel(AXES["latency"][2])
    ax.set_ylabel(AXES["energy"][2])
    ax.grid(True, which="major", alpha=0.3)
    # Below the axes: a legend inside would cover the points it describes.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2, frameon=False)
    ax.set_title(title(s, "Latency and energy"))
    return plotstyle.save(fig, stem)


def plot_front_pairs(s, c, front, stem):
    objectives = [o for o in s.objectives if o in AXES] or ["latency", "energy"]
    pairs = [(objectives[i], objectives[j]) for i in range(len(objectives)) for j in range(i + 1, len(objectives))]
    fig, axes = plt.subplots(1, len(pairs), figsize=(max(3.3 * len(pairs), 4.5), 3.3), squeeze=False)
    ok = c[c["status"] == "ok"]
    unit = s.cost_unit()
    for ax, (x, y) in zip(axes[0], pairs):
        (cx, kx, lx, sx), (cy, ky, ly, sy) = AXES[x], AXES[y]
        ax.scatter(ok[cx] * kx, ok[cy] * ky, s=6, color="0.75", label="ok candidates")
        ax.scatter(front[cx] * kx, front[cy] * ky, s=20, color="tab:blue", edgecolors="k", linewidths=0.4,
                   label="Pareto front")
        ax.set_xlabel(lx.format(unit=unit))
        ax.set_ylabel(ly.format(unit=unit))
        ax.set_xscale(sx)
        ax.set_yscale(sy)
        ax.grid(True, which="major", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(f"Pareto front over {', '.join(objectives)}, pairwise ({len(front)} points)\n"
                 f"proposer {s.info.get('proposer', '?')}, seed {s.info.get('seed', '?')}")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return plotstyle.save(fig, stem)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="a pimdse sweep file")
    ap.add_argument("-o", "--outdir", help="where to write the plots (default: the file's directory)")
    args = ap.parse_args()
    if not os.path.isfile(args.file):
        sys.exit(f"sweep_plots: {args.file}: no such file")
    try:
        s = pimdse.Sweep(args.file)
    except pimdse.SweepError as e:
        sys.exit(f"sweep_plots: {e}")
    c, b, front = s.candidates, s.batches, s.front()
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.file))
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.join(outdir, os.path.splitext(os.path.basename(args.file))[0])
    paths = plot_best_cost(s, c, b, f"{stem}_best_cost")
    paths += plot_latency_energy(s, c, front, f"{stem}_latency_energy")
    paths += plot_front_pairs(s, c, front, f"{stem}_front_pairs")
    ok = int((c["status"] == "ok").sum())
    print(f"{args.file}: {len(c)} candidates ({ok} ok), {len(b)} batches")
    for path in paths:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
