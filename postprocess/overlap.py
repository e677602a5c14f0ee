#!/usr/bin/python3
"""OverlaPIM Figs. 2, 6 and 7: how much consecutive layers overlap, per layer and per network.

Reads the runs.csv that jobs/paper/overlap/run.sh writes (one row per setting x system x
network: the `--layers` JSON documents of one mapping costed without overlap, with it and,
when the column `transformed` is there, with the overlap-friendly transformation) and writes
overlap_layers.csv (every layer: its sequential cycles, its overlapped start and finish, the
cycles it adds to the network's finish and its overlap share), overlap.csv (every network:
sequential, overlapped and transformed cycles and the speedups), overlap_table.md (ours
beside the paper's numbers) and the figure overlap.{png,pdf,svg}: (a) the per-layer overlap
share of ResNet-18 (Fig. 2 style), (b) the whole-network speedups (Fig. 6/7 style bars).

A layer's overlap share is the part of what it adds to the network's latency without
overlap that overlap hides: with a layer's added cycles its finish minus the latest finish
of the layers before it in network order (at least 0), the share is 1 - added overlapped /
added sequential, at least 0. The added cycles of a run sum to its latency, so the shares
weighted by the sequential added cycles give the whole network's saving. A layer that adds
nothing even in sequence (a branch on its own region beside a longer one) has no share.

    /usr/bin/python3 postprocess/overlap.py out/paper/overlap/runs.csv --out out/paper/overlap
"""
import argparse
import json
import pathlib
import sys

import pandas as pd

import plotstyle  # the style, the pimdse package on the path

WEIGHTED = {"conv", "matmul", "deconv"}
# OverlaPIM, sections V-B and V-C (its setting: one memory region per layer, Timeloop's
# best per-layer mappings). Fig. 6: Best Original Overlap over Best Original, then Best
# Overlap and Best Transform each over the one before, and Best Transform over Best Original.
PAPER = {
    "resnet18": {"original_overlap": 1.51, "overlap": 1.22, "transform": 1.14, "all": 2.10},
    "vgg16": {"original_overlap": 1.36, "overlap": 1.00, "transform": None, "all": 4.11},
}
PAPER_FIG2 = "13 of 20 layers below 20 %, the other 7 at 29-78 %"
SETTINGS = {"b": "(b) PIM-Mapper, whole array", "a": "(a) one band per segment",
            "d": "(d) one band per part (DDAM)"}


def load(path: pathlib.Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"overlap.py: {path}: {e}")


def added_cycles(finish: pd.Series) -> list:
    """What each layer, in network order, adds to the latest finish of the layers before it."""
    frontier, added = 0.0, []
    for f in finish:
        added.append(max(0.0, f - frontier))
        frontier = max(frontier, f)
    return added


def layer_rows(run, base: pathlib.Path) -> pd.DataFrame:
    """One row per layer of one run: its sequential and overlapped start and finish, the
    cycles it adds to the network's finish either way and its overlap share."""
    seq, ovl = load(base / run.sequential), load(base / run.overlapped)
    s = pd.DataFrame(seq["layers"]).set_index("index").sort_index()
    o = pd.DataFrame(ovl["layers"]).set_index("index").sort_index()
    for doc, t in ((run.sequential, s), (run.overlapped, o)):
        if "finish_cycles" not in t.columns:
            raise SystemExit(f"overlap.py: {doc}: no finish_cycles (a pimdse older than the per-layer timeline)")
    t = pd.DataFrame({"setting": run.setting, "system": run.system, "network": run.network,
                      "index": o.index, "layer": o.layer, "kind": o.kind,
                      "sequential_start_cycles": s.start_cycles, "sequential_finish_cycles": s.finish_cycles,
                      "start_cycles": o.start_cycles, "finish_cycles": o.finish_cycles,
                      "sequential_added_cycles": added_cycles(s.finish_cycles),
                      "added_cycles": added_cycles(o.finish_cycles)})
    # A layer that adds nothing even in sequence (a branch beside a longer one) has no share.
    t["overlap_share"] = (1.0 - t.added_cycles / t.sequential_added_cycles).clip(lower=0.0).where(
        t.sequential_added_cycles > 0)
    return t.reset_index(drop=True)


def network_row(run: pd.Series, base: pathlib.Path) -> dict:
    seq, ovl = load(base / run.sequential)["summary"], load(base / run.overlapped)["summary"]
    row = {"setting": run.setting, "system": run.system, "network": run.network,
           "sequential_cycles": seq["latency_cycles"], "overlapped_cycles": ovl["latency_cycles"],
           "speedup": seq["latency_cycles"] / ovl["latency_cycles"]}
    xf = getattr(run, "transformed", None)
    t = load(base / xf)["summary"]["latency_cycles"] if isinstance(xf, str) else float("nan")
    row["transformed_cycles"] = t
    row["transform_speedup"] = seq["latency_cycles"] / t  # Best Transform / Best Original's shape
    return row


def fig2_text(layers: pd.DataFrame) -> str:
    w = layers[layers.kind.isin(WEIGHTED) & layers.overlap_share.notna()]
    low = w[w.overlap_share < 0.2]
    rest = w[w.overlap_share >= 0.2]
    text = f"{len(low)} of {len(w)} layers below 20 %"
    if len(rest):
        text += f", the other {len(rest)} at {100 * rest.overlap_share.min():.0f}-{100 * rest.overlap_share.max():.0f} %"
    return text


def table(nets: pd.DataFrame, layers: pd.DataFrame) -> str:
    lines = ["| setting | system | network | sequential cycles | overlapped cycles | speedup | "
             "transformed cycles | speedup with the transform | paper: Original Overlap / Original | "
             "paper: Transform / Original |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in nets.itertuples():
        paper = PAPER.get(r.network, {})
        po, pa = paper.get("original_overlap"), paper.get("all")
        lines.append(f"| {r.setting} | {r.system} | {r.network} | {r.sequential_cycles:,.0f} | "
                     f"{r.overlapped_cycles:,.0f} | {r.speedup:.3f} | {r.transformed_cycles:,.0f} | "
                     f"{r.transform_speedup:.3f} | {po if po else '-'} | {pa if pa else '-'} |")
    lines += ["", "Paper, Fig. 6 (ResNet-18): Best Original Overlap 1.51x over Best Original, Best Overlap "
              "1.22x over that, Best Transform 1.14x over that, 2.10x in all; VGG-16: 1.36x for the first "
              "two, 4.11x with the transform. We cost one mapping (searched sequentially) three ways, so "
              "the transform column is the paper's Best Transform without its overlap-aware search.", "",
              "| setting | system | network | weighted layers: overlap share (Fig. 2) |", "|---|---|---|---|"]
    for (setting, system, network), g in layers.groupby(["setting", "system", "network"], sort=False):
        lines.append(f"| {setting} | {system} | {network} | {fig2_text(g)} |")
    lines += ["", f"Paper, Fig. 2 (ResNet-18, Timeloop's best per-layer mappings): {PAPER_FIG2}."]
    return "\n".join(lines) + "\n"


def draw(nets: pd.DataFrame, layers: pd.DataFrame, stem: pathlib.Path) -> None:
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.4), gridspec_kw={"width_ratios": [3, 2]})
    # Setting (b) as in the paper's Fig. 2, or the first setting run when (b) was not.
    setting = "b" if (layers.setting == "b").any() else layers.setting.iloc[0]
    r18 = layers[(layers.network == "resnet18") & layers.kind.isin(WEIGHTED) & (layers.setting == setting)]
    if r18.empty:  # the smoke's small network: the first network of that setting
        first = layers[layers.setting == setting].network.iloc[0]
        r18 = layers[(layers.network == first) & layers.kind.isin(WEIGHTED) & (layers.setting == setting)]
    systems = list(dict.fromkeys(r18.system))
    width = 0.8 / max(1, len(systems))
    for k, system in enumerate(systems):
        g = r18[r18.system == system].reset_index(drop=True)
        a.bar([i + (k - (len(systems) - 1) / 2) * width for i in range(len(g))], 100 * g.overlap_share, width,
              label=system)
    a.axhline(20, color="grey", linestyle="--", linewidth=0.8)
    a.set_xlabel(f"weighted layer of {r18.network.iloc[0] if len(r18) else '-'} (network order)")
    a.set_ylabel("overlap share of the layer [%]")
    a.set_title(f"(a) per-layer overlap, setting ({setting}); paper Fig. 2: " + PAPER_FIG2, fontsize=8)
    a.set_ylim(0, 105)
    a.legend(loc="upper right", frameon=False)
    labels, ours, moved, paper, paper_all = [], [], [], [], []
    for r in nets.itertuples():
        labels.append(f"({r.setting}) {r.network} {r.system.replace('nicepim_', '')}")
        ours.append(r.speedup)
        moved.append(r.transform_speedup)
        paper.append(PAPER.get(r.network, {}).get("original_overlap") or float("nan"))
        paper_all.append(PAPER.get(r.network, {}).get("all") or float("nan"))
    x = range(len(labels))
    w = 0.2
    b.bar([i - 1.5 * w for i in x], ours, w, label="ours: same mapping, overlapped / sequential")
    b.bar([i - 0.5 * w for i in x], moved, w, label="ours: with the transform / sequential")
    b.bar([i + 0.5 * w for i in x], paper, w, label="paper: Best Original Overlap / Best Original",
          color="white", edgecolor="black", hatch="//")
    b.bar([i + 1.5 * w for i in x], paper_all, w, label="paper: Best Transform / Best Original",
          color="white", edgecolor="black", hatch="xx")
    b.axhline(1.0, color="grey", linewidth=0.8)
    b.set_xticks(list(x), labels, fontsize=6, rotation=60, ha="right")
    b.set_ylim(0, 4.5)
    b.set_ylabel("speedup over sequential")
    b.set_title("(b) whole-network speedup (Fig. 6 style)", fontsize=8)
    b.legend(loc="upper left", frameon=False, fontsize=7, ncol=1)
    plotstyle.save(fig, str(stem))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=pathlib.Path, help="runs.csv of jobs/paper/overlap/run.sh")
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the CSV's)")
    a = ap.parse_args()
    out = a.out or a.runs.parent
    try:
        runs = pd.read_csv(a.runs)
    except (OSError, pd.errors.ParserError) as e:
        print(f"overlap.py: {a.runs}: {e}", file=sys.stderr)
        return 3
    need = {"setting", "system", "network", "sequential", "overlapped"}
    if not need <= set(runs.columns) or runs.empty:
        print(f"overlap.py: {a.runs}: expected the columns {sorted(need)} and at least one row", file=sys.stderr)
        return 3
    base = a.runs.parent
    layers = pd.concat([layer_rows(r, base) for r in runs.itertuples()], ignore_index=True)
    nets = pd.DataFrame([network_row(r, base) for r in runs.itertuples()])
    out.mkdir(parents=True, exist_ok=True)
    layers.to_csv(out / "overlap_layers.csv", index=False)
    nets.to_csv(out / "overlap.csv", index=False)
    (out / "overlap_table.md").write_text(table(nets, layers))
    draw(nets, layers, out / "overlap")
    print((out / "overlap_table.md").read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
