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
# per batch, default 16), SEEDS (default "1 2 3"), PROPOSERS (default all six; also
# nicepim-subset and gp-subset, the GP conditioned on the fitted subset only), SAMPLES
# (legal points sampled per round by model-based proposers, default 16384 as the paper),
# NP (MPI ranks, default cores + 1). A full run is thousands of evaluations: submit it to a
# cluster (jobs/slurm.sbatch shows how); a smoke run on a laptop is
#   BUDGET=48 SEEDS="1 2 3" jobs/paper/fig9/run.sh
# Re-running continues every run that has not reached its budget (--resume).
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../explore_runs.sh
source "$(dirname "$0")/../../explore_runs.sh"
explore_setup fig9 out/paper/fig9 1024 16384 "$@"
proposers=${PROPOSERS:-nicepim gp random annealing evolution xgboost}

for p in $proposers; do
  for s in $seeds; do
    case $p in
      # The GP-based tuners with the posterior on the fitted subset only (docs/tuner.md,
      # "Scale: every observation"): the model before FITC, for comparison.
      nicepim-subset | gp-subset) explore_run "$p" "${p%-subset}" "$s" "  proposer_options: {posterior: subset}" ;;
      *) explore_run "$p" "$p" "$s" ;;
    esac
  done
done
/usr/bin/python3 "$root/postprocess/fig9.py" "$out"/*.h5 --out "$out"
