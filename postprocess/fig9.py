#!/usr/bin/python3
"""NicePIM Fig. 9: design quality against evaluations, per proposer, over seeds.

Reads the sweep files of jobs/paper/fig9/run.sh (one `pimdse explore` per proposer and
seed). Design quality after n evaluations follows the paper (VIII-C): among the first n
candidates, the three with the lowest NicePIM Eq. 1 cost (EDP summed over the five DNNs,
alpha = beta = 1); quality is the mean of their reciprocal costs. Infeasible, failed and
timed-out candidates count as evaluations but never as designs. Draws the median over seeds
with the min-max band per proposer (fig9.png) and writes fig9.md: final quality per
proposer (median, min, max over seeds) and the evaluations each needs to reach random
search's median final quality.

    /usr/bin/python3 postprocess/fig9.py out/paper/fig9/*.h5 --out out/paper/fig9
"""
import argparse
import pathlib
import sys
import warnings

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

ORDER = ["nicepim", "gp", "random", "annealing", "evolution"]


def quality_curve(cost: np.ndarray) -> np.ndarray:
    """Quality after each evaluation: mean of 1/cost over the best three so far (nan before)."""
    out = np.full(len(cost), np.nan)
    best: list[float] = []
    for i, c in enumerate(cost):
        if np.isfinite(c) and c > 0:
            best = sorted(best + [float(c)])[:3]
        if len(best) == 3:
            out[i] = np.mean([1.0 / b for b in best])
    return out


def read_run(path: pathlib.Path) -> tuple[str, int, np.ndarray]:
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") not in ("pimdse sweep", b"pimdse sweep"):
            raise ValueError("not a pimdse sweep file")
        proposer = f.attrs["proposer"]
        proposer = proposer.decode() if isinstance(proposer, bytes) else str(proposer)
        seed = int(f.attrs["seed"])
        committed = int(f["commit"][()][1]) if "commit" in f else len(f["candidates"])
        c = pd.DataFrame(f["candidates"][:committed])
    c = c.sort_values("candidate")
    cost = np.where(c["status"].to_numpy() == 0, c["cost"].to_numpy(dtype=float), np.inf)
    return proposer, seed, cost


def main() -> int:
    # Before the third feasible design a curve is undefined (nan): medians over it are too.
    warnings.filterwarnings("ignore", message="All-NaN slice encountered")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the first file's)")
    a = ap.parse_args()
    out = a.out or a.files[0].parent
    runs: dict[str, list[np.ndarray]] = {}
    for p in a.files:
        try:
            proposer, _seed, cost = read_run(p)
        except (OSError, KeyError, ValueError) as e:
            print(f"fig9.py: {p}: {e}", file=sys.stderr)
            return 3
        runs.setdefault(proposer, []).append(quality_curve(cost))
    n = min(len(q) for qs in runs.values() for q in qs)
    if n == 0:
        print("fig9.py: no evaluations in the files", file=sys.stderr)
        return 3
    names = [p for p in ORDER if p in runs] + sorted(set(runs) - set(ORDER))
    curves = {p: np.vstack([q[:n] for q in runs[p]]) for p in names}

    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = np.arange(1, n + 1)
    for p in names:
        q = curves[p]
        ax.plot(x, np.nanmedian(q, axis=0), label=f"{p} ({len(q)} seeds)")
        ax.fill_between(x, np.nanmin(q, axis=0), np.nanmax(q, axis=0), alpha=0.2)
    ax.set_xlabel("evaluations")
    ax.set_ylabel("design quality: mean 1/cost of the best three [1/(J s)]")
    ax.set_yscale("log")
    ax.set_title("NicePIM Fig. 9: tuners on the five DNNs (EDP)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "fig9.png", dpi=150)

    target = float(np.nanmedian(curves["random"][:, -1])) if "random" in curves else float("nan")
    lines = [f"Runs of {n} evaluations each (the shortest run sets n).", "",
             "| proposer | seeds | final quality median | min | max | evaluations to reach random's median final quality (median over seeds) |",
             "|---|---|---|---|---|---|"]
    for p in names:
        q = curves[p]
        final = q[:, -1]
        reach = []
        for row in q:
            hit = np.nonzero(np.nan_to_num(row, nan=0.0) >= target)[0]
            reach.append(hit[0] + 1 if len(hit) else np.inf)
        r = np.median(reach)
        lines.append(f"| {p} | {len(q)} | {np.nanmedian(final):.4g} | {np.nanmin(final):.4g} | {np.nanmax(final):.4g} | "
                     f"{'not reached' if not np.isfinite(r) else int(r)} |")
    (out / "fig9.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
