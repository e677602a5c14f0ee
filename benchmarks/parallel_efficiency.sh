#!/usr/bin/env bash
# Parallel efficiency of `pimdse explore` on this machine: evaluations per second with 1 and
# with 2 worker ranks (mpirun -np 2 and -np 3: rank 0 proposes and sleeps while it waits),
# the share of the wall time spent writing HDF5, and rank 0's CPU time. Runs the default
# sweep's workloads (inputs/sweeps/default.yaml: five NicePIM DNNs, random proposer) with
# the budget and batch size below, each rank count REPEAT times, alternating, and prints the
# medians, and the median of the per-pair speedups (pairs run back to back, ABBA).
#
# usage: benchmarks/parallel_efficiency.sh [BUDGET [BATCH [REPEAT]]]   (default 96 32 7)
# environment: PIMDSE (the executable; default build/src/cli/pimdse)
#
# One evaluation (PIM-Mapper and ILP scheduling of the five DNNs) takes 0.1 s to over 10 s,
# so the defaults take about 13 minutes on 2 cores. The speed of a shared machine drifts by
# tens of percent within minutes: trust the per-pair median, and look at "workers busy",
# which does not depend on the machine's speed (idle time inside batches and at their ends).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-96}
batch=${2:-32}
repeat=${3:-7}
pimdse=${PIMDSE:-build/src/cli/pimdse}
[[ -x $pimdse ]] || { echo "parallel_efficiency: $pimdse not found; build first" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config=$work/sweep.yaml
sed -e "s#\.\./networks/#$PWD/inputs/networks/#" -e "s/^  budget: .*/  budget: $budget/" \
    -e "s/^  batch_size: .*/  batch_size: $batch/" -e "/^  wall_time:/d" inputs/sweeps/default.yaml > "$config"

if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}

echo "pimdse parallel efficiency: $(nproc) cores, budget $budget, batch $batch, $repeat runs each"
pressure() { [[ -r /proc/pressure/cpu ]] && awk '/some/ {sub("avg10=", "", $2); print "CPU pressure " $2 "%"}' /proc/pressure/cpu; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) $(pressure)"
declare -A rates writes cpus
declare -a ratios
for ((r = 1; r <= repeat; ++r)); do
  # ABBA: the machine's speed drifts (other tenants, clock), so the two rank counts of a
  # repetition run back to back, in alternating order, and their ratio is taken per pair.
  order="2 3"
  ((r % 2 == 0)) && order="3 2"
  declare -A pair=()
  for np in $order; do
    line=$(mpirun -np $np --oversubscribe "$pimdse" explore "$config" -o "$work/np$np.h5" --force | grep '^this run:')
    # this run: N evaluations in T s (R eval/s), workers busy B%, HDF5 writes W s (P% of the wall
    # time), rank 0 CPU C s, ... (busy: the workers' evaluation time over workers x wall time;
    # batches overlap, docs/engine.md, so the engine sums it, not the batches' spans)
    rate=$(sed -E 's/.*\(([0-9.]+) eval\/s\).*/\1/' <<<"$line")
    share=$(sed -E 's/.*\(([0-9.]+)% of the wall time\).*/\1/' <<<"$line")
    cpu=$(sed -E 's/.*rank 0 CPU ([0-9.]+) s.*/\1/' <<<"$line")
    echo "  run $r, -np $np ($((np - 1)) worker$([[ $np -gt 2 ]] && echo s)): $line [$(pressure)]"
    rates[$np]+="$rate "
    writes[$np]+="$share "
    cpus[$np]+="$cpu "
    pair[$np]=$rate
  done
  ratios+=("$(awk -v a="${pair[2]}" -v b="${pair[3]}" 'BEGIN {printf "%.3f", b / a}')")
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) $(pressure)"

median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
r2=$(median "${rates[2]}")
r3=$(median "${rates[3]}")
printf '\n%-22s %12s %12s %14s\n' "" "eval/s" "HDF5 share" "rank 0 CPU s"
printf '%-22s %12s %11s%% %14s\n' "1 worker  (-np 2)" "$r2" "$(median "${writes[2]}")" "$(median "${cpus[2]}")"
printf '%-22s %12s %11s%% %14s\n' "2 workers (-np 3)" "$r3" "$(median "${writes[3]}")" "$(median "${cpus[3]}")"
awk -v a="$r2" -v b="$r3" 'BEGIN {printf "speedup of 2 workers over 1: %.2fx (ratio of the medians)\n", b / a}'
echo "speedup per back-to-back pair: ${ratios[*]}; median $(median "${ratios[*]}")x"
