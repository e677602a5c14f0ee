#!/bin/bash
# A large pimdse sweep on PBS Pro / OpenPBS, resumed across jobs (docs/cli.md, docs/engine.md).
#
#   qsub -v CONFIG=inputs/sweeps/nicepim_fig9.yaml,OUT=out/fig9.h5 jobs/pbs.sh
#
# Rank 0 proposes, keeps the archive and writes the file, sleeping while it waits; every
# other rank evaluates. Each job runs until the sweep's budget is reached or its walltime is
# nearly up: pimdse then starts no batch it cannot finish before --wall-time (the walltime
# minus PIMDSE_MARGIN), finishes the started ones, stops cleanly and writes "wall_time_stop"
# to its --status-file (exiting 0: a non-zero exit makes mpirun print an abort banner). Then
# this script submits itself again with the same queue, account, resources (-q, -A, -l read
# back from the job) and PIMDSE_* settings, and the new job resumes the file. Should the
# stop come too late, PBS's SIGTERM at the walltime stops the ranks at once (exit code 6;
# the script passes it on to mpirun) and the script resubmits within PBS's kill delay. A job
# that PBS reruns (-r y: node failure, `qrerun`) resumes the same way.
#
# Ranks are started by Open MPI's mpirun on the job's nodes (--hostfile $PBS_NODEFILE):
# Debian's Open MPI is built without PBS (tm) support. The walltime is read from the job
# (qstat -f), so only the #PBS line sets it. A job that commits no new batch (one batch
# outlives the walltime) does not resubmit, nor does the chain pass PIMDSE_MAX_JOBS jobs.
#
# Adapt the #PBS lines to the machine.
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
# Stop this long before the job ends: the last batches' writes and the exit must fit.
margin_seconds=${PIMDSE_MARGIN:-600}
chain=${PIMDSE_CHAIN:-1}
max_jobs=${PIMDSE_MAX_JOBS:-100}
export HDF5_USE_FILE_LOCKING=FALSE  # Lustre and NFS often refuse HDF5's POSIX locks
# pimdse's own one-writer lock does not follow that switch: where the file system has no locks
# it refuses to start; set PIMDSE_OUTPUT_LOCK=off there (docs/output.md, "One writer: the output lock").
ranks=$(wc -l < "$PBS_NODEFILE")

# What the job was submitted with: its walltime, queue, account and resource requests.
info=$(qstat -f "$PBS_JOBID")
attr() { awk -v k="$1" '$1 == k && $2 == "=" { sub(/^[^=]*= /, ""); print; exit }' <<< "$info"; }
walltime=$(attr Resource_List.walltime)
wall_option=()
if [[ -n $walltime ]]; then
  seconds=$(awk -v t="$walltime" 'BEGIN { n = split(t, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }')
  wall=$((seconds - margin_seconds))
  ((wall > 60)) || { echo "pimdse job: walltime $walltime leaves no time to run" >&2; exit 1; }
  wall_option=(--wall-time "$wall")
fi
resubmit=()
queue=$(attr queue) && [[ -n $queue ]] && resubmit+=(-q "$queue")
account=$(attr Account_Name) && [[ -n $account ]] && resubmit+=(-A "$account")
# Under a select statement PBS Pro derives the job-wide ncpus, mem and nodect from its chunks
# and lists them too, but qsub refuses them beside -l select: pass only what was requested.
if [[ -n $(attr Resource_List.select) ]]; then
  keys=(select place walltime)
else
  keys=(nodes ncpus mem place walltime)
fi
for key in "${keys[@]}"; do
  value=$(attr "Resource_List.$key")
  [[ -n $value ]] && resubmit+=(-l "$key=$value")
done

committed() {
  [[ -e $out ]] || { echo 0; return; }
  "$pimdse" summary "$out" 2> /dev/null | awk '/committed batches/ { print $1; exit }' || echo 0
}

mkdir -p "$(dirname "$out")"
mode=()
[[ -e $out ]] && mode=(--resume)
before=$(committed)
echo "== $(date -u +%FT%TZ) job $PBS_JOBID ($chain of the chain): $config -> $out, $ranks ranks," \
     "${wall_option[*]:-no wall time}, $before batches committed"

# mpirun runs in the background so that the shell can pass a SIGTERM on: bash runs a trap
# only between commands, and `wait` is one it interrupts.
status_file=$out.status
rm -f "$status_file"
signalled=0
launcher=
trap 'signalled=1; kill -TERM "$launcher" 2> /dev/null || true' TERM
mpirun --hostfile "$PBS_NODEFILE" -np "$ranks" -x HDF5_USE_FILE_LOCKING \
  "$pimdse" explore "$config" -o "$out" --status-file "$status_file" "${wall_option[@]}" "${mode[@]}" &
launcher=$!
while kill -0 "$launcher" 2> /dev/null; do wait "$launcher" || true; done  # a trap cuts a wait short
status=0
wait "$launcher" || status=$?  # bash keeps an ended child's status
trap - TERM
ended=$(cat "$status_file" 2> /dev/null || true)
rm -f "$status_file"
# mpirun exits 1, not the ranks' 6, when it is the one signalled (docs/cli.md, "Signals").
((signalled)) && ((status != 0)) && status=6
[[ $ended == wall_time_stop ]] && status=7

case $status in
  0) "$pimdse" summary "$out" ;;
  6 | 7)
    after=$(committed)
    if ((after <= before)); then
      echo "== no batch committed in this job ($before before, $after after): not resubmitting;" \
           "give the job more walltime" >&2
      exit 1
    fi
    if ((chain >= max_jobs)); then
      echo "== $max_jobs jobs in the chain (PIMDSE_MAX_JOBS): not resubmitting" >&2
      exit 1
    fi
    echo "== exit $status: budget not reached; submitting the next job to resume $out"
    # (not "$0": PBS runs a spooled copy of the script)
    qsub "${resubmit[@]}" \
      -v "CONFIG=$config,OUT=$out,PIMDSE=$pimdse,PIMDSE_CHAIN=$((chain + 1)),PIMDSE_MARGIN=$margin_seconds,PIMDSE_MAX_JOBS=$max_jobs" \
      jobs/pbs.sh
    ;;
  *) echo "== pimdse explore failed with exit code $status" >&2; exit "$status" ;;
esac
