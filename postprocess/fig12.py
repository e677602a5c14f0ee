#!/usr/bin/python3
"""NicePIM Fig. 12: normalised latency of one data-sharing event per node array and scheduler.

Reads the CSV that jobs/paper/fig12/run.sh writes (`pimdse schedule --csv`, one row per
array and scheduler), draws grouped bars of the latency normalised to one scheduler per array
(default SHP) to fig12.png (and .pdf, .svg) and writes the table to fig12.md.

usage: /usr/bin/python3 postprocess/fig12.py fig12.csv [--out DIR] [--normalise shp|tsp|ilp]
"""

import argparse
import csv
import pathlib
import sys

import plotstyle  # noqa: F401  (the style; PNG, PDF and SVG)
import matplotlib.pyplot as plt

SCHEDULERS = ["ilp", "tsp", "shp"]
LABELS = {"ilp": "ILP (Data-Scheduler)", "tsp": "TSP", "shp": "SHP"}
COLOURS = {"ilp": "#1b7837", "tsp": "#762a83", "shp": "#999999"}

# What NicePIM VIII-E says about Fig. 12. The paper prints the figure without its numbers,
# so the comparison is with these statements, not with bar heights.
PAPER = [
    "ILP has the smallest latency on every array (it balances link loads).",
    "SHP minimises hops but balances neither nodes nor links.",
    "TSP balances nodes (Hamilton cycle) but not links: its latency is still large in some cases.",
]


def read(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["mesh"], {})[r["scheduler"]] = r
    if not rows:
        sys.exit(f"fig12: {path} has no rows")
    for mesh, by in rows.items():
        missing = [s for s in SCHEDULERS if s not in by]
        if missing:
            sys.exit(f"fig12: {path}: mesh {mesh} lacks {', '.join(missing)}")
    # Arrays in ascending size: 4x4, 8x8, 16x16.
    return dict(sorted(rows.items(), key=lambda kv: int(kv[0].split("x")[0]) * int(kv[0].split("x")[1])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="directory (default: the CSV's)")
    ap.add_argument("--normalise", choices=SCHEDULERS, default="shp", help="the scheduler whose latency is 1")
    a = ap.parse_args()
    out = a.out or a.csv.parent
    out.mkdir(parents=True, exist_ok=True)
    data = read(a.csv)

    meshes = list(data)
    norm = {m: {s: float(data[m][s]["latency_cycles"]) / float(data[m][a.normalise]["latency_cycles"])
                for s in SCHEDULERS} for m in meshes}

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.26
    for k, s in enumerate(SCHEDULERS):
        xs = [i + (k - 1) * width for i in range(len(meshes))]
        ys = [norm[m][s] for m in meshes]
        bars = ax.bar(xs, ys, width, label=LABELS[s], color=COLOURS[s])
        for b, y in zip(bars, ys):
            ax.text(b.get_x() + b.get_width() / 2, y + 0.01, f"{y:.2f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(meshes)))
    def sets_label(m):
        n = int(data[m]["ilp"]["sets"])
        return f"{n} set{'s' if n != 1 else ''} of {data[m]['ilp']['set_size']}"

    ax.set_xticklabels([f"{m} array\n({sets_label(m)})" for m in meshes])
    ax.set_ylabel(f"latency / {a.normalise.upper()} latency")
    ax.set_ylim(0, max(max(v.values()) for v in norm.values()) * 1.3)
    first = data[meshes[0]]["ilp"]
    ax.set_title(f"Data sharing, {int(first['bytes']) // 1024} KiB per node, {first['flit_bits']}-bit flits "
                 "(NicePIM Fig. 12)", fontsize=9)
    ax.legend(fontsize=8, frameon=False, ncol=3, loc="upper center")
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    fig.tight_layout()
    png = plotstyle.save(fig, str(out / "fig12"))[0]

    lines = [
        "# NicePIM Fig. 12 reproduced: data-sharing latency by scheduler",
        "",
        f"Source: {a.csv.name} (`pimdse schedule --csv`). Latency in cycles of the whole event under the",
        "shared latency model (docs/model.md); `norm.` is the latency over "
        f"{a.normalise.upper()}'s on the same array; `/ ILP` over the ILP's.",
        "",
        "| array | sets | scheduler | max link flits | bound flits | latency cycles | norm. | / ILP "
        "| total hops | solve ms | gap | status |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in meshes:
        ilp = float(data[m]["ilp"]["latency_cycles"])
        for s in SCHEDULERS:
            r = data[m][s]
            lat = float(r["latency_cycles"])
            lines.append(
                f"| {m} | {r['sets']} x {r['set_size']} | {s.upper()} | {r['max_link_flits']} | {r['bound_flits']} "
                f"| {lat:.0f} | {norm[m][s]:.3f} | {lat / ilp:.3f} | {r['total_hops']} "
                f"| {1e3 * float(r['solve_seconds']):.1f} | {float(r['gap']):.3f} | {r['status']} |")
    ilp_lowest = all(float(data[m]["ilp"]["latency_cycles"]) <= min(float(data[m][s]["latency_cycles"])
                                                                    for s in SCHEDULERS) for m in meshes)
    lines += ["", "What the paper says about Fig. 12 (section VIII-E; the figure's bar values are not "
              "printed in the text):", ""]
    lines += [f"- {p}" for p in PAPER]
    lines += ["", f"Here: the ILP has the lowest latency on every array: {'yes' if ilp_lowest else 'NO'}."]
    md = out / "fig12.md"
    md.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nwrote {png} and {md}")
    return 0 if ilp_lowest else 1


if __name__ == "__main__":
    sys.exit(main())
