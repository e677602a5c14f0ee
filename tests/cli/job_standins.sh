# Stand-ins shared by slurm_script.sh and pbs_script.sh (sourced): `standin_mpirun DIR MPIRUN`
# writes DIR/bin/mpirun, which records its arguments in DIR/mpirun.args and runs the real
# MPIRUN on two ranks, outside the batch system's environment (from which Open MPI would read
# an allocation): the ranks, any abort banner and the exit code are Open MPI's own. With
# FAKE_WALL set it replaces the --wall-time the job script computed, so that a stop comes
# within seconds.
standin_mpirun() {
  local dir=$1 real=$2
  cat > "$dir/bin/mpirun" <<S
#!/bin/bash
echo "\$*" >> "$dir/mpirun.args"
args=()
while ((\$#)); do
  case \$1 in
    --hostfile | -np | -x) shift 2 ;;
    --wall-time) args+=("\$1" "\${FAKE_WALL:-\$2}"); shift 2 ;;
    *) args+=("\$1"); shift ;;
  esac
done
exec env -u SLURM_JOB_ID -u SLURM_JOBID -u SLURM_NTASKS -u SLURM_NODELIST -u PBS_JOBID -u PBS_NODEFILE \\
  -u PBS_ENVIRONMENT "$real" --oversubscribe -np 2 "\${args[@]}"
S
  chmod +x "$dir/bin/mpirun"
}

# Open MPI's banners for a rank that exited non-zero: a clean stop must not print them.
standin_no_abort_banner() {
  ! grep -Eq 'Per user-direction, the job has been aborted|exited with non-zero status' "$1"
}
