#!/usr/bin/python3
"""The predictor filter and its cheap level against plain random search (jobs/predictor-filter/run.sh).

Reads the sweep files of the job: per seed one run of `random`, and runs of `random` behind
the predictor filter (proposer_options.filter), with or without its second level
(proposer_options.cheap_fidelity). For each seed: the plain run's final best Eq. 1 cost, the
evaluations each filtered run needed to reach it (or "not reached"), the fraction of the
budget saved, and the filtered runs' per-batch Kendall's tau and median relative error
(/tuner/batches predicted_tau and predicted_error, NaN before the predictor has two
successes) and the cheap level's tau (cheap_tau). Writes predictor_filter.md.

    /usr/bin/python3 postprocess/predictor_filter.py out/predictor-filter/*.h5 --out out/predictor-filter
"""
import argparse
import pathlib
import sys

import numpy as np

import plotstyle  # noqa: F401  (the package path)
import pimdse


def read_run(path: pathlib.Path) -> dict:
    """Mode (random or filter-PREDICTOR), seed, each evaluation's cost and the batch rows."""
    with pimdse.Sweep(path) as s:
        c = s.candidates.sort_values("candidate")
        cost = np.where(c["status"] == "ok", c["cost"].to_numpy(dtype=float), np.inf)
        options = ((s.config() or {}).get("sweep", {}) or {}).get("proposer_options", {}) or {}
        predictor = options.get("filter", "none")
        cheap = options.get("cheap_fidelity", "none")
        mode = "random" if predictor == "none" else f"filter-{predictor}"
        if cheap != "none":
            mode = ("cheap" if predictor == "none" else mode) + f"+{cheap}"
        b = s.batches.sort_values("batch")
        nan = np.full(len(b), np.nan)
        return {"mode": mode, "seed": int(s.info.get("seed", 0)), "cost": cost,
                "tau": b["predicted_tau"].to_numpy(dtype=float),
                "error": b["predicted_error"].to_numpy(dtype=float),
                "cheap_tau": b["cheap_tau"].to_numpy(dtype=float) if "cheap_tau" in b else nan}


def evaluations_to_reach(cost: np.ndarray, target: float) -> int | None:
    """1-based count of evaluations until the running best is at most target."""
    best = np.minimum.accumulate(cost)
    hit = np.nonzero(best <= target)[0]
    return int(hit[0]) + 1 if len(hit) else None


def fmt(values: np.ndarray) -> str:
    return " ".join("nan" if np.isnan(v) else f"{v:.2f}" for v in values)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    a = ap.parse_args()
    runs = [read_run(f) for f in a.files]
    plain = {r["seed"]: r for r in runs if r["mode"] == "random"}
    lines = ["| seed | mode | budget | final best cost | evaluations to random's final best | saved |",
             "|---|---|---|---|---|---|"]
    taus, saved, cheap_taus = {}, {}, {}
    for r in sorted(runs, key=lambda r: (r["seed"], r["mode"])):
        base = plain.get(r["seed"])
        if base is None:
            print(f"predictor_filter: no plain random run for seed {r['seed']}", file=sys.stderr)
            return 2
        target = float(np.min(base["cost"]))
        n = evaluations_to_reach(r["cost"], target)
        budget = len(r["cost"])
        frac = "" if n is None else f"{1 - n / len(base['cost']):.2f}"
        if r["mode"] != "random":
            taus.setdefault(r["mode"], []).extend(t for t in r["tau"] if not np.isnan(t))
            cheap_taus.setdefault(r["mode"], []).extend(t for t in r["cheap_tau"] if not np.isnan(t))
            saved.setdefault(r["mode"], []).append(np.nan if n is None else 1 - n / len(base["cost"]))
        lines.append(f"| {r['seed']} | {r['mode']} | {budget} | {np.min(r['cost']):.4g} | "
                     f"{'not reached' if n is None else n} | {frac} |")
    lines.append("")
    for r in sorted(runs, key=lambda r: (r["seed"], r["mode"])):
        if r["mode"] != "random":
            line = (f"- seed {r['seed']} {r['mode']}: tau per batch {fmt(r['tau'])}; "
                    f"median relative error per batch {fmt(r['error'])}")
            if not np.isnan(r["cheap_tau"]).all():
                line += f"; cheap-level tau per batch {fmt(r['cheap_tau'])}"
            lines.append(line)
    lines.append("")
    for mode in sorted(taus):
        t, c, f = taus[mode], cheap_taus[mode], np.array(saved[mode])
        reached = f[~np.isnan(f)]
        text = f"{mode}: median predictor tau {np.median(t):.3f} ({len(t)} batches)" if t else f"{mode}:"
        if c:
            text += f"; median cheap-level tau {np.median(c):.3f} ({len(c)} batches)"
        if len(reached):
            text += (f"; median fraction of evaluations saved {np.median(reached):.2f} "
                     f"({len(reached)} of {len(f)} seeds reached random's final best)")
        lines.append(text + ".")
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "predictor_filter.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
