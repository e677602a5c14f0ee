#!/usr/bin/python3
"""HuNT's orderings and ratios (Figs. 3, 4, 9 and section IV-C), ours beside the paper's.

Reads the CSV that jobs/paper/hunt/run.sh writes (`pimdse evaluate --csv` of a hetero3d
file: one row per stack, network and ADC reading, the AMOSA front's best mapping by TOPS/W),
writes hunt.md (each claim of the paper, the paper's value and ours, per ADC reading) and
draws hunt.png (and .pdf, .svg): TOPS/W and TOPS/mm² of every stack for VGG-16.

usage: /usr/bin/python3 postprocess/hunt.py hunt.csv [--out DIR]
"""

import argparse
import pathlib
import sys

import pandas as pd
import plotstyle  # noqa: F401  (the style; PNG, PDF and SVG)
import matplotlib.pyplot as plt

RESNET34, VGG16, VGG11 = "resnet34_quarter_cifar10", "vgg16_half_cifar10", "vgg11_half_cifar10"
READINGS = ["table_ii_tile", "neurosim_column_mux"]
OBJECTIVES = ["latency_s", "area_mm2", "power_w", "err"]  # the four AMOSA objectives
HUNT = "RRFS"  # HuNT's best stack (IV-B, Fig. 4; Fig. 9's heterogeneous design)

# Section IV-C / Fig. 6 and Fig. 9: HuNT (RRFS) over each homogeneous stack.
PAPER_RATIOS = [  # (network, over, metric, paper's ratio, where)
    (VGG11, "SSSS", "tops_per_w", 10.0, "Fig. 9"),
    (VGG11, "FFFS", "tops_per_w", 3.0, "Fig. 9"),
    (VGG11, "RRRS", "tops_per_w", 1.2, "Fig. 9"),
    (VGG16, "SSSS", "tops_per_w", 10.0, "IV-C (~10x, Fig. 6)"),
    (VGG16, "SSSS", "tops_per_mm2", 8.0, "IV-C (~8x, Fig. 6)"),
    (VGG16, "RRRS", "tops_per_w", 1.2, "IV-C"),
    (VGG16, "RRRS", "tops_per_mm2", 1.3, "IV-C"),
    (VGG16, "FFFS", "tops_per_w", 2.6, "IV-C"),
    (VGG16, "FFFS", "tops_per_mm2", 1.5, "IV-C"),
]


def dominated(a, b):
    """b dominates a (all minimised)."""
    return all(y <= x for x, y in zip(a, b)) and any(y < x for x, y in zip(a, b))


def pareto(d):
    pts = d[OBJECTIVES].to_numpy()
    keep = [not any(dominated(p, q) for q in pts) for p in pts]
    return d[keep]


def fig3(d):
    """ResNet-34: heterogeneous Pareto stacks have SRAM at t4; SFFR has the worst Err."""
    front = pareto(d)
    hetero = [s for s in front["stack"] if len(set(s)) > 1]
    bad = [s for s in hetero if s[3] != "S"]
    worst = d.sort_values("err")["stack"].iloc[-1]
    return [
        ("Fig. 3", "every heterogeneous Pareto stack has SRAM at t4", "yes",
         "yes" if not bad else f"no: {', '.join(bad)} of {len(hetero)}"),
        ("Fig. 3", "the worst Err", "SFFR", f"{worst} (SFFR ranks {rank(d, 'SFFR', 'err')} of {len(d)})"),
    ]


def rank(d, stack, metric, high_first=True):
    order = d.sort_values(metric, ascending=not high_first)["stack"].tolist()
    return order.index(stack) + 1 if stack in order else "-"


def fig4(d):
    """VGG-16: RRFS the best TOPS/W and TOPS/mm², SSSS the worst."""
    rows = []
    for m, label in [("tops_per_w", "TOPS/W"), ("tops_per_mm2", "TOPS/mm²")]:
        best = d.sort_values(m)["stack"].iloc[-1]
        worst = d.sort_values(m)["stack"].iloc[0]
        rows.append(("Fig. 4", f"the best {label}", HUNT, f"{best} (RRFS ranks {rank(d, HUNT, m)} of {len(d)})"))
        rows.append(("Fig. 4", f"the worst {label}", "SSSS", f"{worst} (SSSS ranks {rank(d, 'SSSS', m)})"))
    return rows


def ratios(d):
    rows = []
    for net, over, m, paper, where in PAPER_RATIOS:
        by = d[d.network == net].set_index("stack")
        label = "TOPS/W" if m == "tops_per_w" else "TOPS/mm²"
        if HUNT not in by.index or over not in by.index:
            rows.append((where, f"{net}: RRFS / {over} {label}", f"{paper:g}x", "not run"))
            continue
        ours = by.loc[HUNT, m] / by.loc[over, m]
        rows.append((where, f"{net}: RRFS / {over} {label}", f"{paper:g}x",
                     f"{ours:.3g}x ({(ours / paper - 1) * 100:+.0f} %)"))
    return rows


def table(d):
    lines = []
    for reading in READINGS:
        r = d[d.adc_reading == reading]
        if r.empty:
            continue
        lines += [f"## ADC reading `{reading}`", "", "| where | claim | paper | ours |", "|---|---|---|---|"]
        rows = fig3(r[r.network == RESNET34]) + fig4(r[r.network == VGG16]) + ratios(r)
        lines += [f"| {a} | {b} | {c} | {e} |" for a, b, c, e in rows]
        lines += ["", "| network | stack | TOPS/W | TOPS/mm² | peak K | Err | step s |", "|---|---|---|---|---|---|---|"]
        for net in [RESNET34, VGG16, VGG11]:
            for s in ["SSSS", "FFFS", "RRRS", HUNT, "SFFR"]:
                x = r[(r.network == net) & (r["stack"] == s)]
                if not x.empty:
                    x = x.iloc[0]
                    lines.append(f"| {net} | {s} | {x.tops_per_w:.4g} | {x.tops_per_mm2:.4g} | "
                                 f"{x.peak_k:.1f} | {x.err:.4g} | {x.latency_s:.4g} |")
        lines.append("")
    return "\n".join(lines)


def plot(d, out):
    fig, axes = plt.subplots(2, 2, figsize=(12, 6), sharex=False)
    for col, reading in enumerate(READINGS):
        r = d[(d.adc_reading == reading) & (d.network == VGG16)].sort_values("tops_per_w", ascending=False)
        for row, (m, label) in enumerate([("tops_per_w", "TOPS/W"), ("tops_per_mm2", "TOPS/mm²")]):
            ax = axes[row][col]
            colours = ["#b2182b" if s == HUNT else "#999999" if s == "SSSS" else "#4393c3" for s in r["stack"]]
            ax.bar(range(len(r)), r[m], color=colours)
            ax.set_xticks(range(len(r)))
            ax.set_xticklabels(r["stack"], rotation=90, fontsize=5)
            ax.set_ylabel(label)
            ax.set_title(f"VGG-16 training, {reading} (red: RRFS, grey: SSSS)", fontsize=8)
    plotstyle.save(fig, out / "hunt")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv")
    p.add_argument("--out", default="out/paper/hunt")
    a = p.parse_args()
    d = pd.read_csv(a.csv)
    if d.empty:
        sys.exit(f"hunt: {a.csv} has no rows")
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "hunt.md").write_text("# HuNT: ours beside the paper's\n\n" + table(d) + "\n")
    plot(d, out)
    print(f"hunt: wrote {out / 'hunt.md'} and {out / 'hunt.png'}")


if __name__ == "__main__":
    main()
