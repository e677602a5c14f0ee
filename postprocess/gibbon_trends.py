#!/usr/bin/python3
"""Gibbon's hardware trends, paper vs our crossbar model (jobs/paper/gibbon/run.sh).

Reads the `pimdse evaluate --crossbar --layers X.json` documents of run.sh (NET_xbarS_adcA.json)
and writes OUT/gibbon_trends.md (paper vs ours, the difference, and where they differ the
part of our model's breakdown that explains it) and OUT/gibbon_trends.{png,pdf,svg}: energy
by part over crossbar sizes and area by part over ADC resolutions and crossbar sizes.
Gibbon is Sun et al., "Gibbon: An Efficient Co-Exploration Framework of NN Model and
Processing-In-Memory Architecture" (Insight 6, IV-B, Fig. 10, Table IV).

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
NAMES = {"resnet18_cifar10": "ResNet18", "vgg16_cifar10": "VGG16"}


def load(d):
    runs = {}
    for path in glob.glob(os.path.join(d, "*.json")):
        m = re.match(r"(.+)_xbar(\d+)_adc(\d+)\.json$", os.path.basename(path))
        if m:
            doc = json.load(open(path))
            summary = dict(doc["summary"])
            summary["adc_conversions"] = sum(x["adc_conversions"] for x in doc["layers"])
            runs[(m[1], int(m[2]), int(m[3]))] = summary
    if not runs:
        raise SystemExit(f"gibbon_trends: no NET_xbarS_adcA.json in {d}")
    return runs


def spread(values):
    """(max - min) / max, as a share."""
    return (max(values) - min(values)) / max(values)


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

    for n in nets:
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
    for n in nets:
        s = runs[(n, 128, 8)]
        top = max(PARTS, key=lambda p: s[f"energy_{p}_pj"])
        row(f"{NAMES.get(n, n)}: ADC share of energy at 128x128, 8-bit ADC (IV-B)", "about 70 %",
            f"{share(s, 'adc'):.1f} %",
            f"largest part: {top}; " + ", ".join(f"{p} {share(s, p):.1f} %" for p in PARTS if p != "adc") +
            "; the paper's 70 % is MultiPrecision's figure, which Gibbon cites, not an MNSIM breakdown")
    for n in nets:
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
    if {"resnet18_cifar10", "vgg16_cifar10"} <= set(nets):
        r, v = runs[("resnet18_cifar10", 128, 8)], runs[("vgg16_cifar10", 128, 8)]
        edp = lambda s: s["latency_ns"] * 1e-6 * s["energy_pj"] * 1e-9
        for what, key, ours_r, ours_v in [("EDP", "edp_ms_mj", edp(r), edp(v)),
                                          ("area", "area_mm2", r["area_mm2"], v["area_mm2"])]:
            pr, pv = float(table["ResNet18"][key]), float(table["VGG16"][key])
            order = lambda a, b: "VGG16 > ResNet18" if b > a else "ResNet18 > VGG16"
            row(f"Table IV ordering of {what} (128x128, 8-bit ADC)", f"{order(pr, pv)} ({pv / pr:.2f}x)",
                f"{order(ours_r, ours_v)} ({ours_v / ours_r:.2f}x)",
                f"ours: ResNet18 {ours_r:.4g}, VGG16 {ours_v:.4g}; paper {pr}, {pv}; ADC conversions "
                f"(which carry the energy) ResNet18 {r['adc_conversions']:.3g}, VGG16 {v['adc_conversions']:.3g}")
        for name, s in [("ResNet18", r), ("VGG16", v)]:
            p = table[name]
            row(f"{name}: energy mJ / latency ms / area mm2 (Table IV; ours at 128x128, 8-bit ADC)",
                f"{p['energy_mj']} / {p['latency_ms']} / {p['area_mm2']}",
                f"{s['energy_pj'] * 1e-9:.3g} / {s['latency_ns'] * 1e-6:.3g} / {s['area_mm2']:.4g}",
                f"energy {s['energy_pj'] * 1e-9 / float(p['energy_mj']):.2g}x the paper's; Gibbon's design for "
                f"these networks is not stated")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "gibbon_trends.md"), "w") as f:
        f.write("# Gibbon's hardware trends: paper vs our crossbar model\n\n"
                "Ours: `pimdse evaluate --crossbar` (MNSIM 2.0 constants, pipelined, polarity 2, every word line "
                "at once), DAC 1 b, cell 2 b, W9/A9, batch 1. No constant is tuned to match.\n\n"
                "| claim | paper | ours | why, from our breakdown |\n|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")

    fig, axes = plt.subplots(1, 3, figsize=(10, 3))
    n = nets[0]
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
