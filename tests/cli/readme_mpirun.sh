#!/usr/bin/env bash
# Runs every `mpirun` line of the sweep commands in README.md and docs/cli.md as written, in
# order, except that the default sweep (512 evaluations) is replaced by tests/data/sweep/
# tiny.yaml and out/run.h5 by a file of WORKDIR: the options (--oversubscribe with more
# ranks than cores, --force over an existing file, --resume) are the documented ones.
# Usage: readme_mpirun.sh PIMDSE WORKDIR
set -euo pipefail
pimdse=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir" && mkdir -p "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
runs=0
for doc in README.md docs/cli.md; do
  # The documented command lines that start with mpirun, comments cut off.
  mapfile -t lines < <(grep -E '^mpirun ' "$root/$doc" | sed 's/ *#.*$//')
  [[ ${#lines[@]} -ge 2 ]] || { echo "readme_mpirun: fewer than two mpirun lines in $doc" >&2; exit 1; }
  # A leftover file: the first line must replace it (--force).
  echo stale > "$dir/run.h5"
  for line in "${lines[@]}"; do
    cmd=${line//build\/src\/cli\/pimdse/$pimdse}
    cmd=${cmd//inputs\/sweeps\/default.yaml/$root/tests/data/sweep/tiny.yaml}
    cmd=${cmd//out\/run.h5/$dir/run.h5}
    echo "+ $cmd"
    (cd "$dir" && eval "$cmd") > "$dir/log.txt" 2>&1 || { cat "$dir/log.txt" >&2; echo "failed: $line" >&2; exit 1; }
    grep -Eq 'budget reached: 12 evaluations' "$dir/log.txt" || { cat "$dir/log.txt" >&2; exit 1; }
    runs=$((runs + 1))
  done
done
echo "readme_mpirun: $runs documented mpirun lines ran"
