#!/usr/bin/env bash
# jobs/slurm.sbatch outside Slurm: squeue, srun, scontrol and mpirun are replaced by stand-ins
# that record what they are asked (job_standins.sh; mpirun runs the real one on two ranks),
# and the script is run as sbatch would (tests/data/sweep/faults.yaml, whose batch 1 stalls
# 5 s). Checks: an UNLIMITED time limit runs without --wall-time and srun --mpi=pmix is chosen
# from `srun --mpi=list`; under mpirun a wall-time stop exits 0 without Open MPI's abort
# banner, says so in the status file and is requeued, and the requeued job resumes the file
# to its budget; a SIGTERM to the script (Slurm's --signal=B:TERM) reaches the ranks and is
# requeued; a stop that committed nothing is not requeued.
# Usage: slurm_script.sh PIMDSE WORKDIR MPIRUN
set -euo pipefail
pimdse=$1 dir=$2 real_mpirun=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/cli/job_standins.sh"
rm -rf "$dir" && mkdir -p "$dir/bin"
cat > "$dir/bin/squeue" <<'S'
#!/bin/bash
echo "$FAKE_LEFT"
S
cat > "$dir/bin/srun" <<'S'
#!/bin/bash
if [[ $1 == --mpi=list ]]; then
  printf 'MPI plugin types are...\n\tnone\n'
  [[ ${FAKE_PMIX:-yes} == yes ]] && printf '\tpmix\n'
  exit 0
fi
echo "FAKE srun $1" >&2
shift
exec "$@"
S
cat > "$dir/bin/scontrol" <<'S'
#!/bin/bash
echo "FAKE scontrol $*"
S
printf '#!/bin/bash\nexit 7\n' > "$dir/bin/exit7"
chmod +x "$dir/bin/"*
standin_mpirun "$dir" "$real_mpirun"
export PATH="$dir/bin:$PATH" SLURM_JOB_ID=42 SLURM_NTASKS=2 SLURM_SUBMIT_DIR="$root" PIMDSE="$pimdse"
config=tests/data/sweep/faults.yaml
fail() { echo "slurm_script: $*" >&2; cat "$dir/log" >&2; exit 1; }

# Slurm signals the script itself (B:), before the stop margin runs out.
signal_at=$(sed -n 's/^#SBATCH --signal=B:TERM@\([0-9]*\)$/\1/p' "$root/jobs/slurm.sbatch")
[[ -n $signal_at ]] && ((signal_at < 600)) || fail "no '#SBATCH --signal=B:TERM@T' with T below the 600 s margin"

FAKE_LEFT=UNLIMITED bash "$root/jobs/slurm.sbatch" "$config" "$dir/a.h5" > "$dir/log" 2>&1 || fail "UNLIMITED run failed"
grep -q 'srun --mpi=pmix, no wall time' "$dir/log" || fail "no pmix launch without wall time"
grep -q 'budget reached: 12 evaluations' "$dir/log" || fail "the sweep did not finish"
! grep -q 'FAKE scontrol' "$dir/log" || fail "a finished sweep was requeued"

# mpirun (no PMIx plugin): pimdse gets a 9 s wall time. No batch is started that could not
# end within it and no candidate handed out once the elapsed time plus the longest evaluation
# so far would pass it: candidate 5 stalls 5 s in batch 1, so the run stops after it whatever
# the machine's speed, having committed batch 0.
status=0
FAKE_PMIX=no FAKE_LEFT=00:30:00 FAKE_WALL=9 bash "$root/jobs/slurm.sbatch" "$config" "$dir/b.h5" > "$dir/log" 2>&1 || status=$?
((status == 0)) || fail "the requeueing run exited with $status"
grep -q -- '--status-file .*b.h5.status --wall-time 1200$' "$dir/mpirun.args" || fail "mpirun not given --status-file and the wall time: $(cat "$dir/mpirun.args")"
grep -q 'stopped before the wall time' "$dir/log" || fail "no wall-time stop"
standin_no_abort_banner "$dir/log" || fail "mpirun printed an abort banner on a clean stop"
grep -q 'exit 7: budget not reached; requeueing' "$dir/log" || fail "no requeue after the wall-time stop"
grep -q 'FAKE scontrol requeue 42' "$dir/log" || fail "scontrol requeue not called"
[[ ! -e $dir/b.h5.status ]] || fail "the status file was left behind"

# The requeued job (Slurm sets SLURM_RESTART_COUNT) resumes the file to its budget.
SLURM_RESTART_COUNT=1 FAKE_PMIX=no FAKE_LEFT=00:30:00 bash "$root/jobs/slurm.sbatch" "$config" "$dir/b.h5" > "$dir/log" 2>&1 || fail "the requeued job failed"
grep -q 'resuming after 1 batches' "$dir/log" || fail "the requeued job did not resume"
grep -q 'budget reached: 12 evaluations' "$dir/log" || fail "the requeued job did not finish the sweep"
! grep -q 'FAKE scontrol' "$dir/log" || fail "a finished sweep was requeued"

# SIGTERM to the script once batch 0 is written (batch 1's stall leaves 5 s): mpirun passes it
# to the ranks, which stop (exit 6), and the job is requeued.
FAKE_PMIX=no FAKE_LEFT=00:30:00 bash "$root/jobs/slurm.sbatch" "$config" "$dir/c.h5" > "$dir/log" 2>&1 &
job=$!
for _ in $(seq 600); do grep -q 'batch 0: 4/12' "$dir/log" && break; sleep 0.1; done
kill -TERM "$job"
status=0
wait "$job" || status=$?
((status == 0)) || fail "the signalled run exited with $status"
grep -q 'pimdse: stopped by SIGTERM' "$dir/log" || fail "the ranks were not stopped by SIGTERM"
grep -q 'exit 6: budget not reached; requeueing' "$dir/log" || fail "no requeue after SIGTERM"

status=0
FAKE_LEFT=00:30:00 PIMDSE_LAUNCH="$dir/bin/exit7" bash "$root/jobs/slurm.sbatch" "$config" "$dir/b.h5" > "$dir/log" 2>&1 || status=$?
((status == 1)) || fail "a run without progress exited with $status, expected 1"
grep -q 'no batch committed in this allocation' "$dir/log" || fail "no endless-requeue guard message"
! grep -q 'FAKE scontrol' "$dir/log" || fail "requeued without progress"
echo "slurm_script: UNLIMITED, banner-free wall-time stop, requeue and resume, SIGTERM and the no-progress guard behave"
