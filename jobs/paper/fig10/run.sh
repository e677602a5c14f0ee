#!/usr/bin/env bash
# NicePIM Fig. 10 (section VIII-D): the PIM-Mapper against the sequential baseline on the
# two systems of the paper, five DNNs at batch 1. The PIM-Mapper is Algorithm 1 + 2 alone
# (pimdse map's default); the baseline is VIII-D's (sharing-blind LM, LM fixed before DL).
# Writes OUT/fig10.csv (one row per system x network x mapper, energy split into PE,
# registers, SRAM, DRAM access/activation/background and NoC), then draws
# OUT/fig10.png and OUT/fig10_table.md with postprocess/fig10.py.
#
#   [OVERLAP=1] jobs/paper/fig10/run.sh [OUT_DIR]        (default: out/paper/fig10, git-ignored)
#
# Needs a built pimdse (cmake --preset release && cmake --build build -j2); PIMDSE may
# point at another binary. Takes about a minute on one core.
# OVERLAP=1: the PIM-Mapper and the baseline map and are costed with overlapped layers
# (pimdse map --overlap; docs/mapper.md, "Ranking with overlap"); DDAM's pipeline keeps its own
# model. Default out dir then ends in _overlap.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
overlap=()
suffix=
[[ ${OVERLAP:-0} == 1 ]] && overlap=(--overlap) && suffix=_overlap
out=${1:-$root/out/paper/fig10$suffix}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "fig10: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
mkdir -p "$out"
csv=$out/map_rows.csv
rm -f "$csv" "$out/fig10.csv"
for hw in nicepim_4x4 nicepim_16x16; do
  for net in resnet152 vgg16 googlenet darknet53 bert_base; do
    for mapper in baseline nicepim; do
      echo "fig10: $hw $net $mapper" >&2
      "$pimdse" map --hardware "$root/inputs/hardware/$hw.yaml" --network "$root/inputs/networks/$net.yaml" \
        --batch 1 --mapper "$mapper" "${overlap[@]}" --csv "$csv" -o "$out/${hw}_${net}_${mapper}.mapping.yaml" > "$out/${hw}_${net}_${mapper}.txt"
    done
  done
done
# OUT/fig10.csv: system, network, mapper, latency_s, energy_j and the energy components [J].
/usr/bin/python3 - "$csv" "$out/fig10.csv" <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1])
t = pd.DataFrame({"system": d.hardware, "network": d.network, "mapper": d.mapper,
                  "latency_s": d.seconds_at_clock, "energy_j": d.energy_pj * 1e-12})
for c in ["pe", "register", "sram", "dram_access", "dram_activation", "dram_background", "noc"]:
    t[c + "_j"] = d[c + "_pj"] * 1e-12
t["from_baseline"] = d.from_baseline
t.to_csv(sys.argv[2], index=False)
PY
/usr/bin/python3 "$root/postprocess/fig10.py" "$csv" --out "$out"
