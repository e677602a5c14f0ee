#!/usr/bin/python3
"""Hypervolume of the Pareto front against evaluations, per tuner mode, over seeds.

Reads the sweep files of jobs/tuner-front/run.sh (one `pimdse explore` per mode and seed).
A run's mode is its proposer (`random`) or, for a model proposer, its
`sweep.proposer_options.scalarisation` (`eq1`, the default, or `parego`), read from the
file's resolved configuration. After n evaluations the front is that of the first n
candidates' ok results over the sweep's objectives (all minimised), and its hypervolume is
taken against one reference point for every file: 1.1 x the worst value of each objective
over the ok candidates of all files. It is reported as a fraction of the box between the
best value of each objective over all files and that reference, so that 1 would be one
design at the best of everything, twice: in the objectives' units (the sweep file's
hypervolume, up to the reference), where the box is dominated by the worst decades of
latency and energy and every front fills most of it, and in log10 of every objective,
where each decade counts alike and fronts that differ at the good end differ in volume.
Draws the log measure's median over seeds with the min-max band per mode
(tuner_front.png, .pdf, .svg) and writes tuner_front.md: both final hypervolumes per mode
and seed.

    /usr/bin/python3 postprocess/tuner_front.py out/tuner-front/*.h5 --out out/tuner-front
"""
import argparse
import pathlib
import sys

import plotstyle  # noqa: F401  (the package path, the style)
import matplotlib.pyplot as plt
import numpy as np

import pimdse

ORDER = ["parego", "eq1", "random"]
# /candidates fields of the objectives this script knows (docs/output.md).
FIELDS = {"latency": "latency_s", "energy": "energy_j", "area": "area_mm2", "cost": "cost"}


def read_run(path: pathlib.Path) -> tuple[str, str, int, np.ndarray]:
    """Mode, proposer, seed and the objectives of every candidate in id order (inf unless ok)."""
    with pimdse.Sweep(path) as s:
        objectives = s.objectives
        unknown = [o for o in objectives if o not in FIELDS]
        if unknown:
            raise ValueError(f"objectives {', '.join(unknown)} not read by this script (known: {', '.join(FIELDS)})")
        c = s.candidates.sort_values("candidate")
        ok = (c["status"] == "ok").to_numpy()
        f = np.column_stack([c[FIELDS[o]].to_numpy(dtype=float) for o in objectives])
        f[~ok] = np.inf
        proposer = str(s.info.get("proposer", "?"))
        options = ((s.config() or {}).get("sweep", {}) or {}).get("proposer_options", {}) or {}
        mode = "random" if proposer == "random" else str(options.get("scalarisation", "eq1"))
        return mode, proposer, int(s.info.get("seed", 0)), f


def hypervolume(points: np.ndarray, ref: np.ndarray) -> float:
    """Exact hypervolume (minimisation) of 2 or 3 objectives: slabs along the last objective,
    each the 2-D staircase area of the points below it."""
    p = points[np.all(points < ref, axis=1)]
    if len(p) == 0:
        return 0.0
    if p.shape[1] == 2:
        area, y = 0.0, ref[1]
        for x, yy in sorted(map(tuple, p)):
            if yy < y:
                area += (ref[0] - x) * (y - yy)
                y = yy
        return area
    p = p[np.argsort(p[:, 2], kind="stable")]
    vol = 0.0
    for i in range(len(p)):
        top = p[i + 1, 2] if i + 1 < len(p) else ref[2]
        if top > p[i, 2]:
            vol += hypervolume(p[: i + 1, :2], ref[:2]) * (top - p[i, 2])
    return vol


def front_of(points: list[np.ndarray]) -> list[np.ndarray]:
    """The non-dominated ones."""
    return [a for a in points if not any(np.all(b <= a) and np.any(b < a) for b in points)]


def curve(f: np.ndarray, ref: np.ndarray, box: float) -> np.ndarray:
    """The normalised hypervolume after each evaluation."""
    out = np.zeros(len(f))
    front: list[np.ndarray] = []
    hv = 0.0
    for i, row in enumerate(f):
        if np.all(np.isfinite(row)) and not any(np.all(b <= row) for b in front):
            front = front_of(front + [row])
            hv = hypervolume(np.array(front), ref) / box
        out[i] = hv
    return out


def draw(curves: dict[str, np.ndarray], n: int, objectives: str, stem: pathlib.Path) -> None:
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    x = np.arange(1, n + 1)
    for m, h in curves.items():
        line, = ax.plot(x, np.median(h, axis=0), lw=1.5, label=f"{m} ({plotstyle.plural(len(h), 'seed')})")
        ax.fill_between(x, h.min(axis=0), h.max(axis=0), color=line.get_color(), alpha=0.15, lw=0)
    ax.set_xlabel("evaluations")
    ax.set_ylabel("hypervolume of log10 objectives (fraction)")
    ax.set_xlim(1, n)
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(f"Front over {objectives}: median and range over seeds")
    ax.legend(loc="lower right", frameon=False)
    plotstyle.save(fig, str(stem))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the first file's)")
    a = ap.parse_args()
    out = a.out or a.files[0].parent
    out.mkdir(parents=True, exist_ok=True)
    runs = []
    for p in a.files:
        try:
            runs.append(read_run(p))
        except (pimdse.SweepError, OSError, KeyError, ValueError) as e:
            print(f"tuner_front.py: {p}: {e}", file=sys.stderr)
            return 3
    if len({r[3].shape[1] for r in runs}) != 1:
        print("tuner_front.py: the files have different objectives", file=sys.stderr)
        return 3
    ok = np.vstack([r[3][np.all(np.isfinite(r[3]), axis=1)] for r in runs])
    if len(ok) == 0:
        print("tuner_front.py: no ok candidate in the files", file=sys.stderr)
        return 3
    ref = 1.1 * ok.max(axis=0)
    ideal = ok.min(axis=0)
    box = float(np.prod(ref - ideal))
    n = min(len(r[3]) for r in runs)
    log_ref, log_ideal = np.log10(ref), np.log10(ideal)
    log_box = float(np.prod(log_ref - log_ideal))
    by_mode: dict[str, list[tuple[int, str, np.ndarray, np.ndarray]]] = {}
    for mode, proposer, seed, f in runs:
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.where(np.isfinite(f), np.log10(f), np.inf)
        by_mode.setdefault(mode, []).append(
            (seed, proposer, curve(logs[:n], log_ref, log_box), curve(f[:n], ref, box)))
    names = [m for m in ORDER if m in by_mode] + sorted(set(by_mode) - set(ORDER))
    curves = {m: np.vstack([c[2] for c in sorted(by_mode[m], key=lambda t: t[0])]) for m in names}
    with pimdse.Sweep(a.files[0]) as s:
        objectives = ", ".join(s.objectives)
    draw(curves, n, objectives, out / "tuner_front")
    lines = [f"Runs of {n} evaluations each (the shortest run sets n); objectives {objectives}; reference "
             f"{', '.join(f'{v:.4g}' for v in ref)} (1.1 x the worst ok value over all files); hypervolume as a "
             "fraction of the box from the best value of each objective over all files to the reference, in log10 "
             "of the objectives and in their units.", "",
             "| mode | proposer | seed | final hypervolume (log10) | final hypervolume (units) |", "|---|---|---|---|---|"]
    for m in names:
        for seed, proposer, lc, c in sorted(by_mode[m], key=lambda t: t[0]):
            lines.append(f"| {m} | {proposer} | {seed} | {lc[n - 1]:.4f} | {c[n - 1]:.4f} |")
    lines += ["", "| mode | median final hypervolume (log10) | min | max |", "|---|---|---|---|"]
    for m in names:
        final = curves[m][:, -1]
        lines.append(f"| {m} | {np.median(final):.4f} | {final.min():.4f} | {final.max():.4f} |")
    (out / "tuner_front.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
