#!/usr/bin/env bash
# NicePIM Fig. 11 (section VIII-D): the PIM-Mapper against DDAM's pipelined mapping on the
# two systems of Fig. 10, five DNNs. Each mapper runs at batch 1, 2, 4, 8 and 16 and keeps
# its best throughput, as in the paper: the PIM-Mapper maps the whole batch (every layer's
# B), DDAM streams that many single samples through its parts (pimdse map --mapper ddam).
# Writes OUT/map_rows.csv (every run); postprocess/fig11.py then writes OUT/fig11.csv (the
# best batch of each system x network x mapper: system, network, mapper, batch,
# throughput_per_s, latency_s of that batch, latency_1_s of one sample alone, energy per
# sample and its components in joules), OUT/fig11.png and OUT/fig11_table.md.
#
#   [OVERLAP=1] jobs/paper/fig11/run.sh [OUT_DIR]        (default: out/paper/fig11)
#
# Needs a built pimdse (PIMDSE may point at another binary). About 7 minutes on one core.
# OVERLAP=1: the PIM-Mapper and the baseline map and are costed with overlapped layers
# (pimdse map --overlap; docs/mapper.md, "Ranking with overlap"); DDAM's pipeline keeps its own
# model. Default out dir then ends in _overlap.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
overlap=()
suffix=
[[ ${OVERLAP:-0} == 1 ]] && overlap=(--overlap) && suffix=_overlap
out=${1:-$root/out/paper/fig11$suffix}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "fig11: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
mkdir -p "$out"
csv=$out/map_rows.csv
rm -f "$csv" "$out/fig11.csv"
for hw in nicepim_4x4 nicepim_16x16; do
  for net in resnet152 vgg16 googlenet darknet53 bert_base; do
    for mapper in nicepim ddam; do
      for batch in 1 2 4 8 16; do
        echo "fig11: $hw $net $mapper batch $batch" >&2
        flags=()
        [[ $mapper == nicepim ]] && flags=("${overlap[@]}")
        "$pimdse" map --hardware "$root/inputs/hardware/$hw.yaml" --network "$root/inputs/networks/$net.yaml" \
          --batch "$batch" --mapper "$mapper" "${flags[@]}" --csv "$csv" > "$out/${hw}_${net}_${mapper}_b$batch.txt"
      done
    done
  done
done
/usr/bin/python3 "$root/postprocess/fig11.py" "$csv" --out "$out"
