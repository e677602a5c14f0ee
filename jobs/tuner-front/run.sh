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
# shellcheck source=SCRIPTDIR/../explore_runs.sh
source "$(dirname "$0")/../explore_runs.sh"
explore_setup tuner-front out/tuner-front 96 4096 "$@"
modes=${MODES:-parego eq1 random}
model=${MODEL:-nicepim}

for m in $modes; do
  case $m in
    parego) proposer=$model; options="  proposer_options: {scalarisation: parego}" ;;
    eq1) proposer=$model; options="" ;;
    random) proposer=random; options="" ;;
    *) echo "tuner-front: unknown mode '$m' (known: parego, eq1, random)" >&2; exit 2 ;;
  esac
  for s in $seeds; do
    explore_run "$m" "$proposer" "$s" "$options" "$m ($proposer)"
  done
done
/usr/bin/python3 "$root/postprocess/tuner_front.py" "$out"/*.h5 --out "$out"
