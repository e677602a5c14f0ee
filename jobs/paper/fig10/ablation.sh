#!/usr/bin/env bash
# Ablation of the PIM-Mapper on the Fig. 10 pairs: Algorithm 1 + 2 as in run.sh, then the
# same with one mapping dimension frozen to the baseline's choice (pimdse map --freeze):
# SM (every segment on the whole array), WR (full replication, reduced as the baseline
# does) and DL (the baseline's one layout). Writes OUT/ablation.csv (one row per pair and
# variant) and OUT/ablation.md: how much each frozen dimension costs in latency and energy.
#
#   jobs/paper/fig10/ablation.sh [OUT_DIR]        (default: out/paper/fig10-ablation, git-ignored)
#
# Needs a built pimdse (PIMDSE may point at another binary). About 3 minutes on one core.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/out/paper/fig10-ablation}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "ablation: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/ablation_*.csv
for hw in nicepim_4x4 nicepim_16x16; do
  for net in resnet152 vgg16 googlenet darknet53 bert_base; do
    for variant in full sm wr dl; do
      echo "ablation: $hw $net $variant" >&2
      freeze=()
      [[ $variant == full ]] || freeze=(--freeze "$variant")
      "$pimdse" map --hardware "$root/inputs/hardware/$hw.yaml" --network "$root/inputs/networks/$net.yaml" \
        --batch 1 "${freeze[@]}" --csv "$out/ablation_$variant.csv" > /dev/null
    done
  done
done
/usr/bin/python3 - "$out" <<'PY'
import pathlib
import sys

import pandas as pd

out = pathlib.Path(sys.argv[1])
frames = []
for v in ["full", "sm", "wr", "dl"]:
    d = pd.read_csv(out / f"ablation_{v}.csv")
    d["variant"] = v
    frames.append(d)
d = pd.concat(frames)
d[["hardware", "network", "variant", "seconds_at_clock", "energy_pj"]].to_csv(out / "ablation.csv", index=False)
full = d[d.variant == "full"].set_index(["hardware", "network"])
lines = ["| system | network | SM frozen: latency | energy | WR frozen: latency | energy | DL frozen: latency | energy |",
         "|---|---|---:|---:|---:|---:|---:|---:|"]
for (hw, net), f in full.iterrows():
    cells = []
    for v in ["sm", "wr", "dl"]:
        r = d[(d.variant == v) & (d.hardware == hw) & (d.network == net)].iloc[0]
        cells.append(f"{100 * (r.seconds_at_clock / f.seconds_at_clock - 1):+.1f} %")
        cells.append(f"{100 * (r.energy_pj / f.energy_pj - 1):+.1f} %")
    lines.append(f"| {hw} | {net} | " + " | ".join(cells) + " |")
lines.append("")
lines.append("Each cell: the frozen mapper's latency or energy against Algorithm 1 + 2 with every dimension free (+ = worse).")
(out / "ablation.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
PY
