#!/usr/bin/env bash
# How much the data layout (DL) can move a Fig. 10 pair at all: the PIM-Mapper's mapping
# of each pair (Algorithm 1 + 2, as run.sh), costed again with every tensor in one layout,
# for each of the baseline's three (BCHW, BHWC, BCHW[C8]), the LMs, WRs and regions kept.
# The spread between the best and the worst of these bounds what any DL choice can gain
# against any other on that mapping (the per-layer choice lies inside it or near it).
# Writes OUT/dl_range.csv (one row per pair and layout, "mapper" for the mapper's own
# per-layer choice) and OUT/dl_range.md (per pair: worst layout against the mapper's).
#
#   jobs/paper/fig10/dl_range.sh [OUT_DIR]        (default: out/paper/fig10-dl-range)
#
# Needs a built pimdse (PIMDSE may point at another binary). About 2 minutes on one core.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/out/paper/fig10-dl-range}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "dl_range: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
mkdir -p "$out"
rows=$out/dl_range_rows.txt
: > "$rows"
for hw in nicepim_4x4 nicepim_16x16; do
  for net in resnet152 vgg16 googlenet darknet53 bert_base; do
    echo "dl_range: $hw $net" >&2
    hw_file=$root/inputs/hardware/$hw.yaml
    net_file=$root/inputs/networks/$net.yaml
    mapping=$out/${hw}_${net}.mapping.yaml
    "$pimdse" map --hardware "$hw_file" --network "$net_file" --batch 1 -o "$mapping" > /dev/null
    for layout in mapper BCHW BHWC 'BCHW[C8]'; do
      costed=$mapping
      if [[ $layout != mapper ]]; then
        costed=$out/${hw}_${net}_uniform.mapping.yaml
        /usr/bin/python3 - "$mapping" "$costed" "$layout" <<'PY'
import re
import sys

text = open(sys.argv[1]).read()
layout = sys.argv[3]
text, n = re.subn(r'dl: \{in: "[^"]+", out: "[^"]+"\}', f'dl: {{in: "{layout}", out: "{layout}"}}', text)
if n == 0:
    sys.exit(f"dl_range: no 'dl:' entry in {sys.argv[1]}")
open(sys.argv[2], "w").write(text)
PY
      fi
      printf '%s\t%s\t%s\t' "$hw" "$net" "$layout" >> "$rows"
      "$pimdse" evaluate --hardware "$hw_file" --network "$net_file" --mapping "$costed" |
        grep -E '^  (latency|energy) ' | tr '\n' '\t' >> "$rows"
      echo >> "$rows"
    done
  done
done
/usr/bin/python3 - "$rows" "$out" <<'PY'
import pathlib
import re
import sys

import pandas as pd

records = []
for line in open(sys.argv[1]):
    hw, net, layout, text = line.rstrip("\n").split("\t", 3)
    latency = float(re.search(r"latency\s+(\d+) cycles = ([\d.]+) ms", text).group(2)) * 1e-3
    energy = re.search(r"energy\s+([\d.]+) uJ", text).group(1)
    access = re.search(r"access ([\d.]+)", text).group(1)
    activation = re.search(r"activation ([\d.]+)", text).group(1)
    records.append({"system": hw, "network": net, "layout": layout, "latency_s": latency,
                    "energy_j": float(energy) * 1e-6, "dram_access_j": float(access) * 1e-6,
                    "dram_activation_j": float(activation) * 1e-6})
d = pd.DataFrame(records)
out = pathlib.Path(sys.argv[2])
d.to_csv(out / "dl_range.csv", index=False)
lines = ["| system | network | best uniform | latency | energy | worst uniform | latency | energy "
         "| DRAM access + activation |",
         "|---|---|---|---:|---:|---|---:|---:|---:|"]
pct = lambda a, b: f"{100 * (a / b - 1):+.1f} %"
dram = lambda r: r.dram_access_j + r.dram_activation_j
for (hw, net), g in d.groupby(["system", "network"], sort=False):
    own = g[g.layout == "mapper"].iloc[0]
    uniform = g[g.layout != "mapper"]
    ranked = uniform.sort_values(["latency_s", "energy_j"])  # latency, ties by energy
    best, worst = ranked.iloc[0], ranked.iloc[-1]
    lines.append(f"| {hw} | {net} | {best.layout} | {pct(best.latency_s, own.latency_s)} "
                 f"| {pct(best.energy_j, own.energy_j)} | {worst.layout} | {pct(worst.latency_s, own.latency_s)} "
                 f"| {pct(worst.energy_j, own.energy_j)} | {pct(dram(worst), dram(own))} |")
lines.append("")
lines.append("Each cell: one of BCHW, BHWC and BCHW[C8] for every tensor (the fastest and the slowest "
             "of the three, as the baseline ranks them) against the mapper's own per-layer choice, on "
             "the mapper's LMs, WRs and regions (+ = worse); the last column is the slowest's.")
(out / "dl_range.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
PY
