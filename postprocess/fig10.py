#!/usr/bin/python3
"""NicePIM Fig. 10: PIM-Mapper (M) against the baseline (B) on two DRAM-PIM systems.

Reads the CSV that jobs/paper/fig10/run.sh writes (`pimdse map --csv`), draws per system
and network the energy of M and B split into PE, registers (where the CSV has them), SRAM,
DRAM and NoC (bars) and their
latency (markers), both normalised to the PIM-Mapper as in the paper, and writes a table
with the reductions. The paper reports 37 % lower latency and 28 % lower energy on average
over both systems and five DNNs.

    /usr/bin/python3 postprocess/fig10.py out/paper/fig10/map_rows.csv --out out/paper/fig10
"""
import argparse
import pathlib
import sys

import plotstyle  # noqa: F401  (the style)
import matplotlib.pyplot as plt
import matplotlib.transforms as transforms
import pandas as pd

# The energy components, in stacking order; register_pj only where the CSV has it (the cost
# model's operand registers), so that the bars add up to energy_pj either way.
PARTS = ["pe_pj", "sram_pj", "dram_pj", "noc_pj"]
LABELS = {"pe_pj": "PE", "register_pj": "registers", "sram_pj": "SRAM", "dram_pj": "DRAM", "noc_pj": "NoC"}
NAMES = {"nicepim_4x4": "4x4 nodes, 32x32 PEs, 128 KiB", "nicepim_16x16": "16x16 nodes, 8x8 PEs, 8 KiB"}


COLOURS = {"pe_pj": "#4c72b0", "register_pj": "#8fb0d9", "sram_pj": "#55a868", "dram_pj": "#c44e52",
           "noc_pj": "#8172b2"}


def draw(t: pd.DataFrame, stem: pathlib.Path) -> None:
    """Per system: stacked energy bars of M and B and their latency (diamonds), all normalised
    to the PIM-Mapper's, on one axis whose top leaves room for the tallest bar or marker."""
    systems = [s for s in NAMES if s in set(t.system)] or sorted(set(t.system))
    fig, axes = plt.subplots(1, len(systems), figsize=(4.0 * len(systems), 3.0), squeeze=False)
    for ax, system in zip(axes[0], systems):
        sub = t[t.system == system].reset_index(drop=True)
        top = 1.0
        for i, r in sub.iterrows():
            for j, who in enumerate(["M", "B"]):
                x = 3 * i + j
                bottom = 0.0
                for p in [p for p in LABELS if f"{who}_{LABELS[p]}" in r]:
                    v = r[f"{who}_{LABELS[p]}"]
                    ax.bar(x, v, bottom=bottom, width=0.85, color=COLOURS[p], label=LABELS[p] + " energy")
                    bottom += v
                top = max(top, bottom)
            ax.plot([3 * i, 3 * i + 1], [1.0, r.latency_B_over_M], "k-", lw=0.8)
            ax.plot([3 * i, 3 * i + 1], [1.0, r.latency_B_over_M], "kD", ms=3.5, label="latency")
            top = max(top, r.latency_B_over_M)
        ax.set_ylim(0, top * 1.08)
        ax.set_xlim(-0.7, 3 * len(sub) - 1.3)
        ax.set_xticks([3 * i + j for i in range(len(sub)) for j in range(2)])
        ax.set_xticklabels(["M", "B"] * len(sub), fontsize=7)
        ax.tick_params(axis="x", length=0, pad=2)
        below = transforms.blended_transform_factory(ax.transData, ax.transAxes)
        for i, name in enumerate(sub.network):
            ax.text(3 * i + 0.5, -0.11, name.replace("_", "-"), transform=below, ha="center", va="top", fontsize=8)
        ax.set_ylabel("normalised to the PIM-Mapper (M)")
        ax.set_title(NAMES.get(system, system))
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    handles, labels = axes[0][0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))  # one entry per label
    fig.legend(seen.values(), seen.keys(), loc="upper center", ncol=len(seen), frameon=False,
               bbox_to_anchor=(0.5, 1.08), columnspacing=1.2, handlelength=1.5)
    fig.tight_layout()
    plotstyle.save(fig, str(stem))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the CSV's)")
    a = ap.parse_args()
    out = a.out or a.csv.parent
    out.mkdir(parents=True, exist_ok=True)
    try:
        df = pd.read_csv(a.csv)
    except (OSError, pd.errors.ParserError) as e:
        print(f"fig10.py: {a.csv}: {e}", file=sys.stderr)
        return 3
    need = {"hardware", "network", "mapper", "latency_cycles", "energy_pj", *PARTS}
    if not need <= set(df.columns) or not {"nicepim", "baseline"} <= set(df["mapper"]):
        print(f"fig10.py: {a.csv}: expected `pimdse map --csv` rows of both mappers", file=sys.stderr)
        return 3
    parts = [p for p in LABELS if p in df.columns]
    m = df[df.mapper == "nicepim"].set_index(["hardware", "network"])
    b = df[df.mapper == "baseline"].set_index(["hardware", "network"])
    keys = [k for k in m.index if k in b.index]

    rows = []
    for k in keys:
        rows.append({
            "system": k[0], "network": k[1],
            "latency_B_over_M": b.loc[k, "latency_cycles"] / m.loc[k, "latency_cycles"],
            "energy_B_over_M": b.loc[k, "energy_pj"] / m.loc[k, "energy_pj"],
            "latency_reduction_pct": 100 * (1 - m.loc[k, "latency_cycles"] / b.loc[k, "latency_cycles"]),
            "energy_reduction_pct": 100 * (1 - m.loc[k, "energy_pj"] / b.loc[k, "energy_pj"]),
            **{f"M_{LABELS[p]}": m.loc[k, p] / m.loc[k, "energy_pj"] for p in parts},
            **{f"B_{LABELS[p]}": b.loc[k, p] / m.loc[k, "energy_pj"] for p in parts},
        })
    t = pd.DataFrame(rows)
    t.to_csv(out / "fig10_table.csv", index=False)
    with open(out / "fig10_table.md", "w") as f:
        f.write("| system | network | latency B/M | energy B/M | latency reduction | energy reduction |\n")
        f.write("|---|---|---|---|---|---|\n")
        for r in t.itertuples():
            f.write(f"| {r.system} | {r.network} | {r.latency_B_over_M:.3f} | {r.energy_B_over_M:.3f} | "
                    f"{r.latency_reduction_pct:.1f} % | {r.energy_reduction_pct:.1f} % |\n")
        f.write(f"| mean | | {t.latency_B_over_M.mean():.3f} | {t.energy_B_over_M.mean():.3f} | "
                f"{t.latency_reduction_pct.mean():.1f} % | {t.energy_reduction_pct.mean():.1f} % |\n")
        f.write("\nNicePIM Fig. 10 reports 37 % (latency) and 28 % (energy) average reductions.\n")

    draw(t, out / "fig10")
    print((out / "fig10_table.md").read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
