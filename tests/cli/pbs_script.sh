#!/usr/bin/env bash
# jobs/pbs.sh outside PBS: qstat, qsub and mpirun are replaced by stand-ins that record what
# they are asked (job_standins.sh; mpirun runs the real one on two ranks), and the script is
# run as PBS Pro would (tests/data/sweep/faults.yaml, whose batch 1 stalls 5 s). qstat
# describes a job submitted with -l select, so PBS Pro lists the derived job-wide ncpus, mem
# and nodect as well; qsub refuses those beside -l select, as PBS Pro does. Checks: the
# walltime minus PIMDSE_MARGIN becomes --wall-time; a wall-time stop exits 0 without Open
# MPI's abort banner and resubmits with the queue, account, select, place and walltime and
# every PIMDSE_* setting; the resubmitted job, run with exactly those -v variables, resumes
# the file to its budget and submits nothing; the chain stops at PIMDSE_MAX_JOBS.
# Usage: pbs_script.sh PIMDSE WORKDIR MPIRUN
set -euo pipefail
pimdse=$1 dir=$2 real_mpirun=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/cli/job_standins.sh"
rm -rf "$dir" && mkdir -p "$dir/bin"
cat > "$dir/bin/qstat" <<'S'
#!/bin/bash
[[ $1 == -f ]] || { echo "qstat stand-in: expected -f JOBID, got $*" >&2; exit 2; }
cat <<Q
Job Id: $2
    Job_Name = pimdse
    Account_Name = proj42
    queue = workq
    Resource_List.mem = 64gb
    Resource_List.ncpus = 2
    Resource_List.nodect = 2
    Resource_List.place = scatter
    Resource_List.select = 2:ncpus=1:mpiprocs=1:mem=32gb
    Resource_List.walltime = 00:30:00
Q
S
cat > "$dir/bin/qsub" <<S
#!/bin/bash
echo "\$*" >> "$dir/qsub.args"
select=0 jobwide=
while ((\$#)); do
  case \$1 in
    -l) [[ \$2 == select=* ]] && select=1
        [[ \$2 =~ ^(ncpus|mem|nodes|nodect)= ]] && jobwide=\${2%%=*}
        shift 2 ;;
    *) shift ;;
  esac
done
if ((select)) && [[ -n \$jobwide ]]; then echo "qsub: Cannot be used with select or place: \$jobwide" >&2; exit 15; fi
echo 43.pbs
S
chmod +x "$dir/bin/"*
standin_mpirun "$dir" "$real_mpirun"
printf 'n1\nn2\n' > "$dir/nodefile"
export PATH="$dir/bin:$PATH" PBS_O_WORKDIR="$root" PBS_NODEFILE="$dir/nodefile" PIMDSE="$pimdse"
fail() { echo "pbs_script: $*" >&2; cat "$dir/log" >&2; exit 1; }

# The first job: a 30 min walltime less a 700 s margin; mpirun's stand-in makes it 9 s, so
# the run stops after batch 1's stall having committed batch 0.
status=0
PBS_JOBID=42.pbs CONFIG=tests/data/sweep/faults.yaml OUT="$dir/a.h5" PIMDSE_MARGIN=700 PIMDSE_MAX_JOBS=5 FAKE_WALL=9 \
  bash "$root/jobs/pbs.sh" > "$dir/log" 2>&1 || status=$?
((status == 0)) || fail "the resubmitting job exited with $status"
grep -q -- '--hostfile .*nodefile -np 2 .*--status-file .*a.h5.status --wall-time 1100$' "$dir/mpirun.args" \
  || fail "mpirun's arguments: $(cat "$dir/mpirun.args")"
grep -q 'stopped before the wall time' "$dir/log" || fail "no wall-time stop"
standin_no_abort_banner "$dir/log" || fail "mpirun printed an abort banner on a clean stop"
grep -q 'exit 7: budget not reached; submitting the next job' "$dir/log" || fail "no resubmission"
[[ -s $dir/qsub.args ]] || fail "qsub not called"
qsub_args=$(cat "$dir/qsub.args")
for want in "-q workq" "-A proj42" "-l select=2:ncpus=1:mpiprocs=1:mem=32gb" "-l place=scatter" "-l walltime=00:30:00" \
            "PIMDSE_CHAIN=2" "PIMDSE_MARGIN=700" "PIMDSE_MAX_JOBS=5" "OUT=$dir/a.h5" " jobs/pbs.sh"; do
  [[ $qsub_args == *"$want"* ]] || fail "qsub lacks '$want': $qsub_args"
done
grep -q 'qsub: Cannot be used' "$dir/log" && fail "qsub refused the resubmission"

# The next job, with exactly the variables qsub was given (-v) and nothing else of ours.
vars=$(sed -n 's/.* -v \([^ ]*\) .*/\1/p' "$dir/qsub.args")
IFS=, read -r -a assignments <<< "$vars"
: > "$dir/mpirun.args"
env -u PIMDSE PBS_JOBID=43.pbs "${assignments[@]}" bash "$root/jobs/pbs.sh" > "$dir/log" 2>&1 || fail "the next job failed"
grep -q '43.pbs (2 of the chain)' "$dir/log" || fail "the next job is not the chain's second"
grep -q -- '--wall-time 1100 --resume$' "$dir/mpirun.args" || fail "the margin was not passed on: $(cat "$dir/mpirun.args")"
grep -q 'budget reached: 12 evaluations' "$dir/log" || fail "the next job did not finish the sweep"
(($(wc -l < "$dir/qsub.args") == 1)) || fail "a finished sweep was resubmitted"

# The chain's last job (PIMDSE_MAX_JOBS) stops even though the budget is not reached.
status=0
PBS_JOBID=44.pbs CONFIG=tests/data/sweep/faults.yaml OUT="$dir/b.h5" PIMDSE_CHAIN=5 PIMDSE_MAX_JOBS=5 FAKE_WALL=9 \
  bash "$root/jobs/pbs.sh" > "$dir/log" 2>&1 || status=$?
((status == 1)) || fail "the chain's last job exited with $status, expected 1"
grep -q '5 jobs in the chain (PIMDSE_MAX_JOBS): not resubmitting' "$dir/log" || fail "no chain-length message"
(($(wc -l < "$dir/qsub.args") == 1)) || fail "the chain's last job resubmitted"
echo "pbs_script: wall time, banner-free stop, resubmission arguments, resumed chain and its length limit behave"
