#!/usr/bin/env bash
# The predictor filter (docs/tuner.md, "Predictor filter") against plain random search on
# NicePIM's design space and five DNNs (inputs/sweeps/nicepim_fig9.yaml): one `pimdse explore`
# per mode and seed at equal budgets, then postprocess/predictor_filter.py writes
# OUT/predictor_filter.md: per seed the unfiltered run's final best Eq. 1 cost, the
# evaluations the filtered run needed to reach it (the evaluations saved for equal final
# quality), and the filtered run's Kendall's tau and relative error per batch.
#
#   jobs/predictor-filter/run.sh [OUT_DIR]           (default: out/predictor-filter)
#
# Environment: BUDGET (default 64), BATCH (default 8), SEEDS (default "1 2 3"), FILTER (the
# predictor, default xgboost), POOL (filter_pool, default 8), NP (MPI ranks, default cores + 1),
# PIMDSE. Re-running continues every run that has not reached its budget (--resume).
set -euo pipefail
# shellcheck source=SCRIPTDIR/../explore_runs.sh
source "$(dirname "$0")/../explore_runs.sh"
explore_setup predictor-filter out/predictor-filter 64 4096 "$@"
filter=${FILTER:-xgboost}
pool=${POOL:-8}

for s in $seeds; do
  explore_run random random "$s"
  explore_run "filter-$filter" random "$s" "  proposer_options: {filter: $filter, filter_pool: $pool}"
done
/usr/bin/python3 "$root/postprocess/predictor_filter.py" "$out"/*.h5 --out "$out"
