#!/usr/bin/env bash
# The main job (README.md): installs the Debian packages that are missing, builds pimdse,
# runs the default sweep (inputs/sweeps/default.yaml: the five NicePIM DNNs, random
# proposer, 512 evaluations, at most 10 minutes) with mpirun on this machine's cores, and
# prints the summary and draws the plots.
#
# usage: jobs/run-default.sh [pimdse explore options, e.g. --force]
# environment:
#   PIMDSE_NP      MPI ranks (default: cores + 1; rank 0 proposes and sleeps while it waits,
#                  the others evaluate, so every core evaluates)
#   PIMDSE_CONFIG  the sweep configuration (default: inputs/sweeps/default.yaml)
#   PIMDSE_OUT     the HDF5 output (default: out/default.h5)
#
# An existing output is resumed (a killed or wall-time-stopped sweep goes on; a finished one
# just reports); pass --force to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

echo "== dependencies =="
if ! tools/install-deps.sh --check; then
  if [[ $(id -u) -eq 0 ]]; then
    tools/install-deps.sh
  elif command -v sudo >/dev/null; then
    sudo tools/install-deps.sh
  else
    echo "run-default: missing packages and no root or sudo to install them: run tools/install-deps.sh as root" >&2
    exit 2
  fi
fi

echo
echo "== build (build/, release) =="
[[ -f build/CMakeCache.txt ]] || cmake --preset release
cmake --build --preset release --target pimdse
pimdse=build/src/cli/pimdse
"$pimdse" --version

config=${PIMDSE_CONFIG:-inputs/sweeps/default.yaml}
out=${PIMDSE_OUT:-out/default.h5}
cores=$(nproc)
np=${PIMDSE_NP:-$((cores + 1))}
mkdir -p "$(dirname "$out")"
mode=()
if [[ -e $out && ! " $* " =~ " --force " && ! " $* " =~ " --resume " ]]; then
  mode=(--resume)
fi

# Open MPI: as root it needs these two; containers often forbid the CMA single-copy transport;
# rank 0 sleeps, so cores + 1 ranks oversubscribe the slots by one on purpose.
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}

echo
echo "== sweep: $config on $np ranks ($cores cores) -> $out =="
# Exit code 7: stopped cleanly before the wall time (run this script again to resume).
status=0
mpirun -np "$np" --oversubscribe "$pimdse" explore "$config" -o "$out" "${mode[@]}" "$@" || status=$?
if ((status != 0 && status != 7)); then exit "$status"; fi

echo
echo "== summary =="
"$pimdse" summary "$out"

echo
echo "== plots =="
/usr/bin/python3 postprocess/sweep_plots.py "$out"
echo
echo "run-default: done in $((SECONDS - started)) s"
