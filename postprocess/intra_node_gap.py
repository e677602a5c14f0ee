#!/usr/bin/python3
"""The fast intra-node search against the node optimum, per distinct part-layer.

Reads the runs.csv that jobs/intra-node-gap/run.sh writes (one row per system x network:
the `--layers` JSON documents of one mapping costed by the fast search and by the exact node
model minimising latency, energy and EDP) and writes gap_part_layers.csv, gap.md and the
figure gap.{png,pdf,svg}.

A layer row is the layer's part-layers on its nodes: `compute_cycles` is its slowest node's
cycles and the node energy (MACs, registers, buffers, DRAM accesses and activations; not the
NoC, which the node model does not choose) is summed over its nodes. Rows whose four costings
are the same numbers are one part-layer counted once; layers computed as a stream, and rows
not `ok` in every costing, are left out. Gaps, each as fast / optimum - 1:

- latency: cycles against the latency optimum;
- energy at equal latency: node energy against the latency optimum's (which breaks ties on
  energy), on the rows where the two have the same cycles;
- energy: node energy against the energy optimum (at any latency);
- EDP: cycles x node energy against the EDP optimum's. The optimum is per part-layer, so on a
  layer whose nodes have part-layers of several shapes the sum can come out below it.

    /usr/bin/python3 postprocess/intra_node_gap.py out/intra-node-gap/runs.csv --out out/intra-node-gap
"""
import argparse
import json
import pathlib
import sys

import pandas as pd

import plotstyle  # the style, the pimdse package on the path

COSTINGS = ["analytic", "latency", "energy", "edp"]
NODE_ENERGY = ["energy_pe_pj", "energy_register_pj", "energy_sram_pj", "energy_dram_access_pj",
               "energy_dram_activation_pj"]
GAPS = {"latency": "latency", "energy_equal_latency": "energy at equal latency",
        "energy": "energy", "edp": "EDP"}


def costing(path: pathlib.Path, label: str) -> pd.DataFrame:
    """One `--layers` JSON document's rows: index, cycles and node energy of each layer."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"intra_node_gap: {path}: {e}")
    rows = pd.DataFrame(doc["layers"])
    rows = rows[rows.tile_nodes > 0]  # part-layers on nodes, not streams
    return pd.DataFrame({"index": rows["index"], "layer": rows["layer"], "kind": rows["kind"],
                         f"ok_{label}": rows["status"] == "ok",
                         f"cycles_{label}": rows["compute_cycles"].astype(float),
                         f"energy_{label}": rows[NODE_ENERGY].sum(axis=1)})


def part_layers(runs: pd.DataFrame, base: pathlib.Path) -> pd.DataFrame:
    frames = []
    for run in runs.itertuples():
        d = None
        for label in COSTINGS:
            c = costing(base / getattr(run, label), label)
            d = c if d is None else d.merge(c, on=["index", "layer", "kind"], validate="1:1")
        d.insert(0, "network", run.network)
        d.insert(0, "system", run.system)
        frames.append(d)
    d = pd.concat(frames, ignore_index=True)
    d = d[d[[f"ok_{c}" for c in COSTINGS]].all(axis=1)].drop(columns=[f"ok_{c}" for c in COSTINGS])
    numbers = [f"{m}_{c}" for c in COSTINGS for m in ("cycles", "energy")]
    d = d.drop_duplicates(subset=["system", "kind"] + numbers).reset_index(drop=True)
    a, lat, en, edp = (d[f"cycles_{c}"] for c in COSTINGS)
    ea, elat, een, eedp = (d[f"energy_{c}"] for c in COSTINGS)
    d["gap_latency"] = a / lat - 1
    d["gap_energy_equal_latency"] = (ea / elat - 1).where(a == lat)
    d["gap_energy"] = ea / een - 1
    d["gap_edp"] = a * ea / (edp * eedp) - 1
    return d


def summary(d: pd.DataFrame) -> str:
    lines = ["| system | part-layers | gap | median | p90 | worst |", "|---|---|---|---|---|---|"]
    for system, g in list(d.groupby("system", sort=False)) + [("all", d)]:
        for key, name in GAPS.items():
            v = g[f"gap_{key}"].dropna()
            if v.empty:
                continue
            lines.append(f"| {system} | {len(v)} | {name} | {100 * v.median():.2f} % | "
                         f"{100 * v.quantile(0.9):.2f} % | {100 * v.max():.2f} % |")
    return "\n".join(lines) + "\n"


def draw(d: pd.DataFrame, stem: pathlib.Path) -> None:
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(GAPS), figsize=(10, 2.6), sharey=True)
    for ax, (key, name) in zip(axes, GAPS.items()):
        for system, g in d.groupby("system", sort=False):
            v = (100 * g[f"gap_{key}"].dropna()).sort_values().to_numpy()
            if len(v):
                ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post", label=system)
        ax.set_title(name)
        ax.set_xlabel("fast / optimum - 1 (%)")
    axes[0].set_ylabel("share of part-layers")
    axes[-1].legend(frameon=False)
    plotstyle.save(fig, stem)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("runs", type=pathlib.Path, help="runs.csv of jobs/intra-node-gap/run.sh")
    p.add_argument("--out", type=pathlib.Path, required=True, help="output directory")
    args = p.parse_args()
    runs = pd.read_csv(args.runs)
    d = part_layers(runs, args.runs.parent)
    if d.empty:
        sys.exit(f"intra_node_gap: no part-layer is ok in every costing of {args.runs}")
    args.out.mkdir(parents=True, exist_ok=True)
    d.to_csv(args.out / "gap_part_layers.csv", index=False)
    text = ("# The fast intra-node search against the node optimum\n\n"
            f"{len(d)} distinct part-layers from {runs.network.nunique()} networks on "
            f"{runs.system.nunique()} systems; gap = fast / optimum - 1.\n\n" + summary(d))
    (args.out / "gap.md").write_text(text)
    draw(d, args.out / "gap")
    print(text, end="")


if __name__ == "__main__":
    main()
