#!/usr/bin/env bash
# HuNT's orderings (Ogbogu et al., "HuNT: Exploiting Heterogeneous PIM Devices to Design a
# 3-D Manycore Architecture for DNN Training"): every tier stack with an SRAM tier (65 of
# the 81 over S, R and F on 4 tiers), each with its layer-to-PE mapping searched by AMOSA
# (100 evaluations, seed 1; `pimdse evaluate` of a hetero3d file, docs/cli.md) and the
# front's best by TOPS/W picked, for the training of ResNet-34 (Fig. 3), VGG-16 (Fig. 4)
# and VGG-11 (Fig. 9), under both readings of Table II's ReRAM ADCs (docs/model.md, "HuNT:
# per-layer costs"). Writes OUT/hunt.csv (one row per stack x network x reading), then
# OUT/hunt.md (ours beside the paper's) and OUT/hunt.png with postprocess/hunt.py.
#
#   jobs/paper/hunt/run.sh [OUT_DIR]        (default: out/paper/hunt, git-ignored)
#   GRADIENTS=in_memory jobs/paper/hunt/run.sh [OUT_DIR]   (default: out/paper/hunt_in_memory)
#
# GRADIENTS chooses how the SRAM tier costs ΔAG and ΔWG (`pimdse evaluate --gradients`,
# docs/model.md, "HuNT: gradient models"): digital_float32 (HuNT's text, the default) or
# in_memory (DNN+NeuroSim's arrangement, which HuNT's figures come from).
#
# Needs a built pimdse (cmake --preset release && cmake --build build --target pimdse -j2);
# PIMDSE may point at another binary. About two minutes on one core.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
gradients=${GRADIENTS:-digital_float32}
case $gradients in
  digital_float32) out=${1:-$root/out/paper/hunt} ;;
  in_memory) out=${1:-$root/out/paper/hunt_in_memory} ;;
  *) echo "hunt: GRADIENTS must be digital_float32 or in_memory, got '$gradients'" >&2; exit 2 ;;
esac
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "hunt: $pimdse not found; build first" >&2; exit 2; }
mkdir -p "$out/stacks"
csv=$out/hunt.csv
rm -f "$csv"
devices=(S R F)
for ((i = 0; i < 81; ++i)); do
  stack=${devices[i % 3]}${devices[i / 3 % 3]}${devices[i / 9 % 3]}${devices[i / 27]}
  [[ $stack == *S* ]] || continue  # training needs an SRAM tier (HuNT III-C)
  printf 'hetero3d:\n  tiers: 4\n  pes_per_tier: 16\n  tiles_per_pe: 4\n  tile_area_mm2: 0.40\n  stack: %s\n' \
    "$stack" > "$out/stacks/$stack.yaml"
  for net in resnet34_quarter_cifar10 vgg16_half_cifar10 vgg11_half_cifar10; do
    for adc in table_ii_tile neurosim_column_mux; do
      "$pimdse" evaluate --hardware "$out/stacks/$stack.yaml" \
        --network "$root/inputs/networks/cifar10/$net.yaml" --adc-reading "$adc" \
        --gradients "$gradients" --csv "$csv" > /dev/null
    done
  done
  echo "hunt: $stack" >&2
done
/usr/bin/python3 "$root/postprocess/hunt.py" "$csv" --out "$out"
