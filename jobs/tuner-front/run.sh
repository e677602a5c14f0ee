#!/usr/bin/env bash
# Multi-objective proposals against the Eq. 1 scalarisation and random search: the
# hypervolume of the archive's front (latency, energy, area) against evaluations. One
# `pimdse explore` per (mode, seed) on inputs/sweeps/nicepim_fig9.yaml (the NicePIM design
# space, the five DNNs at batch 1, alpha = beta = 1), then postprocess/tuner_front.py draws
# OUT/tuner_front.png and writes OUT/tuner_front.md. The modes:
#   eq1     the model proposer fitted on log(cost), NicePIM Eq. 1 (the default)
#   parego  the same proposer with `proposer_options: {scalarisation: parego}`
#   random  uniform legal points
#
#   jobs/tuner-front/run.sh [OUT_DIR]                      (default: out/tuner-front)
#
# Environment: BUDGET (evaluations per run, default 96), BATCH (default 16), SEEDS (default
# "1 2 3"), MODES (default "parego eq1 random"), MODEL (the model proposer of eq1 and
# parego: nicepim or gp, default nicepim), SAMPLES (candidates scored per batch, default
# 4096), NP (MPI ranks, default cores + 1). Re-running continues every run that has not
# reached its budget (--resume).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:-$root/out/tuner-front}" && cd "${1:-$root/out/tuner-front}" && pwd)
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "tuner-front: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
budget=${BUDGET:-96}
batch=${BATCH:-16}
samples=${SAMPLES:-4096}
seeds=${SEEDS:-1 2 3}
modes=${MODES:-parego eq1 random}
model=${MODEL:-nicepim}
np=${NP:-$(($(nproc) + 1))}
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

for m in $modes; do
  case $m in
    parego) proposer=$model; options="  proposer_options: {scalarisation: parego}" ;;
    eq1) proposer=$model; options="" ;;
    random) proposer=random; options="" ;;
    *) echo "tuner-front: unknown mode '$m' (known: parego, eq1, random)" >&2; exit 2 ;;
  esac
  for s in $seeds; do
    cfg=$out/${m}_seed${s}.yaml
    h5=$out/${m}_seed${s}.h5
    # The paper's configuration with this run's proposer, options, seed, budget and paths.
    sed -e "s|^  seed: .*|  seed: $s|" -e "s|^  batch_size: .*|  batch_size: $batch|" \
        -e "s|^  budget: .*|  budget: $budget|" -e "s|^  proposer: .*|  proposer: $proposer|" \
        -e "s|^  samples_per_round: .*|  samples_per_round: $samples|" -e "/^  wall_time: /d" \
        -e "s|\.\./networks/|$root/inputs/networks/|" -e "s|^  path: .*|  path: $h5|" \
        "$root/inputs/sweeps/nicepim_fig9.yaml" > "$cfg"
    if [[ -n $options ]]; then
      sed -i "s|^  samples_per_round: .*|&\n$options|" "$cfg"
    fi
    mode=(--force)
    [[ -e $h5 ]] && mode=(--resume)
    echo "tuner-front: $m ($proposer) seed $s (budget $budget) -> $h5" >&2
    mpirun -np "$np" --oversubscribe "$pimdse" explore "$cfg" -o "$h5" "${mode[@]}" > "$out/${m}_seed${s}.log"
  done
done
/usr/bin/python3 "$root/postprocess/tuner_front.py" "$out"/*.h5 --out "$out"
