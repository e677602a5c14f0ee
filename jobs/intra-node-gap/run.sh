#!/usr/bin/env bash
# How far the fast intra-node search is from the node optimum (docs/model.md, "The exact
# intra-node optimum"). For each system and network, the PIM-Mapper's mapping (`pimdse map`,
# analytic node model) is costed four times with `pimdse evaluate --mapping M --layers`: by
# the fast search (`--intra-node analytic`) and by the exact node model minimising latency,
# energy and EDP (`--intra-node exact` with `model.exact.objective` set in a copy of the
# hardware file). The mapping is the same in all four, so each layer's difference is the node
# search's alone. Writes OUT/<system>_<network>_{mapping.yaml,analytic,latency,energy,
# edp}.json and OUT/runs.csv naming them; postprocess/intra_node_gap.py then writes
# OUT/gap_part_layers.csv (one row per distinct part-layer), OUT/gap.md (median, p90 and
# worst gap per system and objective) and OUT/gap.{png,pdf,svg}.
#
#   jobs/intra-node-gap/run.sh [OUT_DIR]        (default: out/intra-node-gap, git-ignored)
#
# SYSTEMS and NETWORKS (space-separated hardware and network files; default the three
# NicePIM systems and NicePIM's five DNNs) narrow the job; the ctest smoke
# (postprocess.intra_node_gap) runs it on one small network. WORK_LIMIT sets
# model.exact.work_limit (default: the configuration's default). Needs a built pimdse
# (cmake --preset release && cmake --build build -j2); PIMDSE may point at another binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/out/intra-node-gap}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "intra-node-gap: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
hw_dir=$root/inputs/hardware net_dir=$root/inputs/networks
systems=${SYSTEMS:-"$hw_dir/nicepim_4x4.yaml $hw_dir/nicepim_16x16.yaml $hw_dir/nicepim_final_4x8.yaml"}
networks=${NETWORKS:-"$net_dir/resnet152.yaml $net_dir/vgg16.yaml $net_dir/googlenet.yaml $net_dir/darknet53.yaml $net_dir/bert_base.yaml"}
mkdir -p "$out"
runs=$out/runs.csv
echo "system,network,analytic,latency,energy,edp" > "$runs"
for hw in $systems; do
  sys=$(basename "$hw" .yaml)
  grep -q '^model:' "$hw" && { echo "intra-node-gap: $hw has a model: section; give one without" >&2; exit 2; }
  for objective in latency energy edp; do
    { cat "$hw"; printf 'model:\n  exact:\n    objective: %s\n' "$objective"
      [[ -n ${WORK_LIMIT:-} ]] && printf '    work_limit: %s\n' "$WORK_LIMIT"; } > "$out/$sys.$objective.yaml"
  done
  for net in $networks; do
    name=$(basename "$net" .yaml) stem=${sys}_${name}
    echo "intra-node-gap: $sys $name" >&2
    "$pimdse" map --hardware "$hw" --network "$net" -o "$out/$stem.mapping.yaml" > "$out/$stem.map.txt"
    "$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$out/$stem.mapping.yaml" \
      --intra-node analytic --layers "$out/$stem.analytic.json" > /dev/null
    for objective in latency energy edp; do
      "$pimdse" evaluate --hardware "$out/$sys.$objective.yaml" --network "$net" \
        --mapping "$out/$stem.mapping.yaml" --intra-node exact --layers "$out/$stem.$objective.json" > /dev/null
    done
    echo "$sys,$name,$stem.analytic.json,$stem.latency.json,$stem.energy.json,$stem.edp.json" >> "$runs"
  done
done
/usr/bin/python3 "$root/postprocess/intra_node_gap.py" "$runs" --out "$out"
