"""What every postprocess figure shares: the pimdse package on the path, a paper style
(readable fonts, no top/right spines), and saving as PNG, PDF and SVG side by side."""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

# The package next to the scripts: python/ in the source tree, share/pimdse/python beside
# share/pimdse/postprocess when installed (README.md, "Install").
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

FORMATS = ("png", "pdf", "svg")

plt.rcParams.update({
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.05,
    "svg.fonttype": "none",  # text stays text in the SVG
    "pdf.fonttype": 42,      # TrueType in the PDF, as publishers ask
})


def save(fig, stem):
    """Writes `stem`.png (150 dpi), .pdf and .svg; returns the paths."""
    paths = []
    for ext in FORMATS:
        path = f"{stem}.{ext}"
        fig.savefig(path, dpi=150 if ext == "png" else None)
        paths.append(path)
    plt.close(fig)
    return paths


def plural(n, word):
    """'1 seed', '3 seeds'."""
    return f"{n} {word}" if int(n) == 1 else f"{n} {word}s"


def paired_bars(t, stem, titles, pair, parts, marker):
    """The paper's Fig. 10/11 layout, one panel per system: per network two stacked bars (the
    PIM-Mapper and the other mapper, `pair`, e.g. (("M", "PIM-Mapper"), ("B", "baseline"))
    as (tick letter, what it stands for), spelled out under the panels) whose segments are the
    columns f"{letter}_{key}" for (key, label, colour) in `parts`, normalised by the caller,
    and a marker pair joined by a line: 1.0 for the first and column `marker[0]` for the
    second, labelled `marker[1]`. `t` has a `system` and a `network` column; `titles` maps
    systems to titles."""
    names = pair
    pair = tuple(letter for letter, _ in names)
    import matplotlib.transforms as transforms

    systems = [s for s in titles if s in set(t.system)] or sorted(set(t.system))
    fig, axes = plt.subplots(1, len(systems), figsize=(4.2 * len(systems), 3.0), squeeze=False)
    for ax, system in zip(axes[0], systems):
        sub = t[t.system == system].reset_index(drop=True)
        top = 1.0
        for i, r in sub.iterrows():
            for j, who in enumerate(pair):
                bottom = 0.0
                for key, label, colour in parts:
                    if f"{who}_{key}" not in r:
                        continue
                    v = r[f"{who}_{key}"]
                    ax.bar(3 * i + j, v, bottom=bottom, width=0.85, color=colour, label=label)
                    bottom += v
                top = max(top, bottom)
            other = r[marker[0]]
            ax.plot([3 * i, 3 * i + 1], [1.0, other], "k-", lw=0.8)
            ax.plot([3 * i, 3 * i + 1], [1.0, other], "kD", ms=3.5, label=marker[1])
            top = max(top, other)
        ax.set_ylim(0, top * 1.08)
        ax.set_xlim(-0.7, 3 * len(sub) - 1.3)
        ax.set_xticks([3 * i + j for i in range(len(sub)) for j in range(2)])
        ax.set_xticklabels(list(pair) * len(sub), fontsize=7)
        ax.tick_params(axis="x", length=0, pad=2)
        below = transforms.blended_transform_factory(ax.transData, ax.transAxes)
        for i, name in enumerate(sub.network):
            ax.text(3 * i + 0.5, -0.11, name.replace("_", "-"), transform=below, ha="center", va="top", fontsize=8)
        ax.set_ylabel(f"normalised to the PIM-Mapper ({pair[0]})")
        ax.set_title(titles.get(system, system))
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    handles, labels = axes[0][0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))  # one entry per label
    ncol = len(seen) if len(seen) <= 6 else (len(seen) + 1) // 2
    fig.legend(seen.values(), seen.keys(), loc="upper center", ncol=ncol, frameon=False,
               bbox_to_anchor=(0.5, 1.08 if ncol == len(seen) else 1.13), columnspacing=1.2, handlelength=1.5)
    fig.tight_layout()
    # The tick letters, spelled out below the network names.
    fig.text(0.5, 0.0, ",  ".join(f"{letter}: {what}" for letter, what in names), ha="center", va="top",
             fontsize=8)
    save(fig, str(stem))
