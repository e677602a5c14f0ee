#!/usr/bin/env bash
# The main job on the default inputs. Until the sweep (`pimdse explore`) exists this runs
# the most complete thing pimdse does today: validate the default sweep configuration and
# the three NicePIM hardware points, summarise the whole workload library, and cost the
# five NicePIM DNNs on each NicePIM system under the uniform mapping (every layer on the
# whole array; the PIM-Mapper replaces it in a later version).
set -euo pipefail
cd "$(dirname "$0")/.."
pimdse=${PIMDSE:-build/src/cli/pimdse}
if [[ ! -x $pimdse ]]; then
  echo "run-default: $pimdse not found; build first: cmake --preset release && cmake --build --preset release" >&2
  exit 2
fi

"$pimdse" --version
echo
echo "== default sweep configuration (inputs/sweeps/default.yaml) =="
"$pimdse" config check inputs/sweeps/default.yaml
for hw in inputs/hardware/*.yaml; do
  echo
  echo "== hardware point $hw =="
  "$pimdse" config check "$hw"
done
echo
echo "== workload library (inputs/networks) =="
"$pimdse" network info --summary inputs/networks/*.yaml
echo
echo "== the five NicePIM DNNs on the NicePIM systems, uniform mapping (pimdse evaluate) =="
for hw in inputs/hardware/*.yaml; do
  for net in googlenet resnet152 vgg16 darknet53 bert_base; do
    echo "-- $net on $hw"
    "$pimdse" evaluate --hardware "$hw" --network "inputs/networks/$net.yaml" --uniform | sed -n '/^summary:/,$p'
  done
done
