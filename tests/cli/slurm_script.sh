#!/usr/bin/env bash
# jobs/slurm.sbatch outside Slurm: squeue, srun and scontrol are replaced by stand-ins that
# print what they are asked, and the script is run as sbatch would (tests/data/sweep/
# faults.yaml, whose batch 1 stalls 5 s). Checks: an UNLIMITED time limit runs without
# --wall-time and srun --mpi=pmix is chosen from `srun --mpi=list`; a wall-time stop (exit 7)
# that committed batches is requeued by exit code; one that committed none is not.
# Usage: slurm_script.sh PIMDSE WORKDIR
set -euo pipefail
pimdse=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir" && mkdir -p "$dir/bin"
cat > "$dir/bin/squeue" <<'S'
#!/bin/bash
echo "$FAKE_LEFT"
S
cat > "$dir/bin/srun" <<'S'
#!/bin/bash
if [[ $1 == --mpi=list ]]; then printf 'MPI plugin types are...\n\tnone\n\tpmix\n'; exit 0; fi
echo "FAKE srun $1" >&2
shift
exec "$@"
S
cat > "$dir/bin/scontrol" <<'S'
#!/bin/bash
echo "FAKE scontrol $*"
S
# A launcher whose pimdse gets a 9 s wall time (the script asks for at least 61 s). No
# candidate is handed out once the elapsed time plus the longest evaluation so far would pass
# it: candidate 5 stalls 5 s in batch 1, so after it the run stops whatever the machine's
# speed, having committed batch 0 (five candidates before the stall need only fit in ~8 s:
# 0.1 s each in a release build, 0.35 s in the sanitizer build, 1.3 s there beside a busy
# loop on both cores).
cat > "$dir/bin/wall9" <<'S'
#!/bin/bash
args=("$@")
for i in "${!args[@]}"; do [[ ${args[$i]} == --wall-time ]] && args[$((i + 1))]=9; done
exec "${args[@]}"
S
printf '#!/bin/bash\nexit 7\n' > "$dir/bin/exit7"
chmod +x "$dir/bin/"*
export PATH="$dir/bin:$PATH" SLURM_JOB_ID=42 SLURM_NTASKS=1 SLURM_SUBMIT_DIR="$root" PIMDSE="$pimdse"
config=tests/data/sweep/faults.yaml
fail() { echo "slurm_script: $*" >&2; cat "$dir/log" >&2; exit 1; }

FAKE_LEFT=UNLIMITED bash "$root/jobs/slurm.sbatch" "$config" "$dir/a.h5" > "$dir/log" 2>&1 || fail "UNLIMITED run failed"
grep -q 'srun --mpi=pmix, no wall time' "$dir/log" || fail "no pmix launch without wall time"
grep -q 'budget reached: 12 evaluations' "$dir/log" || fail "the sweep did not finish"
! grep -q 'FAKE scontrol' "$dir/log" || fail "a finished sweep was requeued"

status=0
FAKE_LEFT=00:30:00 PIMDSE_LAUNCH="$dir/bin/wall9" bash "$root/jobs/slurm.sbatch" "$config" "$dir/b.h5" > "$dir/log" 2>&1 || status=$?
((status == 0)) || fail "the requeueing run exited with $status"
grep -q 'exit 7: budget not reached; requeueing' "$dir/log" || fail "no requeue after the wall-time stop"
grep -q 'FAKE scontrol requeue 42' "$dir/log" || fail "scontrol requeue not called"

status=0
FAKE_LEFT=00:30:00 PIMDSE_LAUNCH="$dir/bin/exit7" bash "$root/jobs/slurm.sbatch" "$config" "$dir/b.h5" > "$dir/log" 2>&1 || status=$?
((status == 1)) || fail "a run without progress exited with $status, expected 1"
grep -q 'no batch committed in this allocation' "$dir/log" || fail "no endless-requeue guard message"
! grep -q 'FAKE scontrol' "$dir/log" || fail "requeued without progress"
echo "slurm_script: UNLIMITED, requeue by exit code and the no-progress guard behave"
