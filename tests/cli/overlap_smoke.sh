#!/usr/bin/env bash
# jobs/paper/overlap/run.sh on one small network and system, all three settings: the job runs,
# the transformed latency of each mapping is at most its overlapped one, which is at most its
# sequential one, and the layers' added
# cycles of postprocess/overlap.py sum to the overlapped and the sequential latency pimdse
# reports (the per-layer finish times agree with the network's); and that one setting alone
# draws its table and figure.
# Usage: overlap_smoke.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
source "$(dirname "$0")/job_smoke.sh"
job_smoke_run jobs/paper/overlap/run.sh
/usr/bin/python3 - "$dir" <<'PY'
import sys
import pandas as pd
d = sys.argv[1]
nets = pd.read_csv(f"{d}/overlap.csv")
layers = pd.read_csv(f"{d}/overlap_layers.csv")
assert sorted(nets.setting) == ["a", "b", "d"], nets
assert (nets.overlapped_cycles <= nets.sequential_cycles).all(), nets
assert (nets.transformed_cycles <= nets.overlapped_cycles).all(), nets
for r in nets.itertuples():
    mine = layers[layers.setting == r.setting]
    assert abs(mine.added_cycles.sum() - r.overlapped_cycles) <= 1e-9 * r.overlapped_cycles, (r, mine)
    assert abs(mine.sequential_added_cycles.sum() - r.sequential_cycles) <= 1e-9 * r.sequential_cycles, (r, mine)
    assert abs(mine.finish_cycles.max() - r.overlapped_cycles) <= 1e-9 * r.overlapped_cycles, (r, mine)
    share = mine.overlap_share.dropna()
    assert len(share) and ((share >= 0) & (share <= 1)).all(), mine
PY
grep -Eq '^\| b \| [a-z0-9_]+ \| [a-z0-9_]+ \| [0-9,]+ \| [0-9,]+ \| [0-9.]+ \|' "$dir/overlap_table.md" ||
  { cat "$dir/overlap_table.md" >&2; exit 1; }
job_smoke_figures overlap_smoke overlap
# One setting alone (SETTINGS=a): the per-layer panel falls back to it, the table is written.
{ head -1 "$dir/runs.csv"; grep '^a,' "$dir/runs.csv"; } > "$dir/runs_a.csv"
/usr/bin/python3 "$job_smoke_root/postprocess/overlap.py" "$dir/runs_a.csv" --out "$dir/only_a" > /dev/null
grep -Eq '^\| a \| ' "$dir/only_a/overlap_table.md" || { cat "$dir/only_a/overlap_table.md" >&2; exit 1; }
echo "overlap job ok"
