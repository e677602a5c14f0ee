#!/usr/bin/python3
"""NicePIM Fig. 11: PIM-Mapper (M) against DDAM's pipelined mapping (D) on two DRAM-PIM systems.

Reads the `pimdse map --csv` rows that jobs/paper/fig11/run.sh collects (both mappers at
several batch sizes), keeps each mapper's best throughput per system and network and writes
them to fig11.csv (energy per sample in joules, the latency of that batch and of one sample),
draws per system and network the energy per sample of M and D split into components (bars)
and their throughput (markers), both normalised to the PIM-Mapper as in the paper, and writes
a table. The paper reports 11 % higher throughput for the PIM-Mapper on average, DDAM's NoC
energy much smaller and its latency about 10x worse.

    /usr/bin/python3 postprocess/fig11.py out/paper/fig11/map_rows.csv --out out/paper/fig11
"""
import argparse
import pathlib
import sys

import pandas as pd

import plotstyle  # the style and the paired-bar figure

PARTS = {"pe_j": "PE", "register_j": "registers", "sram_j": "SRAM", "dram_access_j": "DRAM access",
         "dram_activation_j": "DRAM activation", "dram_background_j": "DRAM background", "noc_j": "NoC"}
COLORS = ["#4c72b0", "#64b5cd", "#55a868", "#c44e52", "#dd8452", "#937860", "#8172b2"]
NAMES = {"nicepim_4x4": "4 x 4 nodes, 32 x 32 PEs, 128 KiB", "nicepim_16x16": "16 x 16 nodes, 8 x 8 PEs, 8 KiB"}


def best_batches(rows: pd.DataFrame) -> pd.DataFrame:
    """Each system x network x mapper at its best throughput, per sample in joules."""
    d = rows.reset_index(drop=True)
    best = d.loc[d.groupby(["hardware", "network", "mapper"], sort=False).throughput_per_s.idxmax()]
    one = d[d.batch == 1].set_index(["hardware", "network", "mapper"]).seconds_at_clock
    t = pd.DataFrame({"system": best.hardware, "network": best.network, "mapper": best.mapper,
                      "batch": best.batch, "throughput_per_s": best.throughput_per_s,
                      "latency_s": best.seconds_at_clock,
                      "latency_1_s": [one.get((h, n, m), float("nan"))
                                      for h, n, m in zip(best.hardware, best.network, best.mapper)],
                      "energy_j": best.energy_pj * 1e-12 / best.batch})
    for c in ["pe", "register", "sram", "dram_access", "dram_activation", "dram_background", "noc"]:
        t[c + "_j"] = best[c + "_pj"] * 1e-12 / best.batch
    return t.reset_index(drop=True)


def table(df: pd.DataFrame) -> pd.DataFrame:
    m = df[df.mapper == "nicepim"].set_index(["system", "network"])
    d = df[df.mapper == "ddam"].set_index(["system", "network"])
    rows = []
    for k in [k for k in m.index if k in d.index]:
        rows.append({
            "system": k[0], "network": k[1],
            "batch_M": int(m.loc[k, "batch"]), "batch_D": int(d.loc[k, "batch"]),
            "throughput_M_over_D": m.loc[k, "throughput_per_s"] / d.loc[k, "throughput_per_s"],
            "energy_D_over_M": d.loc[k, "energy_j"] / m.loc[k, "energy_j"],
            "noc_D_over_M": d.loc[k, "noc_j"] / m.loc[k, "noc_j"] if m.loc[k, "noc_j"] > 0 else float("nan"),
            "latency_D_over_M": d.loc[k, "latency_1_s"] / m.loc[k, "latency_1_s"],
            **{f"M_{p}": m.loc[k, p] / m.loc[k, "energy_j"] for p in PARTS},
            **{f"D_{p}": d.loc[k, p] / m.loc[k, "energy_j"] for p in PARTS},
        })
    return pd.DataFrame(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="output directory (default: the CSV's)")
    a = ap.parse_args()
    out = a.out or a.csv.parent
    try:
        rows = pd.read_csv(a.csv)
    except (OSError, pd.errors.ParserError) as e:
        print(f"fig11.py: {a.csv}: {e}", file=sys.stderr)
        return 3
    need = {"hardware", "network", "mapper", "batch", "throughput_per_s", "seconds_at_clock", "energy_pj",
            "noc_pj", "register_pj"}
    if not need <= set(rows.columns) or not {"nicepim", "ddam"} <= set(rows["mapper"]):
        print(f"fig11.py: {a.csv}: expected `pimdse map --csv` rows of both mappers (nicepim, ddam)",
              file=sys.stderr)
        return 3
    out.mkdir(parents=True, exist_ok=True)
    df = best_batches(rows)
    df.to_csv(out / "fig11.csv", index=False)
    t = table(df)
    t.to_csv(out / "fig11_table.csv", index=False)
    lines = ["| system | network | best batch M / D | throughput M/D | energy D/M | NoC energy D/M | "
             "latency of one sample D/M |", "|---|---|---|---|---|---|---|"]
    for r in t.itertuples():
        lines.append(f"| {r.system} | {r.network} | {r.batch_M} / {r.batch_D} | {r.throughput_M_over_D:.3f} | "
                     f"{r.energy_D_over_M:.3f} | {r.noc_D_over_M:.3f} | {r.latency_D_over_M:.2f} |")
    lines.append(f"| mean | | | {t.throughput_M_over_D.mean():.3f} | {t.energy_D_over_M.mean():.3f} | "
                 f"{t.noc_D_over_M.mean():.3f} | {t.latency_D_over_M.mean():.2f} |")
    lines.append("")
    lines.append("NicePIM Fig. 11 reports 11 % higher throughput for the PIM-Mapper on average (M/D = 1.11), "
                 "similar energy except DDAM's much smaller NoC energy, and DDAM's latency about 10x worse.")
    (out / "fig11_table.md").write_text("\n".join(lines) + "\n")

    t["throughput_D_over_M"] = 1.0 / t.throughput_M_over_D
    plotstyle.paired_bars(t, out / "fig11", NAMES, (("M", "PIM-Mapper"), ("D", "DDAM pipeline (NicePIM VIII-D)")),
                          [(p, label + " energy", colour) for (p, label), colour in zip(PARTS.items(), COLORS)],
                          ("throughput_D_over_M", "throughput"))
    print((out / "fig11_table.md").read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
