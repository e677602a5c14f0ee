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
