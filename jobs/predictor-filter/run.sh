#!/usr/bin/env bash
# The predictor filter (docs/tuner.md, "Predictor filter") and its second level, the cheap
# fidelity ("Cheap fidelity"), against plain random search on NicePIM's design space and five
# DNNs (inputs/sweeps/nicepim_fig9.yaml): one `pimdse explore` per mode and seed at equal
# budgets of full evaluations, then postprocess/predictor_filter.py writes
# OUT/predictor_filter.md: per seed the unfiltered run's final best Eq. 1 cost, the
# evaluations each filtered run needed to reach it (the evaluations saved for equal final
# quality), and the filtered runs' Kendall's tau (predictor and cheap level) per batch.
#
#   jobs/predictor-filter/run.sh [OUT_DIR]           (default: out/predictor-filter)
#
# Environment: BUDGET (default 64), BATCH (default 8), SEEDS (default "1 2 3"), FILTER (the
# predictor, default xgboost), POOL (filter_pool, default 8), CHEAP (cheap_fidelity, default
# snake_one_round), CHEAP_POOL (cheap_pool, default 2), MODES (default "random filter cheap"),
# NP (MPI ranks, default cores + 1), PIMDSE. Re-running continues every run that has not
# reached its budget (--resume).
set -euo pipefail
# shellcheck source=SCRIPTDIR/../explore_runs.sh
source "$(dirname "$0")/../explore_runs.sh"
explore_setup predictor-filter out/predictor-filter 64 4096 "$@"
filter=${FILTER:-xgboost}
pool=${POOL:-8}
cheap=${CHEAP:-snake_one_round}
cheap_pool=${CHEAP_POOL:-2}
modes=${MODES:-random filter cheap}

for s in $seeds; do
  for m in $modes; do
    case $m in
      random) explore_run random random "$s" ;;
      filter) explore_run "filter-$filter" random "$s" "  proposer_options: {filter: $filter, filter_pool: $pool}" ;;
      cheap) explore_run "filter-$filter-$cheap" random "$s" \
        "  proposer_options: {filter: $filter, filter_pool: $pool, cheap_fidelity: $cheap, cheap_pool: $cheap_pool}" ;;
      *) echo "predictor-filter: unknown mode $m (random, filter, cheap)" >&2; exit 2 ;;
    esac
  done
done
/usr/bin/python3 "$root/postprocess/predictor_filter.py" "$out"/*.h5 --out "$out"
