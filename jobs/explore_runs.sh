# shellcheck shell=bash
# Sourced by the job scripts that run one `pimdse explore` per (proposer, seed) on
# inputs/sweeps/nicepim_fig9.yaml (jobs/paper/fig9/run.sh, jobs/tuner-front/run.sh): the
# settings they share from the environment and one run of the paper's configuration with a
# run's proposer, options, seed, budget and paths. Not a job on its own.
#
#   explore_setup JOB DEFAULT_OUT DEFAULT_BUDGET DEFAULT_SAMPLES [OUT_DIR]
#     sets root, out (OUT_DIR, default root/DEFAULT_OUT, created), pimdse (PIMDSE), budget
#     (BUDGET), batch (BATCH, default 16), samples (SAMPLES), seeds (SEEDS, default "1 2 3")
#     and np (NP, default cores + 1); exits 2 when pimdse is not built.
#   explore_run NAME PROPOSER SEED [OPTIONS [LABEL]]
#     writes out/NAME_seedSEED.yaml, OPTIONS (a YAML line of the sweep section) after its
#     samples_per_round, and runs it into out/NAME_seedSEED.h5 (log beside it), continuing
#     a run that has not reached its budget (--resume); LABEL (default NAME) names the run
#     in the progress line.

explore_setup() {
  job=$1
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  out=$(mkdir -p "${5:-$root/$2}" && cd "${5:-$root/$2}" && pwd)
  pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
  [[ -x $pimdse ]] || { echo "$job: $pimdse not found; build first (cmake --preset release && cmake --build build -j2)" >&2; exit 2; }
  budget=${BUDGET:-$3}
  batch=${BATCH:-16}
  samples=${SAMPLES:-$4}
  # shellcheck disable=SC2034 # the callers loop over it
  seeds=${SEEDS:-1 2 3}
  np=${NP:-$(($(nproc) + 1))}
  if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
}

explore_run() {
  local name=$1 proposer=$2 s=$3 options=${4:-} label=${5:-$1}
  local cfg=$out/${name}_seed${s}.yaml
  local h5=$out/${name}_seed${s}.h5
  # The paper's configuration with this run's proposer, options, seed, budget and paths.
  sed -e "s|^  seed: .*|  seed: $s|" -e "s|^  batch_size: .*|  batch_size: $batch|" \
      -e "s|^  budget: .*|  budget: $budget|" -e "s|^  proposer: .*|  proposer: $proposer|" \
      -e "s|^  samples_per_round: .*|  samples_per_round: $samples|" -e "/^  wall_time: /d" \
      -e "s|\.\./networks/|$root/inputs/networks/|" -e "s|^  path: .*|  path: $h5|" \
      "$root/inputs/sweeps/nicepim_fig9.yaml" > "$cfg"
  if [[ -n $options ]]; then
    sed -i "s|^  samples_per_round: .*|&\n$options|" "$cfg"
  fi
  local mode=(--force)
  [[ -e $h5 ]] && mode=(--resume)
  echo "$job: $label seed $s (budget $budget) -> $h5" >&2
  mpirun -np "$np" --oversubscribe "$pimdse" explore "$cfg" -o "$h5" "${mode[@]}" > "$out/${name}_seed${s}.log"
}
