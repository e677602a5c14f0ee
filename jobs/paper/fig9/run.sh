#!/usr/bin/env bash
# NicePIM Fig. 9 (section VIII-C): design quality against evaluations for the PIM-Tuner
# (nicepim: deep-kernel GP) and the baselines (gp, random, annealing, evolution, xgboost) on the
# NicePIM design space, the five DNNs at batch 1, alpha = beta = 1 (EDP), equal budgets,
# several seeds per proposer. One `pimdse explore` per (proposer, seed) from
# inputs/sweeps/nicepim_fig9.yaml, then postprocess/fig9.py draws OUT/fig9.png and writes
# OUT/fig9.md.
#
#   jobs/paper/fig9/run.sh [OUT_DIR]                       (default: out/paper/fig9)
#
# Environment: BUDGET (evaluations per run, default 1024 as the config), BATCH (candidates
# per batch, default 16), SEEDS (default "1 2 3"), PROPOSERS (default all six), SAMPLES
# (legal points sampled per round by model-based proposers, default 16384 as the paper),
# NP (MPI ranks, default cores + 1). A full run is thousands of evaluations: submit it to a
# cluster (jobs/slurm.sbatch shows how); a smoke run on a laptop is
#   BUDGET=48 SEEDS="1 2 3" jobs/paper/fig9/run.sh
# Re-running continues every run that has not reached its budget (--resume).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(mkdir -p "${1:-$root/out/paper/fig9}" && cd "${1:-$root/out/paper/fig9}" && pwd)
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "fig9: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
budget=${BUDGET:-1024}
batch=${BATCH:-16}
samples=${SAMPLES:-16384}
seeds=${SEEDS:-1 2 3}
proposers=${PROPOSERS:-nicepim gp random annealing evolution xgboost}
np=${NP:-$(($(nproc) + 1))}
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

for p in $proposers; do
  for s in $seeds; do
    cfg=$out/${p}_seed${s}.yaml
    h5=$out/${p}_seed${s}.h5
    # The paper's configuration with this run's proposer, seed, budget and paths.
    sed -e "s|^  seed: .*|  seed: $s|" -e "s|^  batch_size: .*|  batch_size: $batch|" \
        -e "s|^  budget: .*|  budget: $budget|" -e "s|^  proposer: .*|  proposer: $p|" \
        -e "s|^  samples_per_round: .*|  samples_per_round: $samples|" -e "/^  wall_time: /d" \
        -e "s|\.\./networks/|$root/inputs/networks/|" -e "s|^  path: .*|  path: $h5|" \
        "$root/inputs/sweeps/nicepim_fig9.yaml" > "$cfg"
    mode=(--force)
    [[ -e $h5 ]] && mode=(--resume)
    echo "fig9: $p seed $s (budget $budget) -> $h5" >&2
    mpirun -np "$np" --oversubscribe "$pimdse" explore "$cfg" -o "$h5" "${mode[@]}" > "$out/${p}_seed${s}.log"
  done
done
/usr/bin/python3 "$root/postprocess/fig9.py" "$out"/*.h5 --out "$out"
