#!/usr/bin/env bash
# jobs/intra-node-gap/run.sh on one small network and system: the job runs and draws its
# figure, and on every part-layer the exact node model is no worse than the fast search in
# the objective it minimises: latency (the slowest node's cycles) and energy (summed over the
# nodes). A layer's EDP is not a sum of its part-layers', so it has no such bound.
# Usage: intra_node_gap_smoke.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
source "$(dirname "$0")/job_smoke.sh"
job_smoke_run jobs/intra-node-gap/run.sh
/usr/bin/python3 - "$dir" <<'PY'
import sys
import pandas as pd
d = pd.read_csv(f"{sys.argv[1]}/gap_part_layers.csv")
assert len(d) >= 2, d
assert (d.cycles_latency <= d.cycles_analytic).all(), d
assert (d.energy_energy <= d.energy_analytic * (1 + 1e-12)).all(), d
assert (d.gap_latency >= 0).all() and (d.gap_energy >= -1e-12).all(), d
PY
grep -Eq '^\| all \| [0-9]+ \| latency \| [0-9.]+ % \|' "$dir/gap.md" || { cat "$dir/gap.md" >&2; exit 1; }
job_smoke_figures intra_node_gap_smoke gap
echo "intra-node gap job ok"
