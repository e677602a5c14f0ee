#!/usr/bin/python3
"""NicePIM Fig. 9: design quality against evaluations, per proposer, over seeds.

Reads the sweep files of jobs/paper/fig9/run.sh (one `pimdse explore` per proposer and
seed). Design quality after n evaluations follows the paper (VIII-C): among the first n
candidates, the three with the lowest NicePIM Eq. 1 cost (EDP summed over the five DNNs,
alpha = beta = 1); quality is the mean of their reciprocal costs. Infeasible, failed and
timed-out candidates count as evaluations but never as designs. Draws the median over seeds
with the min-max band per proposer (fig9.png, .pdf, .svg) and writes fig9.md: final quality per
proposer (median, min, max over seeds) and the evaluations each needs to reach random
search's median final quality.

    /usr/bin/python3 postprocess/fig9.py out/paper/fig9/*.h5 --out out/paper/fig9

With --table FIG9.md (a fig9.md, such as jobs/paper/fig9/reference_table.md) it draws the
table instead: final quality per proposer, median with the min-max range over seeds, and
the evaluations each needed to reach random search's quality (fig9_final.png, .pdf, .svg).
"""
import argparse
import pathlib
import re
import sys
import warnings

import plotstyle  # noqa: F401  (the package path, the style)
import matplotlib.pyplot as plt
import numpy as np

import pimdse

ORDER = ["nicepim", "nicepim-subset", "gp", "gp-subset", "xgboost", "random", "annealing", "evolution"]


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


def read_run(path: pathlib.Path) -> tuple[str, int, np.ndarray, str]:
    """Proposer, seed, each evaluation's cost (inf unless ok) and the cost's unit."""
    with pimdse.Sweep(path) as s:
        c = s.candidates.sort_values("candidate")
        cost = np.where(c["status"] == "ok", c["cost"].to_numpy(dtype=float), np.inf)
        name = str(s.info.get("proposer", "?"))
        # The GP conditioned on the fitted subset only (posterior: subset) is its own curve.
        options = ((s.config() or {}).get("sweep", {}) or {}).get("proposer_options", {}) or {}
        if options.get("posterior") == "subset":
            name += "-subset"
        return name, int(s.info.get("seed", 0)), cost, s.cost_unit()


def draw(curves: dict[str, np.ndarray], n: int, unit: str, stem: pathlib.Path) -> None:
    """Median quality over seeds per proposer with its min-max band (PNG, PDF, SVG)."""
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    x = np.arange(1, n + 1)
    for p in curves:
        q = curves[p]
        line, = ax.plot(x, np.nanmedian(q, axis=0), lw=1.5, label=f"{p} ({plotstyle.plural(len(q), 'seed')})")
        ax.fill_between(x, np.nanmin(q, axis=0), np.nanmax(q, axis=0), color=line.get_color(), alpha=0.15, lw=0)
    ax.set_xlabel("evaluations")
    ax.set_ylabel(f"design quality ({unit})")
    ax.set_yscale("log")
    ax.set_xlim(1, n)
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title("NicePIM Fig. 9: mean 1/cost of the best three designs so far")
    # Outside the axes: the curves rise into every corner of the plot.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    plotstyle.save(fig, str(stem))


def draw_table(md: pathlib.Path, out: pathlib.Path) -> int:
    """The final qualities of a fig9.md table, one row per proposer."""
    rows = []
    for line in md.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] not in ("proposer", "") and not cells[0].startswith("-"):
            rows.append(cells)
    if not rows:
        print(f"fig9.py: {md}: no proposer rows (expected the table fig9.py writes)", file=sys.stderr)
        return 3
    n = re.search(r"Runs of (\d+) evaluations", md.read_text())
    fig, ax = plt.subplots(figsize=(5.0, 0.45 * len(rows) + 1.0))
    for y, (name, seeds, med, lo, hi, reach) in enumerate(rows):
        med, lo, hi = float(med), float(lo), float(hi)
        ax.errorbar(med, y, xerr=[[med - lo], [hi - med]], fmt="o", color="tab:blue", capsize=3, ms=5)
        ax.annotate(f"reaches random's quality: {reach}" + (" evals" if reach.isdigit() else ""), (hi, y),
                    xytext=(6, 0), textcoords="offset points", va="center", fontsize=7, color="0.3")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{r[0]} ({plotstyle.plural(r[1], 'seed')})" for r in rows])
    ax.invert_yaxis()
    ax.set_xscale("log")
    lo_all = min(float(r[3]) for r in rows)
    hi_all = max(float(r[4]) for r in rows)
    ax.set_xlim(lo_all / 1.5, hi_all * 6)  # room for the annotations on the right
    ax.set_xlabel("final design quality, mean 1/cost of the best three (1/(J s))")
    ax.grid(True, axis="x", which="major", alpha=0.3)
    ax.set_title(f"NicePIM Fig. 9 (smoke scale): after {n.group(1) if n else '?'} evaluations, median and range")
    for path in plotstyle.save(fig, str(out / "fig9_final")):
        print(f"wrote {path}")
    return 0


def main() -> int:
    # Before the third feasible design a curve is undefined (nan): medians over it are too.
    warnings.filterwarnings("ignore", message="All-NaN slice encountered")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the first file's)")
    ap.add_argument("--table", type=pathlib.Path, help="draw this fig9.md table instead of reading sweep files")
    a = ap.parse_args()
    if a.table:
        (a.out or a.table.parent).mkdir(parents=True, exist_ok=True)
        return draw_table(a.table, a.out or a.table.parent)
    if not a.files:
        ap.error("give the sweep files (or --table)")
    out = a.out or a.files[0].parent
    out.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[np.ndarray]] = {}
    units = set()
    for p in a.files:
        try:
            proposer, _seed, cost, unit = read_run(p)
        except (pimdse.SweepError, OSError, KeyError, ValueError) as e:
            print(f"fig9.py: {p}: {e}", file=sys.stderr)
            return 3
        units.add(unit)
        runs.setdefault(proposer, []).append(quality_curve(cost))
    n = min(len(q) for qs in runs.values() for q in qs)
    if n == 0:
        print("fig9.py: no evaluations in the files", file=sys.stderr)
        return 3
    names = [p for p in ORDER if p in runs] + sorted(set(runs) - set(ORDER))
    curves = {p: np.vstack([q[:n] for q in runs[p]]) for p in names}

    unit = units.pop() if len(units) == 1 else "1/cost"
    draw(curves, n, f"1/({unit})" if unit != "1/cost" else unit, out / "fig9")

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
