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

import plotstyle  # the style and the paired-bar figure
import pandas as pd

# The energy components, in stacking order; register_pj only where the CSV has it (the cost
# model's operand registers), so that the bars add up to energy_pj either way.
PARTS = ["pe_pj", "sram_pj", "dram_pj", "noc_pj"]
LABELS = {"pe_pj": "PE", "register_pj": "registers", "sram_pj": "SRAM", "dram_pj": "DRAM", "noc_pj": "NoC"}
NAMES = {"nicepim_4x4": "4x4 nodes, 32x32 PEs, 128 KiB", "nicepim_16x16": "16x16 nodes, 8x8 PEs, 8 KiB"}


COLOURS = {"pe_pj": "#4c72b0", "register_pj": "#8fb0d9", "sram_pj": "#55a868", "dram_pj": "#c44e52",
           "noc_pj": "#8172b2"}


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

    plotstyle.paired_bars(t, out / "fig10", NAMES, (("M", "PIM-Mapper"), ("B", "baseline of NicePIM VIII-D")),
                          [(LABELS[p], LABELS[p] + " energy", COLOURS[p]) for p in parts],
                          ("latency_B_over_M", "latency"))
    print((out / "fig10_table.md").read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
