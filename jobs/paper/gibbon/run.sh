#!/usr/bin/env bash
# Gibbon (Sun et al., "Gibbon: An Efficient Co-Exploration Framework of NN Model and
# Processing-In-Memory Architecture"): (a) every ratio its text states, recomputed from its
# Tables III-V (tables.csv) by postprocess/gibbon_ratios.py; (b) its hardware trends costed
# by our crossbar model with `pimdse evaluate --crossbar`: crossbar sizes 32-256 at an 8-bit
# ADC and ADC resolutions 4-10 bits at 128 x 128, the other values those of
# inputs/hardware/crossbar_128.yaml, on ResNet-18 and VGG-16 for CIFAR-10; Table IV's four
# networks; the kernel, group and topology comparisons of Figs. 5-7 on the candidates
# tools/gibbon_space.py writes. Writes
# OUT/gibbon_ratios.md, OUT/gibbon_trends.md and OUT/gibbon_trends.{png,pdf,svg}.
#
#   jobs/paper/gibbon/run.sh [OUT_DIR]        (default: out/paper/gibbon, git-ignored)
#
# Needs a built pimdse (cmake --preset release && cmake --build build -j2); PIMDSE may
# point at another binary. Takes about a second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/out/paper/gibbon}
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "gibbon: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
mkdir -p "$out/designs" "$out/layers"
base=$root/inputs/hardware/crossbar_128.yaml
design() {  # design SIZE ADC: the base design with those two values
  local f=$out/designs/xbar${1}_adc${2}.yaml
  sed -e "s/^\( *crossbar_size:\).*/\1 $1/" -e "s/^\( *adc_bits:\).*/\1 $2/" "$base" > "$f"
  echo "$f"
}
cost() {  # cost NETWORK_FILE NAME SIZE ADC: one design on one network, table and summary
  "$pimdse" evaluate --crossbar "$(design "$3" "$4")" --network "$1" \
    --layers "$out/layers/${2}_xbar${3}_adc${4}.json" > "$out/layers/${2}_xbar${3}_adc${4}.txt"
}
# Crossbar sizes and ADC resolutions (Insight 6, IV-B, Fig. 10) on two CIFAR-10 networks.
for net in resnet18_cifar10 vgg16_cifar10; do
  for point in 32:8 64:8 128:8 256:8 128:4 128:6 128:10; do
    cost "$root/inputs/networks/cifar10/$net.yaml" "$net" "${point%:*}" "${point#*:}"
  done
done
# Table IV's four manually designed networks, as MNSIM 2.0 defines them, on the base design.
for net in alexnet_cifar10 resnet18_mnsim_cifar10 vggm_cifar10; do
  cost "$root/inputs/networks/cifar10/$net.yaml" "$net" 128 8
done
# Figs. 5-7: the representative candidates of Gibbon's space and the baseline topology.
mkdir -p "$out/nets"
/usr/bin/python3 "$root/tools/gibbon_space.py" backbones "$out/nets"
/usr/bin/python3 "$root/tools/gibbon_space.py" baseline -o "$out/nets/gibbon_baseline.yaml"
for f in "$out"/nets/gibbon_*.yaml; do
  cost "$f" "$(basename "$f" .yaml)" 128 8
done
/usr/bin/python3 "$root/postprocess/gibbon_ratios.py" "$here/tables.csv" --out "$out"
/usr/bin/python3 "$root/postprocess/gibbon_trends.py" "$out/layers" --tables "$here/tables.csv" --out "$out"
