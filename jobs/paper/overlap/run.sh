#!/usr/bin/env bash
# OverlaPIM (Zhou et al., "OverlaPIM: Overlap Optimization for Processing In-Memory Neural
# Network Acceleration") Figs. 2, 6 and 7 on pimdse's DRAM-PIM systems: ResNet-18 and VGG-16
# on the three NicePIM systems (inputs/hardware/nicepim_*.yaml), each mapping costed three
# ways with `pimdse evaluate --mapping M`: sequentially, with overlapped layers (`--overlap`,
# docs/model.md, "Overlapped layers") and with the overlap-friendly transformation on top
# (`--overlap-transform`, "The overlap-friendly transformation"). Three settings:
#   b  pimdse's own: the PIM-Mapper's mapping (`pimdse map`, searched sequentially);
#   a  OverlaPIM's fixed memory per layer: `pimdse map --mapper ddam --layer-band W`, every
#      segment on its own band of W rows (LAYER_BAND, default 1), wrapping around the array;
#   d  DDAM's load-balanced parts at batch 1 (`pimdse map --mapper ddam`), 2-3 bands.
# Writes OUT/<setting>_<system>_<network>_{mapping.yaml,sequential.json,overlapped.json,
# transformed.json} (the `--layers` JSON documents) and OUT/runs.csv naming them;
# postprocess/overlap.py then writes OUT/overlap_layers.csv, OUT/overlap.csv,
# OUT/overlap_table.md and OUT/overlap.{png,pdf,svg} (jobs/paper/overlap/README.md says how
# to read them).
#
#   jobs/paper/overlap/run.sh [OUT_DIR]        (default: out/paper/overlap, git-ignored)
#
# SYSTEMS and NETWORKS (space-separated hardware and network files, default the three NicePIM
# systems and ResNet-18 and VGG-16) and SETTINGS ("b a d" by default) narrow the job; the
# ctest smoke (postprocess.overlap) runs it on one small network. Needs a built pimdse
# (cmake --preset release && cmake --build build -j2); PIMDSE may point at another binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/out/paper/overlap}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "overlap: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
hw_dir=$root/inputs/hardware net_dir=$root/inputs/networks
systems=${SYSTEMS:-"$hw_dir/nicepim_4x4.yaml $hw_dir/nicepim_16x16.yaml $hw_dir/nicepim_final_4x8.yaml"}
networks=${NETWORKS:-"$net_dir/resnet18.yaml $net_dir/vgg16.yaml"}
settings=${SETTINGS:-"b a d"}
band=${LAYER_BAND:-1}
mkdir -p "$out"
runs=$out/runs.csv
echo "setting,system,network,sequential,overlapped,transformed" > "$runs"
for setting in $settings; do
  case $setting in
    a) mapper=(--mapper ddam --layer-band "$band") ;;
    b) mapper=(--mapper nicepim) ;;
    d) mapper=(--mapper ddam) ;;
    *) echo "overlap: SETTINGS holds '$setting'; expected a, b and/or d" >&2; exit 2 ;;
  esac
  for hw in $systems; do
    for net in $networks; do
      sys=$(basename "$hw" .yaml) name=$(basename "$net" .yaml)
      stem=${setting}_${sys}_${name}
      echo "overlap: setting ($setting) $sys $name" >&2
      # The network file's batch (1 in the library's ResNet-18 and VGG-16): one inference, as
      # OverlaPIM's latencies are; DDAM streams one sample by default.
      "$pimdse" map --hardware "$hw" --network "$net" "${mapper[@]}" \
        -o "$out/$stem.mapping.yaml" > "$out/$stem.map.txt"
      for mode in sequential overlapped transformed; do
        flag=() && [[ $mode == overlapped ]] && flag=(--overlap)
        [[ $mode == transformed ]] && flag=(--overlap-transform)
        "$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$out/$stem.mapping.yaml" \
          "${flag[@]}" --layers "$out/$stem.$mode.json" > "$out/$stem.$mode.txt"
      done
      echo "$setting,$sys,$name,$stem.sequential.json,$stem.overlapped.json,$stem.transformed.json" >> "$runs"
    done
  done
done
/usr/bin/python3 "$root/postprocess/overlap.py" "$runs" --out "$out"
