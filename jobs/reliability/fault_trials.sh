#!/usr/bin/env bash
# The long fault test (docs/output.md, "What a commit guarantees"): 50 trials (or $TRIALS)
# of each fault kind at random moments of a sweep, every resumed file compared with an
# uninterrupted run: the signals on a synthetic sweep of $BUDGET (40) evaluations, the memory
# limits on a model sweep of $MEMORY_BUDGET (8) evaluations that maps ResNet-18; CTest runs
# one trial per kind. About 6 s a signal trial and 12 s a memory trial on 2 cores: about an
# hour and a half for 3 ranks, half an hour for one process. Then the same kinds, signals and
# memory limits alike, with the filter's cheap level on (fault_trials.py --cheap,
# tests/reliability/stress_cheap.yaml: the workers make a proposal's cheap evaluations while
# it waits for them) on $CHEAP_BUDGET (8) evaluations: about 9 s a trial, another hour and a
# half for 3 ranks and 20 minutes for one process; its log counts the faults that struck
# during a cheap wait.
# usage: jobs/reliability/fault_trials.sh [BUILD_DIR]    (default build/, `cmake --preset release`)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
trials=${TRIALS:-50}
work=${WORK:-out/reliability}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$work"
for np in 3 0; do
  /usr/bin/python3 tests/reliability/fault_trials.py --np "$np" --trials "$trials" --seed "$((np + 11))" --budget "${BUDGET:-40}" \
    --memory-budget "${MEMORY_BUDGET:-8}" \
    --pimdse "$build/src/cli/pimdse" --mpiexec "$(command -v mpiexec)" --source . --work "$work/np$np" \
    | tee "$work/trials_np$np.log" | grep -E '^(TRIAL|uninterrupted|FAILED|passed)|trials,'
  /usr/bin/python3 tests/reliability/fault_trials.py --cheap --np "$np" --trials "$trials" --seed "$((np + 21))" \
    --budget "${CHEAP_BUDGET:-8}" \
    --pimdse "$build/src/cli/pimdse" --mpiexec "$(command -v mpiexec)" --source . --work "$work/cheap_np$np" \
    | tee "$work/trials_cheap_np$np.log" | grep -E '^(TRIAL|uninterrupted|FAILED|passed)|trials,'
done
