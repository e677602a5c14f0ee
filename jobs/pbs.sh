#!/bin/bash
# A large pimdse sweep on PBS Pro / OpenPBS, resumed across jobs (docs/cli.md, docs/output.md).
#
#   qsub -v CONFIG=inputs/sweeps/nicepim_fig9.yaml,OUT=out/fig9.h5 jobs/pbs.sh
#
# Rank 0 proposes and keeps the archive, sleeping while it waits; every other rank evaluates.
# Each job runs until the sweep's budget is reached or its walltime is nearly up: pimdse then
# stops cleanly between batches (--wall-time) and this script submits itself again, and the
# new job resumes the file where it stopped. A job that PBS reruns (-r y: node failure,
# `qrerun`) resumes the same way: the file is consistent at every batch boundary, and at most
# the interrupted batch is evaluated again.
#
# Adapt the #PBS lines to the machine; WALLTIME_SECONDS must match -l walltime.
#PBS -N pimdse
#PBS -l select=4:ncpus=32:mpiprocs=32
#PBS -l walltime=24:00:00
#PBS -r y
#PBS -j oe
set -euo pipefail
cd "${PBS_O_WORKDIR:-.}"

config=${CONFIG:-inputs/sweeps/nicepim_fig9.yaml}
out=${OUT:-out/$(basename "$config" .yaml).h5}
pimdse=${PIMDSE:-$PWD/build/src/cli/pimdse}
walltime_seconds=${WALLTIME_SECONDS:-86400}
# Stop this long before the job ends: the last batch's writes and the exit must fit.
margin_seconds=${PIMDSE_MARGIN:-600}
wall=$((walltime_seconds - margin_seconds))
ranks=$(wc -l < "${PBS_NODEFILE:-/dev/null}")

mkdir -p "$(dirname "$out")"
mode=()
[[ -e $out ]] && mode=(--resume)
echo "== $(date -u +%FT%TZ) job ${PBS_JOBID:-?}: $config -> $out, $ranks ranks, wall time ${wall}s"

log=$(mktemp)
mpiexec -n "$ranks" "$pimdse" explore "$config" -o "$out" --wall-time "$wall" "${mode[@]}" | tee "$log"

if grep -q "stopped before the wall time" "$log"; then
  echo "== budget not reached: submitting the next job to resume $out"
  # (not "$0": PBS runs a spooled copy of the script)
  qsub -v "CONFIG=$config,OUT=$out,PIMDSE=$pimdse,WALLTIME_SECONDS=$walltime_seconds" jobs/pbs.sh
else
  "$pimdse" summary "$out"
fi
rm -f "$log"
