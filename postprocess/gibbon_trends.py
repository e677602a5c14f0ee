#!/usr/bin/python3
"""Gibbon's hardware trends, paper vs our crossbar model (jobs/paper/gibbon/run.sh).

Reads the `pimdse evaluate --crossbar --layers X.json` documents of run.sh (NET_xbarS_adcA.json)
and writes OUT/gibbon_trends.md (paper vs ours, the difference in points and whether it is
within 15, and where they differ the part of our model's breakdown that explains it) and
OUT/gibbon_trends.{png,pdf,svg}: energy by part over crossbar sizes and area by part over ADC
resolutions and crossbar sizes. Gibbon is Sun et al., "Gibbon: An Efficient Co-Exploration
Framework of NN Model and Processing-In-Memory Architecture" (Figs. 5-7 and 10, Insights 1
and 6, IV-B, Table IV).

  postprocess/gibbon_trends.py LAYERS_DIR --tables jobs/paper/gibbon/tables.csv --out DIR
"""
import argparse
import csv
import glob
import json
import os
import re

import plotstyle  # noqa: F401  (the style, before pyplot)
import matplotlib.pyplot as plt

PARTS = ["crossbar", "adc", "dac", "shift_add", "buffer", "noc"]
AREA_PARTS = ["crossbars", "adcs", "dacs", "shift_add", "buffers", "routers"]
NAMES = {"resnet18_cifar10": "ResNet-18 (CIFAR)", "vgg16_cifar10": "VGG16"}
# Table IV's networks: the paper's name -> ours (MNSIM 2.0's definitions, docs/workloads.md).
TABLE_IV = {"AlexNet": "alexnet_cifar10", "ResNet18": "resnet18_mnsim_cifar10", "VGG16": "vgg16_cifar10",
            "VGGM": "vggm_cifar10"}
# The paper's trends of Figs. 5-7 and Insight 1: (claim, ours, theirs, {metric: paper %}).
FIGURE_TRENDS = [
    ("Fig. 5: Gibbon's topology vs the baseline's", "gibbon_backbone_k3_g0", "gibbon_baseline",
     {"area": -25, "latency": -60, "energy": -90}),
    ("Fig. 6: 2x2 (SEP) vs 3x3 kernels", "gibbon_backbone_k2_g0", "gibbon_backbone_k3_g0",
     {"area": -40, "latency": -60, "energy": -70}),
    ("Insight 1: 2x2 vs 3x3 kernels", "gibbon_backbone_k2_g0", "gibbon_backbone_k3_g0", {"edp": -84, "area": -35}),
    ("Fig. 7: 50 % vs 0 % grouped convolutions", "gibbon_backbone_k3_g50", "gibbon_backbone_k3_g0",
     {"area": -10, "energy": -30}),
]


def metric(s, m):
    """A summary's metric: area mm2, latency ns, energy pJ, EDP (ms x mJ)."""
    return {"area": s["area_mm2"], "latency": s["latency_ns"], "energy": s["energy_pj"],
            "edp": s["latency_ns"] * 1e-6 * s["energy_pj"] * 1e-9}[m]


def change(a, b, m):
    """Our change of metric m from summary b to summary a, %."""
    return 100 * (metric(a, m) / metric(b, m) - 1)


def mover(a, b, parts, unit):
    """The part that moves most from b to a, for the explanation."""
    deltas = {p: a[unit.format(p)] - b[unit.format(p)] for p in parts}
    top = max(deltas, key=lambda p: abs(deltas[p]))
    total = sum(deltas.values())
    return f"{top} carries {100 * deltas[top] / total:.0f} % of the change" if total else "no change"


def load(d):
    runs = {}
    for path in glob.glob(os.path.join(d, "*.json")):
        m = re.match(r"(.+)_xbar(\d+)_adc(\d+)\.json$", os.path.basename(path))
        if m:
            doc = json.load(open(path))
            summary = dict(doc["summary"])
            summary["adc_conversions"] = sum(x["adc_conversions"] for x in doc["layers"])
            summary["layers"] = {x["layer"]: x for x in doc["layers"]}
            runs[(m[1], int(m[2]), int(m[3]))] = summary
    if not runs:
        raise SystemExit(f"gibbon_trends: no NET_xbarS_adcA.json in {d}")
    return runs


def spread(values):
    """(max - min) / max, as a share."""
    return (max(values) - min(values)) / max(values)


def head_share(b):
    """The share of b's energy in its head conv, which every variant shares (3 to 64 channels
    at 32x32, the most output positions): what no kernel, group or topology choice moves."""
    return 100 * b["layers"]["head"]["energy_pj"] / b["energy_pj"]


def stage_note(a, b, ours, theirs):
    """Why a pipelined latency barely moves: the slowest stage of each."""
    slow = lambda s: max(s["layers"].values(), key=lambda x: x["stage_ns"])
    sa, sb = slow(a), slow(b)
    return (f"pipelined latency is the slowest stage plus the others' fill: {theirs}'s is {sb['layer']} "
            f"({sb['stage_ns']:.4g} ns of {b['latency_ns']:.4g}), {ours}'s {sa['layer']} ({sa['stage_ns']:.4g} of "
            f"{a['latency_ns']:.4g}); a layer's crossbars read in parallel, so its stage follows its output "
            "positions and input cycles, not its kernel, groups or channels")


def figure_rows(runs, row):
    """Figs. 5-7 and Insight 1 on the representative candidates (128x128, 8-bit ADC)."""
    for claim, ours, theirs, paper in FIGURE_TRENDS:
        if (ours, 128, 8) not in runs or (theirs, 128, 8) not in runs:
            continue
        a, b = runs[(ours, 128, 8)], runs[(theirs, 128, 8)]
        for m, p in paper.items():
            c = change(a, b, m)
            why = {"area": mover(a, b, AREA_PARTS, "area_{}_mm2"), "latency": stage_note(a, b, ours, theirs),
                   "edp": "the product of the energy and latency changes above"}.get(m)
            if m == "energy":
                why = (f"{mover(a, b, PARTS, 'energy_{}_pj')}; the head conv both share is {head_share(b):.0f} % of "
                       f"{theirs}'s energy and {head_share(a):.0f} % of {ours}'s; ADC conversions follow output "
                       "positions x row blocks x columns, so 2.25x the rows (3x3 vs 2x2) cost at most 2.25x")
            verdict = "within 15 points" if abs(c - p) <= 15 else f"off by {c - p:+.0f} points"
            row(f"{claim}: {m}", f"{p:+d} %", f"{c:+.1f} % ({verdict})", why)


def table_iv_rows(runs, table, row):
    """Table IV's orderings and values for its four networks on the base design."""
    have = {name: runs[(net, 128, 8)] for name, net in TABLE_IV.items() if (net, 128, 8) in runs}
    if len(have) < 2:
        return
    for what, key, m in [("EDP", "edp_ms_mj", "edp"), ("area", "area_mm2", "area")]:
        paper = sorted(have, key=lambda n: float(table[n][key]))
        ours = sorted(have, key=lambda n: metric(have[n], m))
        row(f"Table IV ordering of {what}", " < ".join(paper), " < ".join(ours),
            "holds" if paper == ours else "differs: " + ", ".join(f"{n} {metric(have[n], m):.4g}" for n in ours))
    for name, s in have.items():
        p = table[name]
        ratios = [metric(s, "energy") * 1e-9 / float(p["energy_mj"]), metric(s, "latency") * 1e-6 /
                  float(p["latency_ms"]), metric(s, "area") / float(p["area_mm2"]),
                  metric(s, "edp") / float(p["edp_ms_mj"])]
        within = all(0.5 <= r <= 2 for r in ratios)
        row(f"{name} ({TABLE_IV[name]}): energy mJ / latency ms / area mm2 / EDP (Table IV; ours at 128x128, "
            "8-bit ADC)", f"{p['energy_mj']} / {p['latency_ms']} / {p['area_mm2']} / {p['edp_ms_mj']}",
            f"{s['energy_pj'] * 1e-9:.3g} / {s['latency_ns'] * 1e-6:.3g} / {s['area_mm2']:.4g} / "
            f"{metric(s, 'edp'):.3g}", "ratios to the paper " + ", ".join(f"{r:.2g}x" for r in ratios) +
            (" (all within 2x)" if within else " (not all within 2x)") +
            "; the paper does not state the design it costs these networks on")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("layers")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--out", default=".")
    a = ap.parse_args()
    runs = load(a.layers)
    nets = sorted({n for n, _, _ in runs})
    sizes = sorted({s for _, s, adc in runs if adc == 8})
    adcs = sorted({adc for _, s, adc in runs if s == 128})
    table = {r["method"]: r for r in csv.DictReader(ln for ln in open(a.tables) if not ln.startswith("#"))
             if r["table"] == "IV"}
    rows = []

    def row(claim, paper, ours, why):
        rows.append(f"| {claim} | {paper} | {ours} | {why} |")

    def share(s, p):
        return 100 * s[f"energy_{p}_pj"] / s["energy_pj"]

    sweeps = [n for n in nets if (n, 256, 8) in runs]
    for n in sweeps:
        s128, s256 = runs[(n, 128, 8)], runs[(n, 256, 8)]
        ours = 100 * (s256["energy_pj"] / s128["energy_pj"] - 1)
        adc = 100 * (s256["energy_adc_pj"] / s128["energy_adc_pj"] - 1)
        conv = 100 * (s256["adc_conversions"] / s128["adc_conversions"] - 1)
        rest = ", ".join(f"{p} {100 * (s256[f'energy_{p}_pj'] / s128[f'energy_{p}_pj'] - 1):+.1f} %"
                         for p in ("buffer", "noc"))
        row(f"{NAMES.get(n, n)}: energy of 256x256 vs 128x128 crossbars (Insight 6)", "-68 %", f"{ours:+.1f} %",
            f"ADC energy {adc:+.1f} % ({share(s128, 'adc'):.1f} % of the total at 128), following the ADC "
            f"conversions ({conv:+.1f} %): a column converts once per row block, and doubling the size at most "
            f"halves the row blocks; {rest}")
    for n in sweeps:
        s = runs[(n, 128, 8)]
        top = max(PARTS, key=lambda p: s[f"energy_{p}_pj"])
        row(f"{NAMES.get(n, n)}: ADC share of energy at 128x128, 8-bit ADC (IV-B)", "about 70 %",
            f"{share(s, 'adc'):.1f} %",
            f"largest part: {top}; " + ", ".join(f"{p} {share(s, p):.1f} %" for p in PARTS if p != "adc") +
            "; the paper's 70 % is MultiPrecision's figure, which Gibbon cites, not an MNSIM breakdown")
    for n in sweeps:
        by_adc = [runs[(n, 128, b)]["area_mm2"] for b in adcs]
        by_size = [runs[(n, x, 8)]["area_mm2"] for x in sizes]
        s = runs[(n, 128, 8)]
        row(f"{NAMES.get(n, n)}: area spread (max-min)/max over ADC bits {adcs} (Fig. 10)", "12 %",
            f"{100 * spread(by_adc):.1f} %",
            f"one-at-a-time around 128x128 (Gibbon: averages over its candidates); ADCs "
            f"{100 * s['area_adcs_mm2'] / s['area_mm2']:.1f} % of area, buffers "
            f"{100 * s['area_buffers_mm2'] / s['area_mm2']:.1f} %")
        row(f"{NAMES.get(n, n)}: area spread (max-min)/max over crossbar sizes {sizes} (Fig. 10)", "90 %",
            f"{100 * spread(by_size):.1f} %", "area min at size " +
            str(sizes[by_size.index(min(by_size))]) + ", max at " + str(sizes[by_size.index(max(by_size))]))
    figure_rows(runs, row)
    table_iv_rows(runs, table, row)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "gibbon_trends.md"), "w") as f:
        f.write("# Gibbon's hardware trends: paper vs our crossbar model\n\n"
                "Ours: `pimdse evaluate --crossbar` (MNSIM 2.0 constants, pipelined, polarity 2, every word line "
                "at once), DAC 1 b, cell 2 b, W9/A9, batch 1. No constant is tuned to match.\n\n"
                "| claim | paper | ours | why, from our breakdown |\n|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")

    fig, axes = plt.subplots(1, 3, figsize=(10, 3))
    n = sweeps[0]
    for ax, xs, key, parts, title, unit in [
            (axes[0], sizes, lambda x: (n, x, 8), PARTS, f"{NAMES.get(n, n)}: energy by part", "energy_{}_pj"),
            (axes[1], sizes, lambda x: (n, x, 8), AREA_PARTS, "area by crossbar size (8-bit ADC)", "area_{}_mm2"),
            (axes[2], adcs, lambda x: (n, 128, x), AREA_PARTS, "area by ADC bits (128x128)", "area_{}_mm2")]:
        bottom = [0.0] * len(xs)
        for p in parts:
            h = [runs[key(x)][unit.format(p)] * (1e-9 if "pj" in unit else 1) for x in xs]
            ax.bar([str(x) for x in xs], h, bottom=bottom, label=p)
            bottom = [b + v for b, v in zip(bottom, h)]
        ax.set_title(title)
        ax.set_ylabel("mJ" if "pj" in unit else "mm²")
        ax.legend(fontsize=6)
    axes[0].set_xlabel("crossbar size")
    axes[1].set_xlabel("crossbar size")
    axes[2].set_xlabel("ADC bits")
    plotstyle.save(fig, os.path.join(a.out, "gibbon_trends"))
    print(f"gibbon_trends: {len(rows)} rows; wrote {a.out}/gibbon_trends.md")


if __name__ == "__main__":
    main()
